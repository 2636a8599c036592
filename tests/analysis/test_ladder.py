"""The strength ladder: rung statistics, the pass rule, and the command's table."""

from __future__ import annotations

import math

import pytest

from boardlab.analysis.ladder import Rung, binomial_p_value, pairings, play_rung
from boardlab.cli.main import main


def test_binomial_p_value_is_the_upper_tail_of_a_fair_coin() -> None:
    assert binomial_p_value(0, 0) == 1.0
    assert binomial_p_value(10, 10) == 1 / 1024
    assert math.isclose(binomial_p_value(8, 10), (45 + 10 + 1) / 1024)
    assert binomial_p_value(0, 7) == 1.0


def test_a_level_passes_only_with_a_clear_and_significant_share() -> None:
    assert Rung("g", "s", "w", wins=70, draws=5, losses=25, seconds=1).passed
    assert not Rung("g", "s", "w", wins=13, draws=1, losses=6, seconds=1).passed  # p = 0.08
    assert not Rung("g", "s", "w", wins=640, draws=0, losses=360, seconds=1).passed  # 64%


def test_the_p_value_takes_the_fair_share_of_more_seats() -> None:
    assert math.isclose(binomial_p_value(2, 2, 1 / 3), 1 / 9)
    assert math.isclose(binomial_p_value(1, 2, 1 / 4), 1 - (3 / 4) ** 2)


def test_with_more_seats_a_level_passes_when_its_interval_clears_the_fair_share() -> None:
    # Half of 40 decided games: Wilson interval 35% to 65%, above a third but not above a half.
    assert Rung("g", "s", "w", wins=20, draws=3, losses=20, seconds=1, seats=3).passed
    assert not Rung("g", "s", "w", wins=20, draws=3, losses=20, seconds=1).passed
    # Half of 30: the interval starts at 33.15%, just below a third.
    assert not Rung("g", "s", "w", wins=15, draws=0, losses=15, seconds=1, seats=3).passed
    assert Rung("g", "s", "w", wins=15, draws=0, losses=15, seconds=1, seats=4).passed


def test_a_row_with_more_seats_names_them_and_the_weak_copies() -> None:
    row = Rung("colosseum-offcuts", "level:hard", "level:medium", 9, 1, 2, 3.0, seats=4)
    assert row.table_row().startswith("| colosseum-offcuts (4 seats) | hard | 3 x medium | 12 |")


def test_pairings_expand_level_names() -> None:
    assert pairings(["random", "easy", "greedy"]) == [
        ("random", "level:easy"),
        ("level:easy", "greedy"),
    ]


def test_a_rung_counts_the_strong_side_in_every_seat() -> None:
    rung = play_rung("murus-gallicus", {}, "greedy", "random", games=6, seed=2)
    assert rung.wins + rung.draws + rung.losses == 6
    again = play_rung("murus-gallicus", {}, "greedy", "random", games=6, seed=2)
    assert (again.wins, again.draws, again.losses) == (rung.wins, rung.draws, rung.losses)


def test_three_player_rungs_put_the_weak_spec_in_every_other_seat() -> None:
    rung = play_rung("colosseum-offcuts", {"players": "3"}, "greedy", "random", games=3)
    assert rung.seats == 3
    assert rung.wins + rung.draws + rung.losses == 3
    # Another seat's win is the strong side's loss; greedy beats two random seats here.
    assert rung.wins >= 2


def test_ladder_command_prints_a_markdown_table(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["ladder", "murus-gallicus", "--games", "2", "--rungs", "random", "greedy", "--quiet"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("| game | level | vs | games |")
    assert lines[2].startswith("| murus-gallicus | greedy | random | 2 |")
