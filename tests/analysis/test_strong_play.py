"""Balance under strong play (``boardlab analyse --strong``): a small run, and the verdicts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from boardlab.analysis.lab import LabConfig, plan_series, run_lab
from boardlab.analysis.report import write_report
from boardlab.analysis.strong_play import strong_lines
from boardlab.analysis.summary import summarize_run
from boardlab.core.errors import OptionError


def test_a_small_run_plays_the_variants_again_with_the_strong_bot(tmp_path: Path) -> None:
    config = LabConfig(
        "murus-gallicus",
        2,
        8,
        players=("random",),
        variants=(("a", {}), ("big", {"board": "8x8"})),
        records=0,
        strong="greedy",
        strong_games=8,
    )
    series = plan_series(config)
    assert [(s.name, s.kind, s.players) for s in series[2:]] == [
        ("strong-a", "strong", ("greedy", "greedy")),
        ("strong-big", "strong", ("greedy", "greedy")),
    ]
    traces = run_lab(config, tmp_path)
    summary = summarize_run(config, series, traces)
    rows = summary["strong_rows"]
    assert [row["variant"] for row in rows] == ["a", "big"]
    for row, strong in zip(rows, summary["strong"], strict=True):
        first = [t for t in traces if t.series == strong["name"]]
        decided = [t for t in first if t.results.count("win") == 1]
        wins = sum(t.results[0] == "win" for t in decided)
        assert row["decided"] == len(decided)
        assert row["edge"][1] == pytest.approx(2 * wins / len(decided), abs=1e-6)
    assert any(
        line.startswith("Under strong play (greedy, 8 games of a,") for line in summary["headlines"]
    )
    assert summary["strong_comparisons"][0]["variant"] == "big"
    page = write_report(tmp_path, summary, traces).read_text()
    assert "Balance under strong play" in page


def _summary(default_p: float, strong_p: float, real: bool) -> dict[str, Any]:
    return {
        "strong_rows": [
            {
                "variant": "base",
                "players": "level:hard",
                "default_players": "level:easy",
                "games": 40,
                "decided": 38,
                "edge": [1.3, 1.0],
                "unequal": [default_p < 0.05, strong_p < 0.05],
                "p_balance": [default_p, strong_p],
                "diff": -0.3,
                "low": -0.7,
                "high": 0.1,
                "real": real,
            }
        ]
    }


def test_the_headline_says_whether_the_verdict_changes() -> None:
    (changed,) = strong_lines(_summary(0.01, 0.6, False))
    assert (
        "no real difference between the seats (p = 0.6), the verdict changes: level:easy" in changed
    )
    assert "did not clearly move: 1.30 → 1.00 (-0.30, 95% interval -0.70 to +0.10)" in changed
    (same,) = strong_lines(_summary(0.01, 0.02, True))
    assert (
        "the same verdict as with level:easy" in same and "edge over its fair share moved" in same
    )


def test_strong_settings_are_checked_and_kept_only_when_given() -> None:
    config = LabConfig("murus-gallicus", 1, 4, strong="level:easy", strong_games=0)
    with pytest.raises(OptionError, match="--strong-games"):
        plan_series(config)
    assert "strong" not in LabConfig("murus-gallicus", 1, 4).to_json()
    assert (
        LabConfig("murus-gallicus", 1, 4, strong="greedy", strong_games=3).to_json()["strong_games"]
        == 3
    )
