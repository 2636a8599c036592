"""The report's headlines: a summary's main findings as plain sentences, with their numbers.

"First player wins 58% ± 3%: a real difference between the seats (p < 0.001)": every sentence
says the figure, its 95% interval and whether the statistics call it real.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from boardlab.analysis.meanings import GROUPS, PLAIN
from boardlab.analysis.stats import (
    ALPHA,
    detectable_difference,
    detectable_edge_difference,
    detectable_effect,
    detectable_share,
    quartiles,
)
from boardlab.analysis.strong_play import strong_lines


def _pct(value: float) -> str:
    return f"{100 * value:.0f}%"


def _pm(estimate: dict[str, float]) -> str:
    return share_interval(estimate)


def share_interval(estimate: dict[str, float]) -> str:
    """A share with its 95% interval: ``58% ± 3%`` when the interval is symmetric to the
    point, else the bounds, ``100% [86%, 100%]`` (an interval near 0 or 1 is lopsided)."""
    value, low, high = (round(100 * estimate[k]) for k in ("value", "low", "high"))
    if abs((high - value) - (value - low)) <= 1:
        return f"{value}% ± {round(50 * (estimate['high'] - estimate['low']))}%"
    return f"{value}% [{low}%, {high}%]"


def points(diff: float, half: float) -> str:
    """A difference of shares in percentage points, ``-10 ± 5 points``, with the decimals
    its half-width needs (``+0.4 ± 0.3 points``, never ``-0 ± 0``)."""
    diff, half = 100 * diff, 100 * half
    digits = 0 if half >= 0.95 or half == 0 else min(3, -math.floor(math.log10(half)))
    if half == 0 and diff != 0:
        digits = min(3, max(0, -math.floor(math.log10(abs(diff)))))
    text = f"{diff:+.{digits}f}"
    if float(text) == 0:
        text = text[1:]
    return f"{text} ± {half:.{digits}f} points"


def _p(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.2g}"


def headlines(summary: dict[str, Any], percent: Mapping[str, bool]) -> list[str]:
    """Plain sentences for the top of the report: balance, decisiveness, length, skill, variants.

    ``percent`` tells, per metric key, whether its differences read as percentage points.
    """
    first = summary["series"][0]
    lines = weak_play_warnings(first.get("players", []), summary["skill"])
    result = first["outcome"]
    seats = result["seats"]
    n = result["games"]
    won = result["decided"]
    fair = 1 / len(seats)
    p = result["seat_balance_p"]
    verdict = (
        "a real difference between the seats"
        if p < ALPHA
        else "no real difference between the seats at this number of games"
    )
    draws = n - won
    without = f"{draws} without a single winner, {_pct(draws / n)}" if draws else "none drawn"
    if won:
        rates = ", ".join(f"{s['seat']} {_pm(s['decided_share'])}" for s in seats)
        lines.append(
            f"{first['label']}: of {n} games ({without}), the seats win {rates} of the "
            f"{won} games with a winner (fair share {_pct(fair)} each): {verdict} ({_p(p)})."
        )
    else:
        lines.append(
            f"{first['label']}: none of the {n} games had a single winner, so nothing tells "
            "whether a seat has an edge."
        )
    found = first["metrics"]
    decided = found.get("decisiveness")
    sentence = f"{_pct(found['completion']['value'])} of games end by the rules"
    if decided is not None:
        sentence += (
            f"; the winner leads for good after {_pct(decided['value'])} of the game on average"
        )
        spread = first.get("decided_after", [])
        if len(spread) > 1:
            low, _, high = quartiles(spread)
            sentence += f" (the middle half of games: {_pct(low)} to {_pct(high)})"
    sentence += f", with {found['lead_changes']['value']:.1f} lead changes per game"
    lasting = found.get("lasting_lead_changes")
    if lasting is not None:
        sentence += f" ({lasting['value']:.1f} not undone at the next decision)"
    lines.append(sentence + ".")
    lengths = first.get("decisions", [])
    spread = ""
    if len(lengths) > 1:
        low, _, high = quartiles(lengths)
        spread = f"; the middle half of games {low:.0f} to {high:.0f} decisions"
    lines.append(
        f"Games last {found['turns']['value']:.0f} turns ({found['decisions']['value']:.0f} "
        f"decisions{spread}) with {found['branching']['value']:.1f} legal decisions on "
        f"average, {_pct(found['forced']['value'])} of them forced."
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
        lines.append(comparison_verdict(comparison, percent))
        lines.extend(seat_count_note(comparison))
    lines.extend(strong_lines(summary))
    lines.append(power_line(n, fair, len(summary["comparisons"]) > 0, won, mixed_power(summary)))
    return lines


def mixed_power(summary: dict[str, Any]) -> str:
    """The power clause of comparisons between different seat counts: the smallest difference
    of the first seat's edge over its fair share that they see (80% power, 5% test), from each
    side's decided games; empty when every comparison has one seat count."""
    decided = {one.get("name"): one["outcome"]["decided"] for one in summary["series"]}
    clauses = []
    for comparison in summary["comparisons"]:
        row = next((r for r in comparison["rows"] if r["metric"] == "first_seat_edge"), None)
        name = comparison["variant"]
        if row is None or row["seats"][0] == row["seats"][1] or name not in decided:
            continue
        k_a, k_b = row["seats"]
        n_a, n_b = decided[comparison["base"]], decided[name]
        reach = detectable_edge_difference(n_a, k_a, n_b, k_b)
        clauses.append(
            f"between {comparison['base']} ({k_a} seats, {n_a} games with a winner) and {name} "
            f"({k_b} seats, {n_b}), the first seat's edge over its fair share must differ by "
            f"about {reach:.2f} (e.g. {number(1.0)} against {number(1.0 + reach)})"
        )
    return "; ".join(clauses)


