"""The lab's report: one self-contained HTML page, a JSON summary and a CSV row per game.

``write_report`` puts ``report.html`` (inline SVG plots and styles, no script, nothing fetched),
``summary.json`` and ``games.csv`` into the run directory, beside the records it links to.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

from boardlab.analysis import plots
from boardlab.analysis.headlines import number
from boardlab.analysis.summary import METRICS, game_row
from boardlab.analysis.trace import GameTrace
from boardlab.core.files import write_atomic

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto;
  padding: 0 1rem; color: #1b1b1b; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 1px solid #ddd; }
.meta { color: #555; margin-top: 0; }
.headlines { background: #f3f6fa; border-left: 4px solid #0072B2; padding: 0.6rem 1rem; }
.headlines li { margin: 0.3rem 0; }
table { border-collapse: collapse; margin: 0.6rem 0; font-size: 0.9rem; }
th, td { padding: 0.25rem 0.6rem; border-bottom: 1px solid #e4e4e4; text-align: right;
  white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
td.real { font-weight: 600; color: #a33b00; }
figure { margin: 0.8rem 0; }
figure svg { max-width: 100%; height: auto; }
dl dt { font-weight: 600; margin-top: 0.4rem; }
dl dd { margin-left: 1rem; color: #333; }
"""

DEFINITIONS = (
    (
        "win rate",
        "wins of a seat over games, with a Wilson 95% interval; seats rotate, so a "
        "seat's rate is the seat's advantage, not a bot's",
    ),
    (
        "seat balance p",
        "exact binomial test (two seats) or chi-square test (more) of equal "
        "wins per seat over decided games",
    ),
    ("completion", "share of games that end by the rules rather than by a ply or no-capture cap"),
    (
        "branching",
        "mean number of legal decisions, mean over decisions c[d]; whole turns: "
        "geometric mean over turns of the product of their decisions' counts",
    ),
    ("forced decisions", "share of decisions with exactly one legal choice"),
    (
        "lead changes",
        "times the leader (the seat with the strictly highest evaluation) differs "
        "from the previous leader, ties skipped",
    ),
    (
        "drama",
        "max over decisions of (best evaluation - winner's evaluation): how far behind "
        "the eventual winner was",
    ),
    ("decided after", "d*/D, where from decision d* on the winner leads at every decision"),
    (
        "evaluation variance",
        "mean over seats of the variance of a seat's evaluation over the "
        "game (Ludii's stability: low is stable)",
    ),
    ("board coverage", "share of board cells that held a seat's piece at some point"),
    ("score margin", "|first seat's score - second seat's score| in scored games"),
    (
        "differences",
        "variant minus base; rates: Newcombe interval and Fisher's exact test; "
        "means: Welch's t interval and test; real = Benjamini-Hochberg adjusted p < 0.05 across "
        "the metrics of one comparison",
    ),
    (
        "skill",
        "the stronger bot's wins over decided games against the bot below (K - 1 copies of it "
        "at K seats), Wilson interval, one-sided binomial test against an equal player's "
        "share 1/K",
    ),
)


def _fmt(estimate: dict[str, float] | None, percent: bool) -> str:
    if estimate is None:
        return "—"
    if percent:
        rounded = [round(100 * estimate[k]) for k in ("value", "low", "high")]
        return f"{rounded[0]}% [{rounded[1]}, {rounded[2]}]"
    value, low, high = (number(estimate[k]) for k in ("value", "low", "high"))
    return f"{value} [{low}, {high}]"


def _p(p: float) -> str:
    return "< 0.001" if p < 0.001 else f"{p:.3g}"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], raw: bool = False) -> str:
    head_html = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = []
    for row in rows:
        cells = "".join(cell if raw else f"<td>{escape(cell)}</td>" for cell in row)
        body.append(f"<tr>{cells}</tr>")
    return f"<table><tr>{head_html}</tr>{''.join(body)}</table>"


def _outcome_section(series: Sequence[dict[str, Any]]) -> str:
    parts = []
    for one in series:
        result = one["outcome"]
        rows = [
            [
                s["seat"],
                str(s["wins"]),
                str(s["draws"]),
                str(s["losses"]),
                _fmt(s["win_rate"], True),
            ]
            for s in result["seats"]
        ]
        reasons = ", ".join(f"{k} {v}" for k, v in result["terminations"].items())
        parts.append(
            f"<h3>{escape(one['label'])}</h3>"
            f"<p>{result['games']} games; bots per seat: {escape(', '.join(one['players']))}; "
            f"seat balance p {_p(result['seat_balance_p'])}; terminations: {escape(reasons)}; "
            f"caps hit in {_fmt(one['caps'], True)} of games.</p>"
            + _table(["seat (final ranking)", "wins", "shared/draws", "losses", "win rate"], rows)
        )
        if len(result["players"]) > 1:
            parts.append(
                _table(
                    ["bot", "win rate"],
                    [[spec, _fmt(e, True)] for spec, e in result["players"].items()],
                )
            )
    return "".join(parts)


