"""Intervals and tests of the lab, and the summary of hand-made traces."""

from __future__ import annotations

import math
from array import array

import pytest

from boardlab.analysis import stats
from boardlab.analysis.lab import Series
from boardlab.analysis.summary import (
    compare,
    curve,
    one_family,
    outcome,
    skill_rung,
    summarize_series,
)
from boardlab.analysis.trace import GameTrace


def test_wilson_interval_matches_the_formula() -> None:
    found = stats.proportion(58, 100)
    z = 1.959963984540054
    centre = (0.58 + z * z / 200) / (1 + z * z / 100)
    half = z * math.sqrt(0.58 * 0.42 / 100 + z * z / 40000) / (1 + z * z / 100)
    assert (found.low, found.high) == pytest.approx((centre - half, centre + half))
    assert stats.proportion(0, 0).n == 0


def test_t_interval_of_a_mean() -> None:
    found = stats.mean([1.0, 2.0, 3.0, 4.0])
    half = 3.182446305284263 * math.sqrt(5 / 3 / 4)  # t(0.975, 3) * s / sqrt(n)
    assert (found.value, found.low, found.high) == pytest.approx((2.5, 2.5 - half, 2.5 + half))
    assert stats.mean([7.0, 7.0]).half_width == 0
    assert math.isnan(stats.mean([]).value)


def test_differences_and_their_tests() -> None:
    same = stats.compare_proportions(50, 100, 50, 100)
    assert same.diff == 0 and same.low < 0 < same.high and same.p == 1.0
    clear = stats.compare_proportions(20, 100, 60, 100)
    assert clear.diff == pytest.approx(0.4) and 0 < clear.low < 0.4 < clear.high
    assert clear.p < 1e-6
    means = stats.compare_means([1.0, 2.0, 3.0], [11.0, 12.0, 13.0])
    assert means.diff == 10 and means.p < 0.001 and means.low < 10 < means.high
    assert stats.compare_means([2.0, 2.0], [2.0, 2.0]).p == 1.0


def test_benjamini_hochberg_adjustment() -> None:
    # Ranks 1, 3, 2, 4: p * 4 / rank, then the running minimum from the largest p down.
    expected = [0.04, 0.04 * 4 / 3, 0.04 * 4 / 3, 0.5]
    assert stats.adjust([0.01, 0.04, 0.03, 0.5]) == pytest.approx(expected)
    assert stats.adjust([]) == []


def test_seat_balance_and_skill_tests() -> None:
    assert stats.seat_balance([50, 50]) == 1.0
    assert stats.seat_balance([70, 30]) < 0.001
    assert stats.seat_balance([10, 10, 10]) == 1.0
    assert stats.seat_balance([0, 0]) == 1.0
    assert stats.beats(10, 10) == pytest.approx(1 / 1024)
    assert stats.beats(0, 0) == 1.0


def _trace(index: int, results: list[str], players: list[str] | None = None) -> GameTrace:
    return GameTrace(
        "base",
        index,
        players or ["a", "b"],
        [0, 1],
        results,
        "home_row" if "win" in results else "ply_cap",
        turns=3,
        seats=array("B", [0, 1, 0]),
        choices=array("I", [2, 1, 3]),
        turn_start=array("B", [1, 1, 1]),
        evals=array("d", [0.1, -0.1, -0.2, 0.2, 0.3, -0.3]),
        moves=["m1", "m2", "m3"],
    )


def test_outcome_counts_seats_players_and_terminations() -> None:
    traces = [
        _trace(0, ["win", "loss"]),
        _trace(1, ["loss", "win"], ["b", "a"]),
        _trace(2, ["draw", "draw"]),
    ]
    found = outcome(traces, ["North", "South"])
    assert [(s["seat"], s["wins"], s["draws"], s["losses"]) for s in found["seats"]] == [
        ("North", 1, 1, 1),
        ("South", 1, 1, 1),
    ]
    assert found["players"]["a"]["value"] == pytest.approx(2 / 3)
    assert found["terminations"] == {"home_row": 2, "ply_cap": 1}
    series = Series("base", "base", {}, ("a", "b"), 3)
    summary = summarize_series(series, traces, ["North", "South"])
    assert summary["metrics"]["completion"]["value"] == pytest.approx(2 / 3)
    assert summary["metrics"]["branching"]["value"] == pytest.approx(2.0)
    assert summary["metrics"]["forced"]["value"] == pytest.approx(1 / 3)
    assert summary["metrics"]["lead_changes"]["value"] == 2
    assert summary["caps"]["value"] == pytest.approx(1 / 3)
    assert summary["branching_curve"] == [2.0, 1.0, 3.0]


def test_curves_stop_when_few_games_go_on() -> None:
    assert curve([[1.0, 2.0], [3.0]]) == [2.0, 2.0]
    assert curve([[1.0] * 3] + [[3.0]] * 9) == [2.8, 1.0, 1.0]  # 1 of 10 is enough
    assert curve([[1.0] * 3] + [[3.0]] * 10) == [2.8182]  # 1 of 11 is not


def test_compare_marks_only_real_differences() -> None:
    wins = [_trace(i, ["win", "loss"]) for i in range(40)]
    losses = [_trace(i, ["loss", "win"]) for i in range(40)]
    rows = {row["metric"]: row for row in compare(wins, losses)}
    assert rows["first_seat_edge"]["diff"] == -2.0 and rows["first_seat_edge"]["real"]
    assert not rows["branching"]["real"]


def test_skill_rung_counts_the_strong_bot_in_any_seat() -> None:
    series = Series("skill-1", "strong vs weak", {}, ("strong", "weak"), 3, "skill")
    traces = [
        _trace(0, ["win", "loss"], ["strong", "weak"]),
        _trace(1, ["win", "loss"], ["weak", "strong"]),
        _trace(2, ["draw", "draw"], ["strong", "weak"]),
    ]
    rung = skill_rung(series, traces)
    assert (rung["wins"], rung["draws"], rung["losses"]) == (1, 1, 1)
    assert rung["share"]["value"] == 0.5 and not rung["real"]


def test_several_variants_are_one_family_of_tests() -> None:
    """p = 0.01 and 0.04 in one comparison and 0.04 and 0.9 in another: alone, the first
    comparison's 0.04 survives Benjamini-Hochberg (0.04 * 2/2); with all four together it
    does not (0.04 * 4/3 > 0.05), and only 0.01 (0.01 * 4/1) stays real."""
    first = [{"p": 0.01}, {"p": 0.04}]
    second = [{"p": 0.04}, {"p": 0.9}]
    one_family(first)
    assert [row["real"] for row in first] == [True, True]
    one_family(first + second)
    assert [row["real"] for row in first + second] == [True, False, False, False]
    assert first[0]["p_adjusted"] == pytest.approx(0.04)


def test_an_interval_is_half_its_width_each_side_and_a_lone_value_is_a_point() -> None:
    assert stats.Estimate(0.5, 0.4, 0.7, 10).half_width == pytest.approx(0.15)
    # One value: no spread to measure, so the interval is the value itself (not NaN).
    assert stats.mean([3.0]) == stats.Estimate(3.0, 3.0, 3.0, 1)


def test_a_constant_sample_against_a_varying_one_keeps_welchs_interval() -> None:
    for a, b in (([1.0, 2.0, 3.0], [5.0, 5.0, 5.0]), ([5.0, 5.0, 5.0], [1.0, 2.0, 3.0])):
        found = stats.compare_means(a, b)
        assert found.low < found.diff < found.high and 0 < found.p < 1, (a, b)