def seat_count_note(comparison: dict[str, Any]) -> list[str]:
    """When the variants have different seat counts: why raw win rates are not compared."""
    row = next((r for r in comparison["rows"] if r["metric"] == "first_seat_edge"), None)
    if row is None or row["seats"][0] == row["seats"][1]:
        return []
    (k_a, k_b), (e_a, e_b) = row["seats"], row["values"]
    return [
        f"Seat counts differ (“{comparison['variant']}” has {k_b} seats, “{comparison['base']}” "
        f"{k_a}), so raw win rates are not comparable (an equal seat wins {_pct(1 / k_b)} of "
        f"the games with a winner at {k_b} seats, {_pct(1 / k_a)} at {k_a}, and draws take "
        f"their own share), so the first seat is compared by its share of the games with a "
        f"winner over its fair share: {number(e_b)} times it against {number(e_a)} times."
    ]


def power_line(
    games: int, fair: float, variants: bool, decided: int | None = None, edges: str = ""
) -> str:
    """What this many games can see (80% power, 5% tests): the smallest seat edge, over the
    ``decided`` games with one winner as the seat test counts them, and the smallest
    differences between variants over all ``games``; ``edges`` is the clause of comparisons
    between seat counts (:func:`mixed_power`), which compare the first seat's edge instead of
    a rate."""
    decided = games if decided is None else decided
    edge = detectable_share(decided, fair) - fair
    counted = f"{games} games" if decided == games else f"{decided} games with a winner"
    line = (
        f"With {counted} a seat's edge must exceed about {100 * edge:.0f} points over the "
        f"fair share of those games to be seen (80% of the time)"
    )
    if variants:
        line += (
            f"; between variants, a rate must differ by about "
            f"{100 * detectable_difference(games):.0f} points, a mean by about "
            f"{detectable_effect(games):.1f} standard deviations"
        )
    if edges:
        line += "; " + edges
    return line + "; smaller effects would usually read as no real difference."


def weak_play_warnings(players: Sequence[str], skill: Sequence[dict[str, Any]]) -> list[str]:
    """Warnings when the variants' bots play at random or barely beat ``random`` in the skill
    trace (below halfway from the fair share to always winning, or not clearly): the figures
    then describe weak play, not the game."""
    warnings = []
    for spec in dict.fromkeys(players):
        if spec == "random":
            warnings.append(
                "Warning: random bots play these games, so the figures describe random play, "
                "not the game as players play it."
            )
            continue
        for rung in skill:
            if rung["strong"] != spec or rung["weak"] != "random":
                continue
            fair = 1 / rung.get("seats", 2)
            if not rung["real"] or rung["share"]["value"] < (1 + fair) / 2:
                warnings.append(
                    f"Warning: {spec} barely beats random ({_pm(rung['share'])} of decided "
                    f"games, {_p(rung['p'])}), so the figures describe weak play, not the "
                    "game as players play it; try stronger bots (--player) or more "
                    "--skill-games."
                )
    return warnings


