"""A seat's edge is compared against each variant's own fair share (issue 39, items 3 and 4).

A 2-seat and a 3-seat variant where no seat has an edge differ in the first seat's raw win
rate (its fair share falls from 1/2 to 1/3, and draws take their own share): the comparison
must not call that "real", and must still see a real edge when there is one.
"""

from __future__ import annotations

from array import array

import pytest

from boardlab.analysis import plots
from boardlab.analysis.headlines import headlines, power_line
from boardlab.analysis.lab import LabConfig, Series, plan_series, tasks
from boardlab.analysis.report import _outcome_section
from boardlab.analysis.seat_edge import compare_edges, edge
from boardlab.analysis.stats import compare_proportions, detectable_edge_difference
from boardlab.analysis.summary import (
    EDGE,
    PERCENT,
    compare,
    one_family,
    outcome,
    summarize_series,
)
from boardlab.analysis.trace import GameTrace


def _game(index: int, results: list[str]) -> GameTrace:
    seats = len(results)
    return GameTrace(
        "v",
        index,
        [f"bot{s}" for s in range(seats)],
        list(range(seats)),
        results,
        "elimination" if "win" in results else "repetition",
        turns=2,
        seats=array("B", [0, 1]),
        choices=array("I", [3, 2]),
        turn_start=array("B", [1, 1]),
        evals=array("d", [0.0] * 2 * seats),
        moves=["a", "b"],
    )


def _games(seats: int, wins: list[int], draws: int) -> list[GameTrace]:
    """``wins[s]`` games won by seat ``s`` (the others lose), then ``draws`` shared games."""
    found: list[GameTrace] = []
    for seat, count in enumerate(wins):
        won = ["loss"] * seats
        won[seat] = "win"
        found += [_game(len(found), list(won)) for _ in range(count)]
    shared = ["draw"] * (seats - 1) + ["loss"]
    return found + [_game(len(found) + i, list(shared)) for i in range(draws)]


def test_a_two_to_three_seat_comparison_does_not_call_the_fair_share_change_real() -> None:
    two = _games(2, [150, 150], draws=0)
    three = _games(3, [70, 70, 70], draws=90)
    # The raw first-seat win rate falls from 50% to 23%: a "real" difference by Fisher's test.
    assert compare_proportions(150, 300, 70, 300).p < 0.001
    row = next(r for r in compare(two, three) if r["metric"] == EDGE)
    assert row["values"] == [1.0, 1.0] and row["seats"] == [2, 3]
    assert not row["real"] and row["p"] == 1.0
    assert all(r["metric"] != "first_seat_wins" for r in compare(two, three))


def test_a_real_edge_is_still_seen_across_seat_counts() -> None:
    two = _games(2, [150, 150], draws=0)
    # The first of three seats wins half the games with a winner: 1.5 times its fair share.
    three = _games(3, [105, 53, 52], draws=90)
    row = next(r for r in compare(two, three) if r["metric"] == EDGE)
    assert row["real"] and row["low"] > 0
    assert row["values"][1] == pytest.approx(1.5)


def test_the_edge_interval_is_the_scaled_wilson_interval_and_reduces_to_newcombe() -> None:
    value, low, high = edge(60, 100, 3)
    assert value == pytest.approx(1.8)
    assert (low, high) == pytest.approx((3 * 0.502, 3 * 0.6906), abs=3e-3)
    same_seats = compare_edges((40, 100, 2), (60, 100, 2))
    newcombe = compare_proportions(40, 100, 60, 100)
    assert same_seats.low == pytest.approx(2 * newcombe.low)
    assert same_seats.high == pytest.approx(2 * newcombe.high)
    # The p-value is the interval inverted: 95% interval just outside 0 <=> p just under 5%.
    assert (same_seats.low > 0) == (same_seats.p < 0.05)
    assert same_seats.p == pytest.approx(newcombe.p, rel=0.5)


def test_draws_are_left_out_of_the_seat_shares_and_the_power_line_counts_what_is_tested() -> None:
    games = _games(2, [30, 10], draws=60)
    found = outcome(games, ["North", "South"])
    assert found["decided"] == 40
    assert found["seats"][0]["decided_share"]["value"] == pytest.approx(0.75)
    assert found["seats"][0]["win_rate"]["value"] == pytest.approx(0.30)
    assert "With 40 games with a winner" in power_line(100, 0.5, False, 40)
    assert power_line(100, 0.5, False, 40) != power_line(100, 0.5, False, 100)


def test_a_series_without_a_game_with_a_winner_reads_as_such() -> None:
    games = _games(3, [0, 0, 0], draws=4)
    series = summarize_series(Series("v", "v", {}, ("a", "b", "c"), 4), games, ["A", "B", "C"])
    assert series["outcome"]["decided"] == 0
    assert "—" in _outcome_section([series])
    assert "<svg" in plots.outcome_bars([series])
    line = headlines({"series": [series], "skill": [], "comparisons": []}, PERCENT)[0]
    assert line == (
        "v: none of the 4 games had a single winner, so nothing tells whether a seat has an edge."
    )


def test_identical_variants_are_independent_samples_and_others_share_seeds() -> None:
    """Issue 39: identical variants shared their seeds, so they played the same games and a
    designer could not run a null check."""
    config = LabConfig(
        "murus-gallicus",
        7,
        4,
        players=("random",),
        variants=(("a", {}), ("b", {"board": "8x8"}), ("c", {})),
        skill_games=0,
    )
    found = {(t.series, t.index): t.seed for t in tasks(config, plan_series(config), set())}
    assert all(found[("a", i)] == found[("b", i)] for i in range(4))
    assert all(found[("a", i)] != found[("c", i)] for i in range(4))


def test_the_power_line_of_a_two_to_three_seat_comparison_counts_the_edge() -> None:
    # An edge estimate has variance K^2 p (1 - p) / n: for equal seats 1/100 + 2/90 (2 seats,
    # 100 games with a winner; 3 seats, 90), sqrt 0.179505. d = 1.959964 * 0.179505 +
    # 0.841621 * sqrt(1/100 + 9 p (1 - p) / 90) with p = (1 + d) / 3: at d = 0.509275,
    # p = 0.503092, 9 p (1 - p) / 90 = 0.024999, and 0.351823 + 0.841621 * 0.187081 = 0.509275.
    assert detectable_edge_difference(100, 2, 90, 3) == pytest.approx(0.509275, abs=1e-5)
    # Two seats both sides: the arcsine power line's 20 points (edge 0.39 = 2 x 19.6 points).
    assert detectable_edge_difference(100, 2, 100, 2) == pytest.approx(0.3916, abs=1e-3)
    two = _games(2, [50, 50], draws=0)
    three = _games(3, [30, 30, 30], draws=10)
    series = [
        summarize_series(Series(name, name, {}, players, 100), games, names)
        for name, players, games, names in (
            ("two", ("a", "b"), two, ["A", "B"]),
            ("three", ("a", "b", "c"), three, ["A", "B", "C"]),
        )
    ]
    rows = compare(two, three)
    one_family(rows)
    comparison = {"base": "two", "variant": "three", "rows": rows}
    summary = {"series": series, "skill": [], "comparisons": [comparison]}
    power = headlines(summary, PERCENT)[-1]
    assert (
        "between two (2 seats, 100 games with a winner) and three (3 seats, 90), the first "
        "seat's edge over its fair share must differ by about 0.51 (e.g. 1.00 against 1.51)"
    ) in power
    same = {"series": series[:1], "skill": [], "comparisons": []}
    assert "first seat's edge over" not in headlines(same, PERCENT)[-1]
