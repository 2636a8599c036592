"""What the analysis board's bot answers (``web/analysis_bot.py``): a line of up to eight
decisions that stops at the game's end or when the budget is spent, each decision the bot's own
choice with its seed, from a spec that must name a bot; and the spec it searches with."""

from __future__ import annotations

import pytest

import boardlab
from boardlab.ai.players import make_bot
from boardlab.web.analysis_bot import LINE_DECISIONS, analyse, analysis_spec, evaluations

MURUS = boardlab.make("murus-gallicus")


def test_the_line_holds_eight_decisions_each_the_bots_own_choice() -> None:
    state = MURUS.new_initial_state()
    found = analyse(state, "random", 3.0, 41)
    assert LINE_DECISIONS == 8 and len(found["line"]) == 8 and not found["line_over"]
    # Decision n of the line is the bot's choice with the seed plus n.
    probe = state.clone()
    for number, decision in enumerate(found["line"]):
        bot = make_bot("random", probe.game, 41 + number)
        assert bot is not None
        assert probe.action_to_str(bot.choose(probe)) == decision
        probe.play(decision)
    assert found["suggestion"] == found["line"][0]
    assert found["before"] == evaluations(state) and found["after"] == evaluations(probe)
    assert found["after"] != found["before"] and found["stats"] == {}
    assert 0 <= found["seconds"] < 3.0 and round(found["seconds"], 3) == found["seconds"]


def test_a_spent_budget_leaves_the_suggestion_alone() -> None:
    found = analyse(MURUS.new_initial_state(), "random", 0.0, 5)
    assert found["line"] == [found["suggestion"]] and not found["line_over"]


def test_a_line_stops_at_the_end_of_the_game() -> None:
    short = boardlab.make("murus-gallicus", max_plies=3).new_initial_state()
    found = analyse(short, "random", 3.0, 2)
    assert len(found["line"]) == 3 and found["line_over"]
    assert found["after"] == [0.0, 0.0]


def test_a_spec_that_is_no_bot_is_refused() -> None:
    with pytest.raises(ValueError, match="'human' is not a bot"):
        analyse(MURUS.new_initial_state(), "human", 1.0, 1)


def test_the_first_searchs_figures_are_given_to_the_millisecond() -> None:
    found = analyse(MURUS.new_initial_state(), "alphabeta:depth=2", 3.0, 1)
    assert found["stats"]["nodes"] > 1 and all(
        round(value, 3) == value for value in found["stats"].values()
    )


def test_evaluations_are_the_result_once_over_else_the_heuristic_to_three_places() -> None:
    state = MURUS.new_initial_state()
    state.play("a1-a3")
    assert evaluations(state) == [round(float(v), 3) for v in state.heuristics()]
    over = boardlab.make("murus-gallicus", max_plies=1).new_initial_state()
    over.play("a1-a3")
    assert evaluations(over) == [0.0, 0.0]


@pytest.mark.parametrize(
    ("spec", "seconds", "plain"),
    [
        ("mcts:iters=20,reuse=false", 3.0, "mcts:iters=20,reuse=false,time=3.0"),
        ("mcts:time=0.5,reuse=true", 3.0, "mcts:time=0.5,reuse=true"),
        ("mcts:time=5", 1.2345, "mcts:time=1.234"),
        ("alphabeta:depth=4", 0.0, "alphabeta:depth=4,time=0.05"),
        ("alphabeta:noise=0.2", 2.0, "alphabeta:time=2.0"),
        ("random", 3.0, "random"),
        ("greedy:noise=0.3", 3.0, "greedy"),
    ],
)
def test_a_spec_is_searched_without_noise_and_within_the_time_left(
    spec: str, seconds: float, plain: str
) -> None:
    assert analysis_spec(spec, MURUS.new_initial_state(), seconds) == plain


def test_a_level_is_searched_as_the_bot_it_names() -> None:
    state = MURUS.new_initial_state()
    plain = analysis_spec("level:hard", state, 2.0)
    assert plain.startswith(("alphabeta:", "mcts:")) and "noise" not in plain
    assert "level" not in plain and float(plain.rpartition("time=")[2].split(",")[0]) <= 2.0
