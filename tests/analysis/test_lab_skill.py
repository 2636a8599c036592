"""The skill trace and the ladder judge a bot at K seats against an equal player's share, 1/K.

The issue's example: ``level:easy`` won 40 of 84 decided 3-seat games against two
``greedy:noise=1`` bots. An equal player wins a third of them, so that is p = 0.0046 (the
issue's 0.005), a clear win; against one half (what the skill trace used to test) p = 0.7.
"""

from __future__ import annotations

import pytest

from boardlab.analysis.headlines import headlines
from boardlab.analysis.lab import LabConfig, Series, plan_series
from boardlab.analysis.ladder import Rung
from boardlab.analysis.stats import beats
from boardlab.analysis.summary import skill_rung
from boardlab.analysis.trace import GameTrace

STRONG, WEAK = "level:easy", "greedy:noise=1"
METRIC_KEYS = ("draws", "completion", "lead_changes", "turns", "decisions", "branching", "forced")


def _traces(wins: int, losses: int, draws: int) -> list[GameTrace]:
    """3-seat games with the strong bot in a rotating seat: its results as given."""
    players = [STRONG, WEAK, WEAK]
    outcomes = ["win"] * wins + ["loss"] * losses + ["draw"] * draws
    traces = []
    for index, result in enumerate(outcomes):
        seat = index % 3
        seated = players[-seat:] + players[:-seat] if seat else list(players)
        others = {"win": "loss", "loss": "win", "draw": "draw"}[result]
        results = [result if s == seat else others for s in range(3)]
        if result == "loss":  # one other seat won, the third lost
            results = ["loss"] * 3
            results[(seat + 1) % 3] = "win"
        traces.append(GameTrace("skill-1", index, seated, [0, 1, 2], results, "rules", 30))
    return traces


def test_beats_tests_against_the_fair_share() -> None:
    assert beats(40, 84, 1 / 3) == pytest.approx(0.0046, abs=0.0001)
    assert beats(40, 84) > 0.6


def test_the_skill_trace_at_three_seats_says_the_stronger_bot_clearly_wins() -> None:
    series = Series("skill-1", f"{STRONG} vs {WEAK}", {}, (STRONG, WEAK, WEAK), 90, "skill")
    rung = skill_rung(series, _traces(wins=40, losses=44, draws=6))
    assert (rung["wins"], rung["losses"], rung["draws"], rung["seats"]) == (40, 44, 6, 3)
    assert rung["p"] == pytest.approx(0.0046, abs=0.0001)
    assert rung["real"] is True
    summary = {
        "series": [
            {
                "label": "base",
                "outcome": {
                    "games": 90,
                    "decided": 81,
                    "seat_balance_p": 1.0,
                    "seats": [
                        {"seat": name, "decided_share": {"value": 0.3, "low": 0.2, "high": 0.4}}
                        for name in ("a", "b", "c")
                    ],
                },
                "metrics": {
                    key: {"value": 0.5, "low": 0.4, "high": 0.6, "n": 1} for key in METRIC_KEYS
                },
            }
        ],
        "skill": [rung],
        "comparisons": [],
    }
    line = headlines(summary, {})[-2]
    assert line.startswith(f"Skill matters: {STRONG} beats 2 {WEAK} bots in 48%")
    assert "fair share 33%" in line


def test_the_ladder_passes_the_issue_example_at_three_seats_but_not_at_two() -> None:
    three = Rung("colosseum-offcuts", STRONG, WEAK, 40, 6, 44, 1.0, seats=3)
    assert three.p_value == pytest.approx(0.0046, abs=0.0001)
    assert three.passed
    assert "| yes |" in three.table_row()
    two = Rung("colosseum-offcuts", STRONG, WEAK, 40, 6, 44, 1.0, seats=2)
    assert not two.passed


def test_a_rung_at_k_seats_is_labelled_with_its_k_minus_1_weaker_bots() -> None:
    config = LabConfig(
        "colosseum-offcuts",
        1,
        2,
        options={"players": "3"},
        skill_games=2,
        skill_rungs=("random", WEAK),
    )
    (rung,) = [s for s in plan_series(config) if s.kind == "skill"]
    assert rung.label == f"{WEAK} vs 2 x random"
    assert rung.players == (WEAK, "random", "random")
