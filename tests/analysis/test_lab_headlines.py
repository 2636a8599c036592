"""Headlines say the figures, their intervals and which differences are real."""

from __future__ import annotations

from typing import Any

from boardlab.analysis.headlines import comparison_verdict, figure, headlines, number, plus_minus


def _estimate(value: float, half: float) -> dict[str, float]:
    return {"value": value, "low": value - half, "high": value + half, "n": 400}


SUMMARY: dict[str, Any] = {
    "series": [
        {
            "label": "base",
            "outcome": {
                "games": 400,
                "decided": 392,
                "seat_balance_p": 0.0004,
                "seats": [
                    {"seat": "Dark", "decided_share": _estimate(0.59, 0.03)},
                    {"seat": "Light", "decided_share": _estimate(0.41, 0.03)},
                ],
            },
            "metrics": {
                "draws": _estimate(0.02, 0.01),
                "completion": _estimate(0.9, 0.03),
                "decisiveness": _estimate(0.6, 0.02),
                "lead_changes": _estimate(3.14, 0.2),
                "turns": _estimate(45.0, 2.0),
                "decisions": _estimate(90.0, 4.0),
                "branching": _estimate(12.5, 0.4),
                "forced": _estimate(0.05, 0.01),
            },
        }
    ],
    "skill": [
        {
            "strong": "level:easy",
            "weak": "random",
            "share": _estimate(0.9, 0.05),
            "p": 1e-9,
            "real": True,
        },
        {
            "strong": "level:hard",
            "weak": "level:easy",
            "share": _estimate(0.55, 0.2),
            "p": 0.3,
            "real": False,
        },
    ],
    "comparisons": [
        {
            "base": "base",
            "variant": "big",
            "rows": [
                {
                    "metric": "draws",
                    "label": "draws",
                    "values": [0.3, 0.2],
                    "diff": -0.1,
                    "low": -0.15,
                    "high": -0.05,
                    "real": True,
                },
                {
                    "metric": "decisions",
                    "label": "decisions per game",
                    "values": [90.0, 91.0],
                    "diff": 1.0,
                    "low": -2.0,
                    "high": 4.0,
                    "real": False,
                },
            ],
        }
    ],
}


def test_headlines_state_figures_and_verdicts() -> None:
    lines = headlines(SUMMARY, {"draws": True, "decisions": False})
    assert lines[0] == (
        "base: of 400 games (8 without a single winner, 2%), the seats win Dark 59% ± 3%, "
        "Light 41% ± 3% of the 392 games with a winner (fair share 50% each): a real "
        "difference between the seats (p < 0.001)."
    )
    assert "90% of games end by the rules" in lines[1] and "3.1 lead changes" in lines[1]
    assert lines[2].startswith("Games last 45 turns (90 decisions)")
    assert lines[3].startswith("Skill matters: level:easy beats random in 90% ± 5%")
    assert lines[4].startswith("level:hard does not clearly beat level:easy")
    assert lines[5] == (
        "Variant big against base: games without a single winner 30% → 20% (-10 ± 5 points); "
        "no real difference in 1 metric (table under Variants compared)."
    )


def test_numbers_keep_the_digits_that_matter() -> None:
    assert number(12.345) == "12.35"
    assert number(0.0123) == "0.012"
    assert number(-0.004, signed=True) == "-0.004"
    assert number(float("nan")) == "—"


def _row(metric: str, base: float, variant: float, half: float) -> dict[str, Any]:
    diff = variant - base
    return {
        "metric": metric,
        "label": metric,
        "values": [base, variant],
        "diff": diff,
        "low": diff - half,
        "high": diff + half,
        "real": abs(diff) > half,
    }


def test_a_verdict_leads_with_the_largest_real_differences_in_plain_words() -> None:
    percent = {"draws": True, "turns": False, "branching": False, "drama": False, "forced": True}
    rows = [
        _row("drama", 0.2, 0.21, 0.005),  # real but 5% of its base: last
        _row("turns", 120.0, 223.4567, 16.4321),  # +86%: first
        _row("draws", 0.39, 0.57, 0.13),  # 18 points of 50: 36%
        _row("branching", 14.8, 16.64, 0.53),  # +12%
        _row("forced", 0.01, 0.012, 0.01),  # not real
    ]
    line = comparison_verdict({"base": "2", "variant": "3", "rows": rows}, percent)
    assert line == (
        "Variant 3 against 2: turns per game 120 → 223 (+103 ± 16, +86%); games without a "
        "single winner 39% → 57% (+18 ± 13 points); choices per decision 14.8 → 16.6 "
        "(+1.84 ± 0.53, +12%); 1 more real difference and no real difference in 1 metric "
        "(table under Variants compared)."
    )
    assert plus_minus(725.43, 39.81) == "+725 ± 40"
    assert plus_minus(0.34, 0.097) == "+0.340 ± 0.097"
    assert figure(0.0234) == "0.0234" and figure(1234.5, signed=True) == "+1234"


def test_a_verdict_leads_with_one_metric_of_each_group() -> None:
    """Decisions, turns and tree size all measure game length: only the largest leads."""
    percent = {"decisions": False, "turns": False, "tree_size": False, "draws": True}
    rows = [
        _row("turns", 100.0, 180.0, 10.0),
        _row("decisions", 200.0, 380.0, 20.0),
        _row("tree_size", 100.0, 300.0, 10.0),
        _row("draws", 0.1, 0.3, 0.05),
    ]
    line = comparison_verdict({"base": "a", "variant": "b", "rows": rows}, percent)
    assert "decisions per game 200 → 380" in line and "games without a single winner" in line
    assert "turns per game" not in line and "game-tree" not in line
    assert line.endswith("2 more real differences (table under Variants compared).")
