"""A playtest's report as the lab writes its own: one self-contained HTML page (inline SVG
plots from :mod:`boardlab.analysis.plots`, the lab's styles, no script, nothing fetched), and a
PNG of its main picture for pasting elsewhere. Every text a person typed is escaped.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from html import escape
from typing import Any

from boardlab.analysis import plots
from boardlab.analysis.report import STYLE

MISSING = "-"


def _pct(estimate: dict[str, Any] | None) -> str:
    if not estimate or estimate.get("value") is None:
        return MISSING
    value, low, high = (100 * estimate[key] for key in ("value", "low", "high"))
    return f"{value:.0f}% [{low:.0f}, {high:.0f}]"


def _num(estimate: dict[str, Any] | None) -> str:
    if not estimate or estimate.get("value") is None:
        return MISSING
    if estimate["low"] is None:
        return f"{estimate['value']:.1f}"
    return f"{estimate['value']:.1f} [{estimate['low']:.1f}, {estimate['high']:.1f}]"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    cells = "".join(f"<th scope='col'>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>"


def plot_series(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The variants' people's games, and their bot self-play, as the lab's plots read a
    series (NaN where nothing was decided yet)."""
    series = []
    for variant in data["variants"]:
        for who, summary in (("people", variant["people"]), ("bots", variant["bots"])):
            if not summary or not summary["games"]:
                continue
            series.append(
                {
                    "label": f"{variant['label']} · {who}",
                    "outcome": {
                        "seats": [
                            {"seat": s["seat"], "decided_share": _nan(s["decided_share"])}
                            for s in summary["seats"]
                        ]
                    },
                    "metrics": {"draws": _nan(summary["draws"])},
                    "decisions": summary["lengths"],
                }
            )
    return series


def _nan(estimate: dict[str, Any]) -> dict[str, float]:
    return {k: math.nan if v is None else v for k, v in estimate.items()}


def _variant_section(variant: dict[str, Any], questions: Sequence[str]) -> str:
    people, survey, bots = variant["people"], variant["survey"], variant["bots"]
    options = (
        ", ".join(f"{k}={v}" for k, v in variant["options"].items()) or "the rules as they stand"
    )
    rows: list[list[str]] = []
    for who, summary in (("people", people), ("bots", bots)):
        if summary is None:
            continue
        rows.extend(
            [f"{who}: {s['seat']}", f"{s['wins']}", _pct(s["decided_share"])]
            for s in summary["seats"]
        )
    parts = [
        f"<h2>{escape(variant['label'])}: {escape(variant['name'])}</h2>",
        f"<p class='meta'>Options: {escape(options)}</p>",
        _table(["seat", "wins", "share of decided games [95%]"], rows),
        "<p>"
        + escape(
            f"People: {people['games']} finished games, no single winner in "
            f"{_pct(people['draws'])}, length {_num(people['length'])} turns; "
            f"status {people['status']}; endings {people['endings']}; "
            f"{people['refused']['count']} refused turns; time per decision "
            f"{_num(people['time']['mean'])} s."
        )
        + "</p>",
    ]
    if bots:
        parts.append(
            "<p>"
            + escape(
                f"Bots ({bots['bot']}): {bots['games']} games, no single winner in "
                f"{_pct(bots['draws'])}, length {_num(bots['length'])} turns."
            )
            + "</p>"
        )
    if variant["notes"]:
        parts.append(
            "<ul class='headlines'>"
            + "".join(f"<li>{escape(n)}</li>" for n in variant["notes"])
            + "</ul>"
        )
    parts.append(
        _table(
            ["question", "answers", "mean [95%]", "1", "2", "3", "4", "5"],
            [
                [q["question"], str(q["answers"]), _num(q["mean"]), *map(str, q["spread"])]
                for q in survey["questions"]
            ],
        )
    )
    if survey["texts"]:
        parts.append("<h3>What the playtesters wrote</h3><ul>")
        parts.extend(f"<li>{escape(text)}</li>" for text in survey["texts"])
        parts.append("</ul>")
    return "".join(parts)


def _difference(row: dict[str, Any]) -> str:
    """A difference and its interval: in percentage points for a rate."""
    if row["diff"] is None:
        return MISSING
    if row["percent"]:
        return f"{100 * row['diff']:+.0f} points [{100 * row['low']:.0f}, {100 * row['high']:.0f}]"
    return f"{row['diff']:+.2f} [{row['low']:.2f}, {row['high']:.2f}]"


def render_html(data: dict[str, Any]) -> str:
    """The report page of a dashboard's data."""
    series = plot_series(data)
    figures = ""
    if series:
        figures += f"<figure>{plots.outcome_bars(series)}</figure>"
        if any(one["decisions"] for one in series):
            figures += (
                f"<figure>{plots.length_histogram([s for s in series if s['decisions']])}</figure>"
            )
    comparison = ""
    if data["comparison"]:
        comparison = (
            "<h2>Variants compared (people's games and answers)</h2>"
            + _table(
                ["variant", "against", "measure", "difference [95%]", "p (adjusted)", "reading"],
                [
                    [
                        r["variant"],
                        r["base"],
                        r["metric"],
                        _difference(r),
                        f"{r['p_adjusted']:.3f}",
                        r["verdict"],
                    ]
                    for r in data["comparison"]["rows"]
                ],
            )
            + f"<p class='note'>{escape(data['comparison']['power'])}</p>"
        )
    sections = "".join(_variant_section(v, data["questions"]) for v in data["variants"])
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{escape(data['title'])}: playtest report</title><style>{STYLE}</style></head>"
        f"<body><h1>{escape(data['title'])}</h1>"
        f"<p class='meta'>Playtest of {escape(data['game'])}, made {escape(data['created'][:10])}, "
        f"open until {escape(data['ends'])}.</p>{figures}{comparison}{sections}</body></html>"
    )


def render_png(data: dict[str, Any]) -> bytes:
    """The first seat's share of the decided games, per variant, people beside bots, with
    95% intervals: the report's main picture as a PNG."""
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6.4, 3.2), layout="constrained")
    labels, values, lows, highs, colours, fair = [], [], [], [], [], []
    for variant in data["variants"]:
        for who, summary, colour in (
            ("people", variant["people"], plots.COLOURS[0]),
            ("bots", variant["bots"], plots.COLOURS[1]),
        ):
            share = _nan(summary["seats"][0]["decided_share"]) if summary else None
            value = math.nan if share is None else share["value"]
            labels.append(f"{variant['label']}\n{who}")
            values.append(value)
            lows.append(0.0 if share is None or math.isnan(value) else value - share["low"])
            highs.append(0.0 if share is None or math.isnan(value) else share["high"] - value)
            colours.append(colour)
            fair.append(1 / len(variant["people"]["seats"]))
    axes.bar(range(len(values)), values, yerr=[lows, highs], capsize=3, color=colours)
    axes.set_xticks(range(len(values)), labels)
    xs = range(len(values))
    axes.hlines(
        fair, [x - 0.4 for x in xs], [x + 0.4 for x in xs], color="#222222", linestyles="--"
    )
    axes.set_ylim(0, 1)
    axes.set_ylabel("first seat's share")
    axes.set_title("First seat's share of the games with a winner (95% intervals)", fontsize=10)
    axes.spines[["top", "right"]].set_visible(False)
    out = io.BytesIO()
    figure.savefig(out, format="png", dpi=120)
    plt.close(figure)
    return out.getvalue()
