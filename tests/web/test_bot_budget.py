"""A bot on a real-time clock thinks within it: the share of its time left that each decision is
given, and how a bot's spec is capped to it. Plain functions, no server: the figures are exact
here, while ``test_api_clock.py`` checks on a real server that the budget is applied and charged.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from boardlab.ai.players import timed_spec
from boardlab.core.registry import make
from boardlab.web.clock import Clocks, TimeControl

START = datetime(2026, 11, 25, 12, tzinfo=UTC)


def bot_to_move(control: TimeControl, timed: bool = True) -> Clocks:
    """The clocks of a two-seat match in which seat 1 (the bot) is to move since START."""
    clocks = Clocks(control, 2, START.isoformat())
    clocks.turn_begins(1, timed, START)
    return clocks


def after(seconds: float) -> datetime:
    return START + timedelta(seconds=seconds)


def test_a_decision_gets_a_twentieth_of_the_time_left_plus_most_of_the_increment() -> None:
    clocks = bot_to_move(TimeControl(3, 0))
    assert clocks.bot_budget(START) == pytest.approx(0.15)
    assert clocks.bot_budget(after(1)) == pytest.approx(0.1)
    assert bot_to_move(TimeControl(60, 2)).bot_budget(START) == pytest.approx(3 + 1.6)


def test_a_decision_gets_at_most_half_the_time_left_and_at_least_a_twentieth_of_a_second() -> None:
    # 3/20 + 0.8 * 2 = 1.75 s would be more than half of the 3 s left.
    assert bot_to_move(TimeControl(3, 2)).bot_budget(START) == pytest.approx(1.5)
    assert bot_to_move(TimeControl(1, 0)).bot_budget(after(0.5)) == pytest.approx(0.05)


def test_no_budget_without_a_running_real_time_clock() -> None:
    assert bot_to_move(TimeControl(3, 0), timed=False).bot_budget(START) is None
    assert bot_to_move(TimeControl(days=2)).bot_budget(START) is None


def test_a_bot_spec_is_capped_at_the_budget_and_keeps_a_shorter_time_of_its_own() -> None:
    game = make("murus-gallicus")
    # A level is spelled out first (Murus Gallicus's expert: alpha-beta for 2 s).
    assert timed_spec("level:expert", game, 0.15) == "alphabeta:noise=0.01,time=0.150"
    assert timed_spec("mcts:iters=50", game, 0.2) == "mcts:iters=50,time=0.200"
    assert timed_spec("alphabeta:time=0.1,depth=3", game, 0.5) == "alphabeta:depth=3,time=0.100"
    # Without a budget, and for bots that answer at once, the spec is left as it is.
    assert timed_spec("level:expert", game, None) == "level:expert"
    assert timed_spec("random", game, 0.15) == "random"
