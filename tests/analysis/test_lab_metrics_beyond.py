"""The metrics added by issue 39 ("Beyond"), each against a hand computation on a small game."""

from __future__ import annotations

import math
from array import array

import pytest

from boardlab.analysis import metrics
from boardlab.analysis.summary import METRICS_BY_KEY, estimate
from boardlab.analysis.trace import GameTrace

# A three-seat game of six decisions: the evaluations before each decision.
EVALS = [
    [0.0, 0.0, 0.0],  # tie at the top: no leader
    [0.2, 0.1, -0.3],  # seat 0 leads; seat 2 last
    [0.1, 0.3, -0.1],  # seat 1 leads (change 1)
    [0.4, 0.2, -0.2],  # seat 0 again (change 2, undoes change 1)
    [0.1, 0.2, 0.3],  # seat 2 leads (change 3)
    [0.0, 0.1, 0.5],  # seat 2 still
]
CHOICES = [3, 1, 7, 2, 5, 4]


def test_lasting_lead_changes_leave_out_a_change_undone_at_the_next_decision() -> None:
    # Leaders 0, 1, 0, 2, 2: changes at 0->1, 1->0 and 0->2. The first (0->1) is undone at
    # once (0 leads again next); 1->0 is not undone (2 leads next, not 1); 0->2 lasts.
    assert metrics.lead_changes(EVALS) == 3
    assert metrics.lasting_lead_changes(EVALS) == 2
    assert metrics.lasting_lead_changes([[0.1, 0.0], [0.0, 0.1], [0.1, 0.0]]) == 1


def test_a_comeback_is_a_winner_once_strictly_last() -> None:
    # Seat 2 was last at decisions 1, 2 and 3, seat 0 at 4 and 5; seat 1 never strictly
    # (tied at 0, above seat 2 at 1 to 3, above seat 0 at 4 and 5).
    assert metrics.comeback(EVALS, 2) == 1.0
    assert metrics.comeback(EVALS, 0) == 1.0
    assert metrics.comeback(EVALS, 1) == 0.0
    assert metrics.comeback(EVALS, None) is None


def test_max_and_median_branching() -> None:
    # Choices 3, 1, 7, 2, 5, 4: most 7; sorted 1 2 3 4 5 7, median (3 + 4) / 2.
    assert metrics.max_branching(CHOICES) == 7.0
    assert metrics.median_branching(CHOICES) == 3.5
    assert metrics.max_branching([]) is None


def _game(results: list[str]) -> GameTrace:
    return GameTrace(
        "base",
        0,
        ["a", "b", "c"],
        [0, 1, 2],
        results,
        "elimination",
        turns=6,
        seats=array("B", [0, 1, 2, 0, 1, 2]),
        choices=array("I", CHOICES),
        turn_start=array("B", [1] * 6),
        evals=array("d", [v for row in EVALS for v in row]),
        moves=["m"] * 6,
    )


def test_the_summary_counts_comebacks_over_games_with_a_winner() -> None:
    games = [_game(["loss", "loss", "win"]), _game(["loss", "win", "loss"])]
    games.append(_game(["draw", "draw", "loss"]))
    found = estimate(METRICS_BY_KEY["comeback"], games)
    assert found is not None and found.n == 2 and found.value == pytest.approx(0.5)
    lasting = estimate(METRICS_BY_KEY["lasting_lead_changes"], games)
    assert lasting is not None and lasting.value == 2.0


def test_losers_idle_share_is_the_game_after_their_last_decision() -> None:
    # Seats 0 1 2 0 1 2 0 0 over 8 decisions: seat 2 last moved at decision 5 (2 of 8 after
    # it), seat 1 at 4 (3 of 8); both lost: (2/8 + 3/8) / 2.
    seats = [0, 1, 2, 0, 1, 2, 0, 0]
    assert metrics.idle_share(seats, ["win", "loss", "loss"]) == pytest.approx(5 / 16)
    assert metrics.idle_share(seats, ["draw", "draw", "draw"]) is None
    assert metrics.idle_share([0, 1, 0], ["win", "loss"]) is None


def test_game_tree_complexity_is_the_log_of_the_product_of_choices() -> None:
    # 3 * 1 * 7 * 2 * 5 * 4 = 840 lines of play: log10(840).
    assert metrics.tree_size(CHOICES) == pytest.approx(math.log10(840))
    assert metrics.tree_size([]) is None
