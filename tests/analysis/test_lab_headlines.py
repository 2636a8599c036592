"""Headlines say the figures, their intervals and which differences are real."""

from __future__ import annotations

from typing import Any

from boardlab.analysis.headlines import headlines, number


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
                    "metric": "first_seat_wins",
                    "label": "first seat wins",
                    "diff": -0.1,
                    "low": -0.15,
                    "high": -0.05,
                    "real": True,
                },
                {
                    "metric": "decisions",
                    "label": "decisions per game",
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
    lines = headlines(SUMMARY, {"first_seat_wins": True, "decisions": False})
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
        "Variant big against base: real differences in first seat wins -10 ± 5 points; "
        "no real difference in the other 1 metrics."
    )


def test_numbers_keep_the_digits_that_matter() -> None:
    assert number(12.345) == "12.35"
    assert number(0.0123) == "0.012"
    assert number(-0.004, signed=True) == "-0.004"
    assert number(float("nan")) == "—"