LEAD = 3
"""A comparison's headline leads with at most this many real differences."""


def weight(row: dict[str, Any], percent: Mapping[str, bool]) -> float:
    """How much a real difference matters to a designer, to choose the ones to lead with: a
    rate's change in points over 50 (a swing of half the games), a mean's change relative to
    its base value (so a 25-point swing ranks with a game half again as long)."""
    diff, base = abs(float(row["diff"])), abs(float(row["values"][0]))
    if row["metric"] in ("tree_size", "state_space"):
        return 0.0  # logarithms: their relative change is no size
    if percent[row["metric"]]:
        return diff / 0.5
    if row["metric"] == "stability":
        # A variance: its spread (the square root) is what grows with the swings themselves.
        low, high = (math.sqrt(max(0.0, float(v))) for v in row["values"])
        return abs(high - low) / low if low else math.inf
    return diff / base if base else math.inf


def change(row: dict[str, Any], percent: Mapping[str, bool]) -> str:
    """One difference in plain words: ``turns per game 120 → 223 (+103 ± 16, +86%)``."""
    name = PLAIN.get(row["metric"], (row["label"], ""))[0]
    (a, b), half = row["values"], (row["high"] - row["low"]) / 2
    if percent[row["metric"]]:
        return f"{name} {_pct(a)} → {_pct(b)} ({points(row['diff'], half)})"
    relative = f", {100 * (b - a) / a:+.0f}%" if a and row["metric"] != "first_seat_edge" else ""
    return f"{name} {figure(a)} → {figure(b)} ({plus_minus(row['diff'], half)}{relative})"


def plus_minus(diff: float, half: float) -> str:
    """A difference and its half-width, the half to two significant digits and the difference
    to the same decimals: ``+8.5 ± 2.1``, ``+203 ± 33``."""
    if half <= 0 or math.isnan(half):
        return f"{figure(diff, True)} ± 0"
    digits = decimals(half)
    return f"{diff:+.{digits}f} ± {half:.{digits}f}"


def decimals(half: float) -> int:
    """The decimals that show a half-width to two significant digits (2 when it is 0)."""
    if half <= 0 or math.isnan(half):
        return 2
    return max(0, 1 - math.floor(math.log10(half)))


def comparison_verdict(comparison: dict[str, Any], percent: Mapping[str, bool]) -> str:
    """A comparison's headline: its largest real differences in plain words, then how many
    other metrics differ or not (all in the comparison table)."""
    rows = comparison["rows"]
    head = f"Variant {comparison['variant']} against {comparison['base']}: "
    real = sorted((row for row in rows if row["real"]), key=lambda r: -weight(r, percent))
    if not real:
        return (
            head + f"no real difference in any of the {len(rows)} metrics at this number of games."
        )
    # One metric per group (game length in decisions, turns or tree size, say), largest first.
    groups: dict[str, dict[str, Any]] = {}
    for row in real:
        groups.setdefault(GROUPS.get(row["metric"], row["metric"]), row)
    leading = list(groups.values())[:LEAD]
    lead = "; ".join(change(row, percent) for row in leading)
    more, none = len(real) - len(leading), len(rows) - len(real)
    rest = []
    if more > 0:
        rest.append(f"{more} more real difference{'s' if more > 1 else ''}")
    if none:
        rest.append(f"no real difference in {none} metric{'s' if none > 1 else ''}")
    tail = f"; {' and '.join(rest)} (table under Variants compared)" if rest else ""
    return head + lead + tail + "."


def figure(value: float, signed: bool = False) -> str:
    """A figure to three significant digits, without an exponent: ``232``, ``9.43``,
    ``0.0234``, ``+1.2e+03`` never (``+1230``)."""
    if math.isnan(value):
        return "—"
    sign = "+" if signed and value > 0 else ""
    if value == 0:
        return "0"
    digits = max(0, 2 - math.floor(math.log10(abs(value))))
    return f"{sign}{value:.{digits}f}"


def number(value: float, signed: bool = False) -> str:
    """A value with the digits a reader needs: two decimals, three significant when small."""
    sign = "+" if signed else ""
    if math.isnan(value):
        return "—"
    if value == 0 or abs(value) >= 0.1:
        return f"{value:{sign}.2f}"
    return f"{value:{sign}.2g}"
