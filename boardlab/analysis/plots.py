"""The report's pictures, drawn with matplotlib (Agg) as inline SVG text.

Each function takes parts of the summary (:mod:`boardlab.analysis.summary`) and returns one
``<svg>`` element; nothing is written to disk and nothing is fetched, so a report that embeds
them opens anywhere.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import matplotlib

matplotlib.use("Agg")
# Text stays text (small, searchable) and ids are stable, so equal data gives equal reports.
matplotlib.rcParams["svg.fonttype"] = "none"
matplotlib.rcParams["svg.hashsalt"] = "boardlab"

import matplotlib.pyplot as plt  # noqa: E402 - the backend must be chosen first
from matplotlib.figure import Figure  # noqa: E402

COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442")
"""Okabe-Ito: a palette that colour-blind readers can tell apart."""
LINES = ("-", "--", ":", "-.")


def _svg(figure: Figure) -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(figure)
    text = buffer.getvalue()
    return text[text.index("<svg") :]


def _figure(width: float = 6.4, height: float = 3.2) -> tuple[Figure, Any]:
    figure, axes = plt.subplots(figsize=(width, height))
    axes.spines[["top", "right"]].set_visible(False)
    return figure, axes


def outcome_bars(series: Sequence[dict[str, Any]]) -> str:
    """Win rate per seat (and draws) for every series, with 95% intervals as error bars."""
    figure, axes = _figure()
    width = 0.8 / len(series)
    labels: list[str] = []
    for number, one in enumerate(series):
        bars = [(s["seat"], s["win_rate"]) for s in one["outcome"]["seats"]]
        bars.append(("draw", one["metrics"]["draws"]))
        labels = labels if len(labels) >= len(bars) else [name for name, _ in bars]
        xs = [i + (number - (len(series) - 1) / 2) * width for i in range(len(bars))]
        heights = [e["value"] for _, e in bars]
        errors = [
            [e["value"] - e["low"] for _, e in bars],
            [e["high"] - e["value"] for _, e in bars],
        ]
        axes.bar(
            xs,
            heights,
            width,
            yerr=errors,
            capsize=3,
            color=COLOURS[number % len(COLOURS)],
            label=one["label"],
        )
    axes.set_xticks(range(len(labels)), labels)
    axes.set_ylabel("share of games")
    axes.set_ylim(0, 1)
    axes.set_title("Who wins (95% intervals)")
    if len(series) > 1:
        axes.legend(frameon=False, fontsize=8)
    return _svg(figure)


def length_histogram(series: Sequence[dict[str, Any]]) -> str:
    """Distribution of game length in decisions, one outline per series."""
    figure, axes = _figure()
    everything = [d for one in series for d in one["decisions"]]
    bins = min(30, max(5, len(set(everything))))
    span = (min(everything), max(everything) + 1)
    for number, one in enumerate(series):
        axes.hist(
            one["decisions"],
            bins=bins,
            range=span,
            histtype="step" if len(series) > 1 else "bar",
            linewidth=1.5,
            color=COLOURS[number % len(COLOURS)],
            label=one["label"],
        )
    axes.set_xlabel("decisions per game")
    axes.set_ylabel("games")
    axes.set_title("Game length")
    if len(series) > 1:
        axes.legend(frameon=False, fontsize=8)
    return _svg(figure)


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
    return _svg(figure)


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
    return _svg(figure)


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
        winners = [
            n for n, r in zip(one["seat_names"], sample["results"], strict=True) if r == "win"
        ]
        panel.set_title(
            f"game {sample['index'] + 1}: {', '.join(winners) or 'draw'} won", fontsize=9
        )
        panel.axhline(0, color="#999999", linewidth=0.5)
        panel.set_xlabel("decision number")
    figure.suptitle(f"Evaluations in sample games: {one['label']}", fontsize=10)
    panels[0][0].set_ylabel("evaluation")
    panels[0][0].legend(frameon=False, fontsize=7)
    return _svg(figure)


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
        reach = max(abs(low), abs(high), 1e-9) * 1.15
        panel.set_xlim(-reach, reach)
        panel.set_yticks([0], [row["label"] + (" (points)" if scale == 100 else "")], fontsize=8)
        panel.tick_params(axis="x", labelsize=7)
        panel.spines[["top", "right", "left"]].set_visible(False)
    panels[0, 0].set_title(
        f"{comparison['variant']} minus {comparison['base']} (filled: real difference)",
        fontsize=10,
    )
    return _svg(figure)


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
    axes.legend(frameon=False, fontsize=8, loc="upper right")
    axes.set_xticks(list(xs), [rung["label"] for rung in skill], fontsize=8)
    axes.set_ylim(0, 1)
    axes.set_ylabel("wins of decided games")
    axes.set_title("Skill trace: each bot against the one below")
    return _svg(figure)