def _metric_table(series: Sequence[dict[str, Any]]) -> str:
    rows = []
    for metric in METRICS:
        cells = [_fmt(one["metrics"][metric.key], metric.percent) for one in series]
        if any(c != "—" for c in cells):
            rows.append([metric.label, *cells])
    return _table(["metric (95% interval)", *[one["label"] for one in series]], rows)


def _comparison_section(summary: dict[str, Any]) -> str:
    percent = {m.key: m.percent for m in METRICS}
    parts = []
    for comparison in summary["comparisons"]:
        rows = []
        for row in comparison["rows"]:
            scale = 100.0 if percent[row["metric"]] else 1.0
            unit = " pt" if scale == 100 else ""
            diff, low, high = (number(row[k] * scale, signed=True) for k in ("diff", "low", "high"))
            verdict = "real" if row["real"] else "not shown"
            cls = ' class="real"' if row["real"] else ""
            rows.append(
                [
                    f"<td>{escape(row['label'])}</td>",
                    f"<td{cls}>{diff}{unit}</td>",
                    f"<td>[{low}, {high}]</td>",
                    f"<td>{_p(row['p'])}</td>",
                    f"<td>{_p(row['p_adjusted'])}</td>",
                    f"<td{cls}>{verdict}</td>",
                ]
            )
        parts.append(
            f"<h3>{escape(comparison['variant'])} minus {escape(comparison['base'])}</h3>"
            + _table(
                ["metric", "difference", "95% interval", "p", "adjusted p", "verdict"],
                rows,
                raw=True,
            )
            + f"<figure>{plots.comparison_chart(comparison, percent)}</figure>"
        )
    return "".join(parts)


def _skill_section(skill: Sequence[dict[str, Any]]) -> str:
    rows = [
        [
            r["label"],
            str(r["games"]),
            str(r["wins"]),
            str(r["draws"]),
            str(r["losses"]),
            _fmt(r["share"], True),
            f"{100 / r.get('seats', 2):.0f}%",
            f"{r['p']:.3g}",
            "yes" if r["real"] else "no",
        ]
        for r in skill
    ]
    return (
        _table(
            [
                "stronger vs weaker",
                "games",
                "W",
                "D",
                "L",
                "wins of decided",
                "fair share",
                "p",
                "clearly better?",
            ],
            rows,
        )
        + f"<figure>{plots.skill_chart(skill)}</figure>"
    )


def _samples(series: Sequence[dict[str, Any]]) -> str:
    links = []
    for one in series:
        for sample in one["samples"]:
            record = escape(sample["record"])
            links.append(
                f"<li>{escape(one['label'])}, game {sample['index'] + 1}: "
                f'<a href="{record}">{record}</a></li>'
            )
    return f"<ul>{''.join(links)}</ul>" if links else "<p>No records were kept.</p>"


def render_html(summary: dict[str, Any], title: str) -> str:
    """The report page for a summary made by :func:`summary.summarize_run`."""
    series = summary["series"]
    config = summary["config"]
    meta = (
        f"seed {config['seed']}, {config['games']} games per variant, "
        f"options {escape(json.dumps(config['options']))}"
    )
    branching = plots.curves(
        series, "branching_curve", "Branching by decision", "legal decisions", log=True
    )
    sections = [
        f"<h1>{escape(title)}</h1><p class='meta'>{meta}</p>",
        "<ul class='headlines'>"
        + "".join(f"<li>{escape(line)}</li>" for line in summary["headlines"])
        + "</ul>",
        "<h2>Outcome</h2>",
        f"<figure>{plots.outcome_bars(series)}</figure>",
        _outcome_section(series),
        "<h2>All metrics</h2>",
        _metric_table(series),
        "<h2>Duration</h2>",
        f"<figure>{plots.length_histogram(series)}</figure>",
        "<h2>Choice</h2>",
        f"<figure>{branching}</figure>",
        "<h2>Feel</h2>",
    ]
    for one in series:
        if one["samples"]:
            sections.append(f"<figure>{plots.evaluation_traces(one)}</figure>")
        if one["pieces_curve"]:
            sections.append(f"<figure>{plots.piece_curves(one)}</figure>")
    if summary["comparisons"]:
        sections += ["<h2>Variants compared</h2>", _comparison_section(summary)]
    if summary["skill"]:
        sections += ["<h2>Skill</h2>", _skill_section(summary["skill"])]
    sections += ["<h2>Sample games</h2>", _samples(series), "<h2>Definitions</h2>"]
    sections.append(
        "<dl>"
        + "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in DEFINITIONS)
        + "</dl>"
    )
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
        + "\n".join(sections)
        + "</body></html>\n"
    )


def write_report(out: str | Path, summary: dict[str, Any], traces: Sequence[GameTrace]) -> Path:
    """Write report.html, summary.json and games.csv into ``out``; returns the page's path."""
    root = Path(out)
    title = f"Playtest report: {summary['game']}"
    write_atomic(root / "summary.json", json.dumps(summary, indent=1) + "\n")
    rows = [game_row(trace) for trace in traces]
    write_atomic(root / "games.csv", _csv(rows))
    page = root / "report.html"
    write_atomic(page, render_html(summary, title))
    return page


def _csv(rows: Sequence[dict[str, Any]]) -> str:
    buffer = io.StringIO()
    if rows:
        writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return buffer.getvalue()
