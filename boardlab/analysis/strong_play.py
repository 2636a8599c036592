"""Balance under strong play: the variants played again by strong bots, and whether the verdict
on the seats changes.

A run with ``--strong SPEC`` plays every variant a second time with ``SPEC`` in every seat
(``--strong-games`` games each, the same seeds and seat rotation). For each variant the report
sets the seat verdict under strong play (the same seat-balance test over the decided games)
beside the verdict under the run's own bots, and tests whether the first seat's edge over its
fair share moved (:mod:`seat_edge`); between variants it compares the first seat's edge under
strong play as the main comparison does under the run's bots.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from boardlab.analysis.seat_edge import compare_edges, edge
from boardlab.analysis.stats import ALPHA, adjust

PREFIX = "strong-"
"""A strong series is named after its variant: ``strong-NAME``."""


def record(result: dict[str, Any]) -> tuple[int, int, int]:
    """The first seat's wins, the decided games and the seat count of a series' outcome."""
    return result["seats"][0]["wins"], result["decided"], len(result["seats"])


def balance_verdict(result: dict[str, Any]) -> bool:
    """True when the seat-balance test calls the seats unequal (p below 5%)."""
    return bool(result["decided"]) and result["seat_balance_p"] < ALPHA


def strong_rows(
    variants: Sequence[dict[str, Any]], strong: Sequence[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Per variant: the seat verdict under the run's bots and under strong play, and the
    difference of the first seat's edge (strong minus the run's bots), Benjamini-Hochberg
    adjusted over the variants."""
    by_name = {one["name"]: one for one in variants}
    rows = []
    for one in strong:
        base = by_name[one["name"].removeprefix(PREFIX)]
        default, found = base["outcome"], one["outcome"]
        moved = compare_edges(record(default), record(found))
        rows.append(
            {
                "variant": base["name"],
                "players": one["players"][0],
                "default_players": base["players"][0],
                "games": found["games"],
                "decided": found["decided"],
                "edge": [round(edge(*record(r))[0], 6) for r in (default, found)],
                "unequal": [balance_verdict(default), balance_verdict(found)],
                "p_balance": [default["seat_balance_p"], found["seat_balance_p"]],
                **moved.to_json(),
            }
        )
    for row, p in zip(rows, adjust([row["p"] for row in rows]), strict=True):
        row["p_adjusted"] = round(p, 6)
        row["real"] = p < ALPHA
    return rows


def strong_comparisons(strong: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The first seat's edge of each strong variant against the first one's, adjusted
    together (Benjamini-Hochberg)."""
    rows = []
    base = strong[0]
    for one in strong[1:]:
        diff = compare_edges(record(base["outcome"]), record(one["outcome"]))
        rows.append(
            {
                "base": base["name"].removeprefix(PREFIX),
                "variant": one["name"].removeprefix(PREFIX),
                "values": [round(edge(*record(s["outcome"]))[0], 6) for s in (base, one)],
                **diff.to_json(),
            }
        )
    for row, p in zip(rows, adjust([row["p"] for row in rows]), strict=True):
        row["p_adjusted"] = round(p, 6)
        row["real"] = p < ALPHA
    return rows


def _seats(unequal: bool) -> str:
    return (
        "a real difference between the seats" if unequal else "no real difference between the seats"
    )


def strong_lines(summary: dict[str, Any]) -> list[str]:
    """Headlines: per variant, the seat verdict under strong play and whether it changed; per
    comparison, whether the first seat's edge differs between variants under strong play as it
    does (or not) under the run's bots."""
    lines = []
    for row in summary.get("strong_rows", []):
        before, after = row["unequal"]
        default = row["default_players"]
        if before == after:
            same = f"the same verdict as with {default}"
        else:
            same = f"the verdict changes: {default} gave {_seats(before)}"
        moved = "moved" if row["real"] else "did not clearly move"
        lines.append(
            f"Under strong play ({row['players']}, {row['games']} games of {row['variant']}, "
            f"{row['decided']} with a winner): {_seats(after)} (p = {row['p_balance'][1]:.2g}), "
            f"{same}; the first seat's edge "
            f"over its fair share {moved}: {row['edge'][0]:.2f} → {row['edge'][1]:.2f} "
            f"({row['diff']:+.2f}, 95% interval {row['low']:+.2f} to {row['high']:+.2f})."
        )
    default = {
        c["variant"]: r["real"]
        for c in summary.get("comparisons", [])
        for r in c["rows"]
        if r["metric"] == "first_seat_edge"
    }
    for row in summary.get("strong_comparisons", []):
        before = default.get(row["variant"])
        verdict = "real" if row["real"] else "no real difference"
        agrees = "as" if before == row["real"] else "unlike"
        lines.append(
            f"Under strong play, variant {row['variant']} against {row['base']}: the first "
            f"seat's edge {row['values'][0]:.2f} → {row['values'][1]:.2f} "
            f"({row['diff']:+.2f} [{row['low']:+.2f}, {row['high']:+.2f}]): {verdict}, {agrees} "
            f"with the run's bots ({'real' if before else 'no real difference'})."
        )
    return lines
