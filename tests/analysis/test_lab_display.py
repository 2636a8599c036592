"""What the lab report shows reads right: numbers, intervals, titles, bins, axes, words.

Each test is one display fault from issue 24 (and what a designer needs of the report), stated
as the behaviour the reader sees.
"""

from __future__ import annotations

import itertools
import math
import re
from array import array
from pathlib import Path
from typing import Any

import pytest
from scipy import stats

from boardlab.analysis import plots
from boardlab.analysis.headlines import headlines, points, share_interval, weak_play_warnings
from boardlab.analysis.lab import LabConfig, plan_series, run_lab
from boardlab.analysis.report import MIN_CURVE_POINTS, _fmt, _pieces, render_html, write_report
from boardlab.analysis.stats import detectable_share
from boardlab.analysis.summary import METRICS_BY_KEY, estimate, summarize_run
from boardlab.analysis.trace import GameTrace


@pytest.fixture(scope="module")
def summary(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A small real run: random Anacund, two variants, a skill trace against random."""
    config = LabConfig(
        "anacund",
        3,
        12,
        players=("level:easy",),
        variants=(("ring", {}), ("open", {"track": "open"})),
        skill_games=6,
        skill_rungs=("random", "level:easy"),
        records=2,
        board_every=1,
    )
    traces = run_lab(config, tmp_path_factory.mktemp("run"))
    return summarize_run(config, plan_series(config), traces)


def test_a_tiny_difference_in_points_keeps_its_digits_and_no_negative_zero() -> None:
    assert points(-0.0004, 0.0002) == "-0.04 ± 0.02 points"
    assert points(-0.1, 0.05) == "-10 ± 5 points"
    assert points(-0.00001, 0.0) == "-0.001 ± 0.000 points"
    assert points(-0.0000001, 0.0) != "-0 ± 0 points"
    assert points(-0.002, 0.02) == "0 ± 2 points"


def test_a_lopsided_interval_prints_its_bounds_not_plus_minus() -> None:
    assert share_interval({"value": 1.0, "low": 0.86, "high": 1.0}) == "100% [86%, 100%]"
    assert share_interval({"value": 0.58, "low": 0.55, "high": 0.61}) == "58% ± 3%"


def test_a_sample_game_without_a_winner_is_titled_a_draw() -> None:
    assert plots.ending(["A", "B"], ["draw", "draw"]) == "draw"
    assert plots.ending(["A", "B", "C"], ["win", "loss", "win"]) == "A and C shared the win"
    one = {
        "label": "base",
        "seat_names": ["A", "B"],
        "samples": [{"index": 0, "evals": [[0.0, 0.0], [0.1, -0.1]], "results": ["draw"] * 2}],
    }
    svg = plots.evaluation_traces(one)
    assert "game 1: draw" in svg and "draw won" not in svg


def test_length_bins_hold_the_same_number_of_whole_decisions() -> None:
    lengths = list(range(17, 67))  # 50 distinct lengths: 30 bins of 1.67 decisions would dip
    edges = plots.integer_bins(lengths)
    widths = {
        sum(1 for d in range(17, 67) if low < d < high) for low, high in itertools.pairwise(edges)
    }
    assert widths == {2}
    assert all(edge % 1 == 0.5 for edge in edges)
    assert plots.integer_bins([5, 6, 7]) == [4.5, 5.5, 6.5, 7.5]


def test_pieces_over_time_needs_enough_snapshots_or_says_why_not() -> None:
    one = {
        "label": "base",
        "seat_names": ["A", "B"],
        "pieces_every": 20,
        "decisions": [60] * 5,
        "pieces_curve": [[16, 15.9, 14.5], [16, 15.9, 14.4]],
    }
    text = _pieces(one)
    assert "not drawn" in text and "only 3 points" in text and "--board-every 6" in text
    one["pieces_curve"] = [[16 - k / 10 for k in range(MIN_CURVE_POINTS)]] * 2
    assert "<svg" in _pieces(one)


def test_a_difference_of_zero_width_has_plain_axis_labels() -> None:
    comparison = {
        "base": "a",
        "variant": "b",
        "rows": [
            {"metric": "forced", "label": "forced", "diff": 0.0, "low": 0.0, "high": 0.0}
            | {"real": False},
        ],
    }
    svg = plots.comparison_chart(comparison, {"forced": True})
    labels = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    assert labels
    # matplotlib writes an offset such as 1e-9 with U+2212; a tiny span gives long decimals.
    assert not any(re.search("1e[\u2212-]|\\d\\.\\d{4,}", label) for label in labels), labels


def test_a_mean_of_shares_has_its_interval_inside_0_and_1_and_is_a_mean_per_game() -> None:
    def game(choices: list[int]) -> GameTrace:
        trace = GameTrace("s", 0, ["a", "b"], [0, 1], ["win", "loss"], "rules", len(choices))
        trace.choices = array("I", choices)
        return trace

    # One game of one forced decision and nine of ten free ones: the mean per game is 10%,
    # the pooled share of decisions 1 in 91; the t interval would reach below 0.
    traces = [game([1])] + [game([3] * 10)] * 9
    found = estimate(METRICS_BY_KEY["forced"], traces)
    assert found is not None
    assert found.value == pytest.approx(0.1)
    assert found.low == 0.0 and 0 < found.high <= 1
    assert "mean share per game" in METRICS_BY_KEY["forced"].label


def test_the_power_line_is_a_real_80_percent_power_calculation() -> None:
    share = detectable_share(40, 0.5)
    rejected = [k for k in range(41) if stats.binomtest(k, 40, 0.5).pvalue < 0.05]
    exact = sum(stats.binom.pmf(k, 40, share) for k in rejected)
    assert 0.2 < share - 0.5 < 0.23
    assert 0.75 < exact < 0.85
    assert detectable_share(400, 0.5) - 0.5 < 0.08


def test_weak_bots_are_flagged() -> None:
    def rung(share: float, real: bool) -> dict[str, Any]:
        return {
            "strong": "level:easy",
            "weak": "random",
            "seats": 2,
            "share": {"value": share, "low": share - 0.2, "high": min(1, share + 0.2)},
            "p": 0.01 if real else 0.2,
            "real": real,
        }

    assert weak_play_warnings(["level:easy"], [rung(0.65, False)])[0].startswith(
        "Warning: level:easy barely beats random (65%"
    )
    assert weak_play_warnings(["level:easy"], [rung(0.70, True)]) != []
    assert weak_play_warnings(["level:easy"], [rung(0.90, True)]) == []
    assert "random play" in weak_play_warnings(["random"], [])[0]


def test_the_report_names_things_explains_every_picture_and_shows_what_is_needed(
    summary: dict[str, Any],
) -> None:
    page = render_html(summary, "Playtest report: Anacund")
    svgs = re.findall(r"<svg[^>]*>", page)
    assert len(svgs) >= 8
    assert all('role="img"' in svg and "aria-label=" in svg for svg in svgs)
    assert page.count("<figure>") == page.count("<figcaption>") == len(svgs)
    assert "no significant difference" in page and "not shown" not in page
    assert "How games end" in page and "When games are decided" in page
    terminations = re.search(r"terminations: ([^;]*);", page)
    assert terminations is not None and "_" not in terminations.group(1)
    lines = headlines(summary, {m: True for m in METRICS_BY_KEY})
    assert lines[-1].startswith("With 12 games a seat's edge must exceed about")
    assert "between variants, a rate must differ by about" in lines[-1]
    assert summary["series"][0]["decided_after"] == sorted(summary["series"][0]["decided_after"])


def test_the_written_report_is_titled_with_the_games_name(tmp_path: Path) -> None:
    config = LabConfig("murus-gallicus", 1, 2, players=("random",), skill_games=0)
    traces = run_lab(config, tmp_path)
    page = write_report(tmp_path, summarize_run(config, plan_series(config), traces), traces)
    assert "<title>Playtest report: Murus Gallicus</title>" in page.read_text()


def test_a_share_every_game_gave_alike_gets_an_interval_that_holds_for_any_spread() -> None:
    """Issue 39: "0% [0, 0]" and "decided after 85% [85, 85]" claimed a certainty one value per
    game cannot give."""
    forced = METRICS_BY_KEY["forced"]
    none_forced = [_trace_with_choices([2, 3, 2]) for _ in range(20)]
    found = estimate(forced, none_forced)
    assert found is not None and found.value == 0.0 and found.low == 0.0
    # Clopper-Pearson for 0 of 20: 1 - 0.025^(1/20).
    assert found.high == pytest.approx(1 - 0.025 ** (1 / 20), rel=1e-6)
    half_forced = [_trace_with_choices([1, 2]) for _ in range(8)]
    found = estimate(forced, half_forced)
    assert found is not None and found.value == 0.5
    # Hoeffding at 8 games: 0.5 ± sqrt(log(40) / 16).
    assert found.high - found.value == pytest.approx((math.log(40) / 16) ** 0.5)


def _trace_with_choices(choices: list[int]) -> GameTrace:
    return GameTrace(
        "base",
        0,
        ["a", "b"],
        [0, 1],
        ["win", "loss"],
        "home_row",
        turns=len(choices),
        seats=array("B", [i % 2 for i in range(len(choices))]),
        choices=array("I", choices),
        turn_start=array("B", [1] * len(choices)),
        evals=array("d", [0.0] * 2 * len(choices)),
        moves=["m"] * len(choices),
    )


def test_a_tiny_share_interval_keeps_the_decimals_that_show_its_width() -> None:
    assert _fmt({"value": 0.0006, "low": 0.0, "high": 0.0015}, True) == "0.06% [0.00, 0.15]"
    assert _fmt({"value": 0.52, "low": 0.45, "high": 0.59}, True) == "52% [45, 59]"
