"""Uniformity, the decisiveness threshold, kingmaking, elimination and draw types, each
against a hand computation on a small fixed game."""

from __future__ import annotations

from array import array

import pytest

from boardlab.analysis import seat_metrics
from boardlab.analysis.stats import bootstrap_uniformity
from boardlab.analysis.summary import METRICS_BY_KEY, estimate, outcome
from boardlab.analysis.trace import GameTrace

# Three seats, seat 1 wins. Leaders 0 0 0 1 1: seat 1 leads for good after decision 2, which
# seat 2 played while strictly last (-0.6 below 0.2 and 0.1), and seat 2 lost: kingmaking.
KING = [
    [0.3, 0.0, -0.2],
    [0.3, 0.1, -0.5],
    [0.2, 0.1, -0.6],
    [0.0, 0.4, -0.6],
    [-0.1, 0.5, -0.7],
]
SEATS = [0, 1, 2, 0, 1]


def test_kingmaking_is_a_losing_last_seat_setting_the_winners_lasting_lead() -> None:
    assert seat_metrics.kingmade(SEATS, KING, ["loss", "win", "loss"]) == 1.0
    # The same move by a seat that did not lose, or by a seat that was not last: none.
    assert seat_metrics.kingmade(SEATS, KING, ["loss", "win", "draw"]) == 0.0
    assert seat_metrics.kingmade([0, 1, 0, 2, 1], KING, ["loss", "win", "loss"]) == 0.0
    # The winner leads from the first decision: nobody made it king.
    assert seat_metrics.kingmade(SEATS, [[0.0, 0.5, 0.1]] * 5, ["loss", "win", "loss"]) == 0.0
    assert seat_metrics.kingmade(SEATS, KING, ["draw", "draw", "loss"]) is None
    assert seat_metrics.kingmade([0, 1], [[0.1, 0.0]] * 2, ["win", "loss"]) is None


def test_the_decisiveness_threshold_is_the_best_evaluation_of_a_seat_that_did_not_win() -> None:
    # Seat 1 won: seats 0 and 2 reached at best 0.3 (seat 0, decisions 0 and 1).
    assert seat_metrics.decisiveness_threshold(KING, ["loss", "win", "loss"]) == 0.3
    # Seat 2 won: seat 0's 0.3 and seat 1's 0.5 -> 0.5.
    assert seat_metrics.decisiveness_threshold(KING, ["loss", "loss", "win"]) == 0.5
    assert seat_metrics.decisiveness_threshold(KING, ["draw", "draw", "draw"]) is None


def test_a_seat_is_knocked_out_when_it_had_no_turn_in_the_last_round() -> None:
    # Turns by seats 0 1 2 0 1 0 1 0: the last three turns are 0 1 0, so seat 2 (lost) is out
    # and seat 1 (lost, but in the last round) is not.
    seats = [0, 1, 2, 0, 1, 0, 1, 0]
    assert seat_metrics.eliminated(seats, [1] * 8, ["win", "loss", "loss"]) == 1.0
    # Compound turns (two decisions each): the last three turns start with seats 2 0 1.
    seats = [0, 0, 1, 1, 2, 2, 0, 0, 1, 1]
    starts = [1, 0] * 5
    assert seat_metrics.eliminated(seats, starts, ["win", "loss", "loss"]) == 0.0
    assert seat_metrics.eliminated([0, 1], [1, 1], ["win", "loss"]) is None


def test_outcome_uniformity_is_one_minus_the_mean_variance_of_results() -> None:
    # Seat 0 scores 1, -1, 0, 1 (mean 1/4, variance 3/4 - 1/16 = 11/16); seat 1 the negation.
    games = [[1.0, -1.0], [-1.0, 1.0], [0.0, 0.0], [1.0, -1.0]]
    found = bootstrap_uniformity(games)
    assert found.value == pytest.approx(1 - 11 / 16)
    assert found.low <= found.value <= found.high and found.n == 4
    assert bootstrap_uniformity(games) == found  # seeded: the same games, the same interval
    assert bootstrap_uniformity([[0.0, 0.0]] * 5).value == 1.0


def _game(results: list[str], termination: str) -> GameTrace:
    return GameTrace(
        "base",
        0,
        ["a", "b", "c"],
        [0, 1, 2],
        results,
        termination,
        turns=5,
        seats=array("B", SEATS),
        choices=array("I", [2] * 5),
        turn_start=array("B", [1] * 5),
        evals=array("d", [v for row in KING for v in row]),
        moves=["m"] * 5,
    )


def test_the_summary_gives_draw_types_per_seat_and_the_new_metrics() -> None:
    games = [
        _game(["loss", "win", "loss"], "elimination"),
        _game(["draw", "draw", "loss"], "repetition"),
        _game(["draw", "draw", "draw"], "ply_cap"),
    ]
    found = outcome(games, ["A", "B", "C"])
    assert [s["draw_types"] for s in found["seats"]] == [
        {"ply_cap": 1, "repetition": 1},
        {"ply_cap": 1, "repetition": 1},
        {"ply_cap": 1},
    ]
    # Seat results: A -1 0 0, B 1 0 0, C -1 -1 0: variances 2/9, 2/9, 2/9.
    assert found["uniformity"]["value"] == pytest.approx(1 - 2 / 9, abs=1e-6)
    king = estimate(METRICS_BY_KEY["kingmaking"], games)
    assert king is not None and king.n == 1 and king.value == 1.0
    threshold = estimate(METRICS_BY_KEY["threshold"], games)
    assert threshold is not None and threshold.value == pytest.approx(0.3)
