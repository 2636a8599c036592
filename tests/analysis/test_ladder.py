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
    rung = play_rung("colosseum-offcuts", {"players": "3"}, "random", "random", games=3)
    assert rung.wins + rung.draws + rung.losses == 3


def test_ladder_command_prints_a_markdown_table(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["ladder", "murus-gallicus", "--games", "2", "--rungs", "random", "greedy", "--quiet"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("| game | level | vs | games |")
    assert lines[2].startswith("| murus-gallicus | greedy | random | 2 |")
