"""The report's headlines: a summary's main findings as plain sentences, with their numbers.

"First player wins 58% ± 3%: a real difference between the seats (p < 0.001)": every sentence
says the figure, its 95% interval and whether the statistics call it real.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from boardlab.analysis.stats import ALPHA


def _pct(value: float) -> str:
    return f"{100 * value:.0f}%"


def _pm(estimate: dict[str, float]) -> str:
    return f"{_pct(estimate['value'])} ± {_pct((estimate['high'] - estimate['low']) / 2)}"


def _p(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.2g}"


def headlines(summary: dict[str, Any], percent: Mapping[str, bool]) -> list[str]:
    """Plain sentences for the top of the report: balance, decisiveness, length, skill, variants.

    ``percent`` tells, per metric key, whether its differences read as percentage points.
    """
    lines = []
    first = summary["series"][0]
    result = first["outcome"]
    seats = result["seats"]
    n = result["games"]
    fair = 1 / len(seats)
    p = result["seat_balance_p"]
    verdict = (
        "a real difference between the seats"
        if p < ALPHA
        else "no real difference between the seats at this number of games"
    )
    rates = ", ".join(f"{s['seat']} {_pm(s['win_rate'])}" for s in seats)
    lines.append(
        f"{first['label']}: over {n} games the seats win {rates} (fair share {_pct(fair)}, "
        f"draws {_pct(first['metrics']['draws']['value'])}): {verdict} ({_p(p)})."
    )
    found = first["metrics"]
    decided = found.get("decisiveness")
    sentence = f"{_pct(found['completion']['value'])} of games end by the rules"
    if decided is not None:
        sentence += (
            f"; the winner leads for good after {_pct(decided['value'])} of the game on average"
        )
    sentence += f", with {found['lead_changes']['value']:.1f} lead changes per game."
    lines.append(sentence)
    lines.append(
        f"Games last {found['turns']['value']:.0f} turns ({found['decisions']['value']:.0f} "
        f"decisions) with {found['branching']['value']:.1f} legal decisions on average, "
        f"{_pct(found['forced']['value'])} of them forced."
    )
    for rung in summary["skill"]:
        seats = rung.get("seats", 2)
        weak = rung["weak"] if seats == 2 else f"{seats - 1} {rung['weak']} bots"
        against = f"fair share {_pct(1 / seats)}, {_p(rung['p'])}"
        if rung["real"]:
            lines.append(
                f"Skill matters: {rung['strong']} beats {weak} in {_pm(rung['share'])} of "
                f"decided games ({against})."
            )
        else:
            lines.append(
                f"{rung['strong']} does not clearly beat {weak}: {_pm(rung['share'])} of "
                f"decided games ({against})."
            )
    for comparison in summary["comparisons"]:
        real = [row for row in comparison["rows"] if row["real"]]
        head = f"Variant {comparison['variant']} against {comparison['base']}: "
        if real:
            parts = ", ".join(f"{row['label']} {_signed(row, percent)}" for row in real)
            rest = len(comparison["rows"]) - len(real)
            tail = f"no real difference in the other {rest} metrics" if rest else "all differ"
            lines.append(head + f"real differences in {parts}; {tail}.")
        else:
            lines.append(head + "no real difference in any metric at this number of games.")
    return lines


def _signed(row: dict[str, Any], percent: Mapping[str, bool]) -> str:
    half = (row["high"] - row["low"]) / 2
    if percent[row["metric"]]:
        return f"{100 * row['diff']:+.0f} ± {100 * half:.0f} points"
    return f"{number(row['diff'], signed=True)} ± {number(half)}"


def number(value: float, signed: bool = False) -> str:
    """A value with the digits a reader needs: two decimals, three significant when small."""
    sign = "+" if signed else ""
    if math.isnan(value):
        return "—"
    if value == 0 or abs(value) >= 0.1:
        return f"{value:{sign}.2f}"
    return f"{value:{sign}.2g}"
