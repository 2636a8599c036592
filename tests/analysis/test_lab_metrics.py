"""Per-game metrics on hand-made traces with known values."""

from __future__ import annotations

import math

import pytest

from boardlab.analysis import metrics

# Seat 0 leads, seat 1 takes over at d=2, the tie at d=3 is skipped, seat 0 wins from d=4 on.
EVALS = [[0.2, -0.2], [0.1, 0.0], [-0.3, 0.3], [0.0, 0.0], [0.5, -0.5], [0.9, -0.9]]


def test_winner_needs_one_sole_winner() -> None:
    assert metrics.winner(["loss", "win"]) == 1
    assert metrics.winner(["draw", "draw"]) is None
    assert metrics.winner(["win", "win", "loss"]) is None


def test_completion_counts_caps_only() -> None:
    assert metrics.completed("home_row") and metrics.completed("repetition")
    assert not metrics.completed("ply_cap") and not metrics.completed("no_capture")


def test_leaders_and_lead_changes() -> None:
    assert metrics.leaders(EVALS) == [0, 0, 1, None, 0, 0]
    assert metrics.lead_changes(EVALS) == 2
    assert metrics.lead_changes([[0.0, 0.0]] * 3) == 0
    assert metrics.lead_changes([[0.1, 0.0, 0.2], [0.3, 0.0, 0.2], [0.0, 0.4, 0.1]]) == 2


def test_drama_is_the_winners_deepest_deficit() -> None:
    assert metrics.drama(EVALS, 0) == pytest.approx(0.6)
    assert metrics.drama(EVALS, 1) == pytest.approx(1.8)
    assert metrics.drama([[0.5, -0.5]], 0) == 0.0
    assert metrics.drama(EVALS, None) is None


def test_decisiveness_is_where_the_winner_leads_for_good() -> None:
    assert metrics.decisiveness(EVALS, 0) == pytest.approx(4 / 6)
    assert metrics.decisiveness(EVALS, 1) == 1.0
    assert metrics.decisiveness([[0.1, 0.0]] * 4, 0) == 0.0
    assert metrics.decisiveness([], 0) is None


def test_stability_is_the_mean_variance_of_evaluations() -> None:
    assert metrics.stability([[0.0, 1.0], [1.0, 1.0]]) == pytest.approx((0.25 + 0.0) / 2)
    assert metrics.stability([]) is None


def test_branching_forced_and_whole_turns() -> None:
    choices = [3, 1, 4, 1, 2]
    starts = [True, True, False, False, True]
    assert metrics.branching(choices) == pytest.approx(11 / 5)
    assert metrics.forced_share(choices) == pytest.approx(2 / 5)
    assert metrics.turn_choices(choices, starts) == [3.0, 4.0, 2.0]
    assert metrics.turn_branching(choices, starts) == pytest.approx(math.exp(math.log(24) / 3))
    assert metrics.branching([]) is None and metrics.forced_share([]) is None


def test_coverage_counts_cells_ever_occupied() -> None:
    snapshots = [{"a1", "b1"}, {"b1", "c1"}, {"c1"}]
    assert metrics.covered_cells(snapshots) == 3
    assert metrics.covered_cells([]) == 0
    assert metrics.coverage(12, 3) == 0.25
    assert metrics.coverage(0, 0) is None


def test_margin_of_a_scored_two_seat_game() -> None:
    assert metrics.margin([31, 24]) == 7
    assert metrics.margin(None) is None
    assert metrics.margin([1, 2, 3]) is None
