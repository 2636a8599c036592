"""The report's pictures, drawn with matplotlib (Agg) as inline SVG text.

Each function takes parts of the summary (:mod:`boardlab.analysis.summary`) and returns one
``<svg>`` element; nothing is written to disk and nothing is fetched, so a report that embeds
them opens anywhere. Every picture carries its text alternative (``role="img"``, an
``aria-label`` and a ``<title>``) saying what it shows and its main figures, for readers who
cannot see it.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from html import escape
from statistics import median
from typing import Any

import matplotlib

from boardlab.analysis.stats import quartiles

matplotlib.use("Agg")
# Text stays text (small, searchable) and ids are stable, so equal data gives equal reports.
matplotlib.rcParams["svg.fonttype"] = "none"
matplotlib.rcParams["svg.hashsalt"] = "boardlab"

import matplotlib.pyplot as plt  # noqa: E402 - the backend must be chosen first
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442")
"""Okabe-Ito: a palette that colour-blind readers can tell apart."""
LINES = ("-", "--", ":", "-.")
MAX_BINS = 30


def _pct(value: float) -> str:
    return f"{100 * value:.0f}%"


def _share(estimate: dict[str, float]) -> str:
    return f"{_pct(estimate['value'])} [{_pct(estimate['low'])}, {_pct(estimate['high'])}]"


def _svg(figure: Figure, alt: str) -> str:
    """The figure as an ``<svg>`` element whose text alternative is ``alt``."""
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(figure)
    text = buffer.getvalue()
    text = text[text.index("<svg") :]
    head = text.index(">") + 1
    label = escape(alt)
    return (
        text[: head - 1]
        + f' role="img" aria-label="{label}">'
        + f"<title>{label}</title>"
        + text[head:]
    )


def _figure(width: float = 6.4, height: float = 3.2) -> tuple[Figure, Any]:
    figure, axes = plt.subplots(figsize=(width, height))
    axes.spines[["top", "right"]].set_visible(False)
    return figure, axes


def outcome_bars(series: Sequence[dict[str, Any]]) -> str:
    """Who wins: each seat's share of the games with a winner, against its fair share ``1/K``
    (a dash over the variant's bars), and beside it the share of games without a single
    winner; 95% intervals as error bars. Seat ``i`` of every variant is drawn in column ``i``,
    whatever its seat count, and the draws have a panel of their own."""
    figure, (axes, draws) = plt.subplots(
        1, 2, figsize=(7.4, 3.2), width_ratios=(4, 1), sharey=True, layout="constrained"
    )
    for panel in (axes, draws):
        panel.spines[["top", "right"]].set_visible(False)
    width = 0.8 / len(series)
    columns = max(len(one["outcome"]["seats"]) for one in series)
    labels = [
        " / ".join(
            dict.fromkeys(
                one["outcome"]["seats"][i]["seat"]
                for one in series
                if i < len(one["outcome"]["seats"])
            )
        )
        for i in range(columns)
    ]
    for number, one in enumerate(series):
        colour = COLOURS[number % len(COLOURS)]
        seats = one["outcome"]["seats"]
        shift = (number - (len(series) - 1) / 2) * width
        xs = [i + shift for i in range(len(seats))]
        # No game with a winner: no bar (NaN), not a bar at 0.
        shares = [s["decided_share"] for s in seats]
        axes.bar(
            xs,
            [e["value"] for e in shares],
            width,
            yerr=[
                [0 if math.isnan(e["value"]) else e["value"] - e["low"] for e in shares],
                [0 if math.isnan(e["value"]) else e["high"] - e["value"] for e in shares],
            ],
            capsize=3,
            color=colour,
            label=one["label"],
        )
        axes.hlines(
            [1 / len(seats)] * len(seats),
            [x - width / 2 for x in xs],
            [x + width / 2 for x in xs],
            color="#222222",
            linewidth=1.2,
            linestyles="--",
            label="fair share (1/seats)" if number == 0 else None,
        )
        drawn = one["metrics"]["draws"]
        draws.bar(
            [shift],
            [drawn["value"]],
            width,
            yerr=[[drawn["value"] - drawn["low"]], [drawn["high"] - drawn["value"]]],
            capsize=3,
            color=colour,
        )
    axes.set_xticks(range(columns), labels)
    axes.set_ylabel("share of games with a winner")
    axes.set_ylim(0, 1)
    axes.set_title("Who wins the games with a winner (95% intervals)", fontsize=10)
    axes.legend(frameon=False, fontsize=8)
    draws.set_xticks([0], ["no single winner"])
    draws.set_xlim(-0.6, 0.6)
    draws.set_title("of all games", fontsize=10)
    parts = [
        f"{one['label']}: "
        + ", ".join(f"{s['seat']} {_share(s['decided_share'])}" for s in one["outcome"]["seats"])
        + f" of the games with a winner (fair share {_pct(1 / len(one['outcome']['seats']))}); "
        + f"no single winner in {_share(one['metrics']['draws'])} of all games"
        for one in series
    ]
    return _svg(
        figure,
        "Bar chart of the share of games with a winner that each seat wins. " + "; ".join(parts),
    )


def integer_bins(values: Sequence[int], most: int = MAX_BINS) -> list[float]:
    """Bin edges for whole numbers: every bin spans the same count of integers, centred on
    them, so no bin holds more integers than its neighbour (which draws dips not in the data)."""
    low, high = min(values), max(values)
    width = max(1, math.ceil((high - low + 1) / most))
    return [low - 0.5 + width * k for k in range((high - low) // width + 2)]


def length_histogram(series: Sequence[dict[str, Any]]) -> str:
    """Distribution of game length in decisions, one outline per series."""
    figure, axes = _figure()
    everything = [d for one in series for d in one["decisions"]]
    bins = integer_bins(everything)
    for number, one in enumerate(series):
        axes.hist(
            one["decisions"],
            bins=bins,
            histtype="step" if len(series) > 1 else "bar",
            linewidth=1.5,
            color=COLOURS[number % len(COLOURS)],
            label=one["label"],
        )
    axes.set_xlabel("decisions per game")
    axes.set_ylabel("games")
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    width = bins[1] - bins[0]
    axes.set_title(f"Game length (bins of {width:.0f} decision{'s' if width > 1 else ''})")
    if len(series) > 1:
        axes.legend(frameon=False, fontsize=8)
    parts = [
        f"{one['label']}: median {median(one['decisions']):.0f} decisions, from "
        f"{min(one['decisions'])} to {max(one['decisions'])}"
        for one in series
    ]
    return _svg(figure, "Histogram of game length in decisions. " + "; ".join(parts))


def curves(
    series: Sequence[dict[str, Any]], key: str, title: str, ylabel: str, log: bool = False
) -> str:
    """A per-decision curve of every series (e.g. the branching curve), one line each."""
    figure, axes = _figure()
    for number, one in enumerate(series):
        axes.plot(one[key], color=COLOURS[number % len(COLOURS)], label=one["label"])
    axes.set_xlabel("decision number")
    axes.set_ylabel(ylabel)
    axes.set_title(title)
    if log:
        axes.set_yscale("log")
    if len(series) > 1:
        axes.legend(frameon=False, fontsize=8)
    parts = [
        f"{one['label']}: {one[key][0]:.1f} at the start, {one[key][-1]:.1f} at decision "
        f"{len(one[key]) - 1}"
        for one in series
        if one[key]
    ]
    return _svg(figure, f"Line chart, {title.lower()}: {ylabel} by decision. " + "; ".join(parts))


def piece_curves(one: dict[str, Any]) -> str:
    """Mean pieces on the board per seat by decision number, for one series."""
    figure, axes = _figure()
    for seat, (name, line) in enumerate(zip(one["seat_names"], one["pieces_curve"], strict=True)):
        xs = [i * one["pieces_every"] for i in range(len(line))]
        # Dashes keep equal curves apart (Murus Gallicus sacrifices take a stone from each side).
        axes.plot(
            xs,
            line,
            color=COLOURS[seat % len(COLOURS)],
            linestyle=LINES[seat % len(LINES)],
            label=name,
        )
    axes.set_xlabel("decision number")
    axes.set_ylabel("pieces on the board")
    axes.set_title(f"Pieces over time: {one['label']}")
    axes.legend(frameon=False, fontsize=8)
    parts = [
        f"{name} {line[0]:.1f} at the start, {line[-1]:.1f} at decision "
        f"{(len(line) - 1) * one['pieces_every']}"
        for name, line in zip(one["seat_names"], one["pieces_curve"], strict=True)
        if line
    ]
    return _svg(figure, "Line chart of mean pieces on the board by decision: " + "; ".join(parts))


def evaluation_traces(one: dict[str, Any]) -> str:
    """Every seat's evaluation through the sample games of one series, a panel per game."""
    samples = one["samples"]
    figure, panels = plt.subplots(
        1,
        len(samples),
        figsize=(3.2 * len(samples), 2.8),
        sharey=True,
        squeeze=False,
        layout="constrained",
    )
    for panel, sample in zip(panels[0], samples, strict=True):
        panel.spines[["top", "right"]].set_visible(False)
        for seat, name in enumerate(one["seat_names"]):
            panel.plot(
                [row[seat] for row in sample["evals"]],
                color=COLOURS[seat % len(COLOURS)],
                label=name,
            )
        panel.set_title(
            f"game {sample['index'] + 1}: {ending(one['seat_names'], sample['results'])}",
            fontsize=9,
        )
        panel.axhline(0, color="#999999", linewidth=0.5)
        panel.set_xlabel("decision number")
    figure.suptitle(f"Evaluations in sample games: {one['label']}", fontsize=10)
    panels[0][0].set_ylabel("evaluation")
    # Beside the last panel, not over the lines (five seats' lines fill a panel).
    panels[0][-1].legend(frameon=False, fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    games = "; ".join(
        f"game {sample['index'] + 1}, {len(sample['evals'])} decisions, "
        f"{ending(one['seat_names'], sample['results'])}"
        for sample in samples
    )
    return _svg(figure, f"Line charts of every seat's evaluation through sample games: {games}")


def ending(seats: Sequence[str], results: Sequence[str]) -> str:
    """How one game ended, in words: ``Gauls won``, ``A and B shared the win``, ``draw``."""
    winners = [name for name, result in zip(seats, results, strict=True) if result == "win"]
    if not winners:
        return "draw"
    if len(winners) == 1:
        return f"{winners[0]} won"
    return f"{', '.join(winners[:-1])} and {winners[-1]} shared the win"


def comparison_chart(comparison: dict[str, Any], percent: dict[str, bool]) -> str:
    """Each metric's difference (variant minus base) with its interval; real ones filled."""
    rows = comparison["rows"]
    figure, panels = plt.subplots(
        len(rows), 1, figsize=(6.4, 0.42 * len(rows) + 0.8), squeeze=False, layout="constrained"
    )
    for panel, row in zip(panels[:, 0], rows, strict=True):
        scale = 100.0 if percent[row["metric"]] else 1.0
        diff, low, high = (row[k] * scale for k in ("diff", "low", "high"))
        colour = COLOURS[5] if row["real"] else "#888888"
        panel.errorbar(
            [diff],
            [0],
            xerr=[[diff - low], [high - diff]],
            fmt="o",
            color=colour,
            mfc=colour if row["real"] else "white",
            capsize=3,
        )
        panel.axvline(0, color="#444444", linewidth=0.6)
        # An interval of width 0 (both constant) gets a unit span, not one of 1e-9.
        reach = max(abs(low), abs(high)) * 1.15 or 1.0
        panel.set_xlim(-reach, reach)
        panel.set_yticks([0], [row["label"] + (" (points)" if scale == 100 else "")], fontsize=8)
        panel.tick_params(axis="x", labelsize=7)
        panel.spines[["top", "right", "left"]].set_visible(False)
    panels[0, 0].set_title(
        f"{comparison['variant']} minus {comparison['base']} (filled: real difference)",
        fontsize=10,
    )
    real = [row["label"] for row in rows if row["real"]]
    return _svg(
        figure,
        f"Differences of every metric, {comparison['variant']} minus {comparison['base']}, "
        f"with 95% intervals; real differences: {', '.join(real) or 'none'}",
    )


def skill_chart(skill: Sequence[dict[str, Any]]) -> str:
    """Share of decided games each stronger bot wins over the one below, with intervals."""
    figure, axes = _figure()
    shares = [rung["share"] for rung in skill]
    xs = range(len(skill))
    axes.bar(
        xs,
        [s["value"] for s in shares],
        yerr=[[s["value"] - s["low"] for s in shares], [s["high"] - s["value"] for s in shares]],
        capsize=4,
        color=[COLOURS[2] if rung["real"] else "#AAAAAA" for rung in skill],
    )
    fair = [1 / rung.get("seats", 2) for rung in skill]
    axes.hlines(
        fair,
        [x - 0.45 for x in xs],
        [x + 0.45 for x in xs],
        color="#444444",
        linewidth=0.8,
        linestyles="--",
        label="an equal player's share (1/seats)",
    )
    axes.set_xticks(list(xs), [rung["label"] for rung in skill], fontsize=8)
    axes.set_ylim(0, 1)
    axes.set_ylabel("wins of decided games")
    axes.set_title("Skill trace: each bot against the one below")
    axes.legend(frameon=False, fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    parts = [
        f"{rung['label']} {_share(rung['share'])}, fair share {_pct(f)}, "
        f"{'clearly better' if rung['real'] else 'not clearly better'}"
        for rung, f in zip(skill, fair, strict=True)
    ]
    return _svg(figure, "Bar chart of the share of decided games won: " + "; ".join(parts))


def endings_chart(series: Sequence[dict[str, Any]], names: dict[str, str]) -> str:
    """How games end: the share of games per termination, a bar group per series."""
    figure, axes = _figure()
    reasons = sorted({r for one in series for r in one["outcome"]["terminations"]})
    width = 0.8 / len(series)
    parts = []
    for number, one in enumerate(series):
        counts = one["outcome"]["terminations"]
        games = one["outcome"]["games"]
        shares = [counts.get(r, 0) / games for r in reasons]
        xs = [i + (number - (len(series) - 1) / 2) * width for i in range(len(reasons))]
        axes.bar(xs, shares, width, color=COLOURS[number % len(COLOURS)], label=one["label"])
        parts.append(
            f"{one['label']}: "
            + ", ".join(f"{names[r]} {_pct(v)}" for r, v in zip(reasons, shares, strict=True))
        )
    axes.set_xticks(range(len(reasons)), [names[r] for r in reasons], fontsize=8)
    axes.set_ylim(0, 1)
    axes.set_ylabel("share of games")
    axes.set_title("How games end")
    if len(series) > 1:
        axes.legend(frameon=False, fontsize=8)
    return _svg(figure, "Bar chart of how games end. " + "; ".join(parts))


def decided_histogram(series: Sequence[dict[str, Any]]) -> str:
    """The spread of "decided after": a histogram of ``d*/D`` in tenths, per series."""
    figure, axes = _figure()
    bins = [k / 10 for k in range(11)]
    parts = []
    for number, one in enumerate(series):
        found = one["decided_after"]
        axes.hist(
            found,
            bins=bins,
            histtype="step" if len(series) > 1 else "bar",
            linewidth=1.5,
            color=COLOURS[number % len(COLOURS)],
            label=one["label"],
        )
        if found:
            quarters = quartiles(found)
            parts.append(
                f"{one['label']}: {len(found)} games with one winner, median "
                f"{_pct(quarters[1])}, middle half {_pct(quarters[0])} to {_pct(quarters[2])}"
            )
    axes.set_xlabel("share of the game after which the winner leads for good")
    axes.set_ylabel("games")
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_title("When games are decided")
    if len(series) > 1:
        axes.legend(frameon=False, fontsize=8)
    return _svg(figure, "Histogram of when games are decided. " + "; ".join(parts))
