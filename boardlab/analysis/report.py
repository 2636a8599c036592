"""The lab's report: one self-contained HTML page, a JSON summary and a CSV row per game.

``write_report`` puts ``report.html`` (inline SVG plots and styles, no script, nothing fetched),
``summary.json`` and ``games.csv`` into the run directory, beside the records it links to.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence
from html import escape
from pathlib import Path
from statistics import median
from typing import Any

from boardlab.analysis import plots
from boardlab.analysis.headlines import decimals, figure, number
from boardlab.analysis.meanings import PLAIN
from boardlab.analysis.summary import METRICS, PERCENT, game_row
from boardlab.analysis.trace import GameTrace
from boardlab.core.files import write_atomic
from boardlab.core.registry import make

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto;
  padding: 0 1rem; color: #1b1b1b; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 1px solid #ddd; }
.meta { color: #555; margin-top: 0; }
.headlines { background: #f3f6fa; border-left: 4px solid #0072B2; padding: 0.6rem 1rem; }
.headlines li { margin: 0.3rem 0; }
.headlines li.warning { color: #8a2c00; font-weight: 600; }
figcaption { color: #444; font-size: 0.85rem; max-width: 44rem; }
.note { color: #444; font-style: italic; }
table { border-collapse: collapse; margin: 0.6rem 0; font-size: 0.9rem; }
th, td { padding: 0.25rem 0.6rem; border-bottom: 1px solid #e4e4e4; text-align: right;
  white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
td.real { font-weight: 600; color: #a33b00; }
td.metric { white-space: normal; max-width: 20rem; }
.meaning { display: block; color: #555; font-size: 0.8rem; }
figure { margin: 0.8rem 0; }
figure svg { max-width: 100%; height: auto; }
dl dt { font-weight: 600; margin-top: 0.4rem; }
dl dd { margin-left: 1rem; color: #333; }
"""

DEFINITIONS = (
    (
        "win rate",
        "wins of a seat over the games with a winner (over all games in the outcome table), "
        "with a Wilson 95% interval; an equal seat wins 1/K of the games with a winner at K "
        "seats; seats rotate, so a seat's rate is the seat's advantage, not a bot's",
    ),
    (
        "draws",
        "games without a single winner: every seat drawn, or places shared at 3-5 seats",
    ),
    (
        "first seat's edge",
        "its share of the games with a winner divided by its fair share 1/K: 1 for an equal "
        "seat at any seat count; differences have the MOVER interval of the two Wilson "
        "intervals and the p-value of that interval",
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
    (
        "forced decisions",
        "per game, the share of its decisions with exactly one legal choice; the table gives "
        "the mean of these shares over games (each game weighs the same, however long)",
    ),
    (
        "lead changes",
        "times the leader (the seat with the strictly highest evaluation) differs "
        "from the previous leader, ties skipped",
    ),
    (
        "lasting lead changes",
        "lead changes not undone at the next decision that has a leader (a change from a to b "
        "followed at once by a again is a flicker and is left out)",
    ),
    (
        "comebacks",
        "share of the games with a winner in which the winner was at some decision strictly "
        "last in evaluation",
    ),
    (
        "losers' idle share",
        "3-5 seats: per game, the mean over losing seats of the share of the game's decisions "
        "after their last one (how long an eliminated seat sits out)",
    ),
    (
        "game-tree complexity",
        "per game, log10 of the product of its decisions' choice counts (Allis' b^d, taken game "
        "by game); the table gives its mean over games",
    ),
    (
        "most / median branching",
        "per game, the most legal decisions at any decision and their median over decisions; "
        "the table gives their means over games",
    ),
    (
        "outcome uniformity",
        "Ludii's: 1 - the mean over seats of the variance over games of the seat's result "
        "(win +1, draw 0, loss -1), with a percentile bootstrap interval (1,000 resamples of "
        "the games); 0 when each seat wins or loses half its games, 1 when every game ends "
        "alike for each seat",
    ),
    (
        "draws by how the game ended",
        "per seat, its draws and shared places counted by termination (repetition, a cap, ...)",
    ),
    (
        "decisiveness threshold",
        "Ludii's: per game with one winner, the highest evaluation any other seat reached; the "
        "table gives its mean over games. A lead up to it has been lost",
    ),
    (
        "kingmaking",
        "3-5 seats, games with one winner: the decision after which the winner leads at every "
        "later decision was played by a seat that lost and was strictly last in evaluation "
        "before it (a seat out of the running decided who wins); share of the games with a "
        "winner, Wilson interval",
    ),
    (
        "seats knocked out early",
        "3-5 seats: per game, the losing seats that started none of the game's last K turns "
        "(K seats; every seat still in play has one of them): eliminated before the final "
        "round",
    ),
    (
        "drama",
        "max over decisions of (best evaluation - winner's evaluation): how far behind "
        "the eventual winner was",
    ),
    (
        "decided after",
        "d*/D, where from decision d* on the winner leads at every decision; games without "
        "one winner have none; its spread over games is drawn under Feel",
    ),
    (
        "evaluation variance",
        "mean over seats of the variance of a seat's evaluation over the "
        "game (Ludii's stability: low is stable)",
    ),
    (
        "board coverage",
        "share of the cells seen in the board snapshots (every K decisions, --board-every, "
        "and at the end) that held a seat's piece in some snapshot; a cell a piece only "
        "passed through between two snapshots is not counted, so this is a lower bound",
    ),
    ("score margin", "|first seat's score - second seat's score| in scored games"),
    (
        "deep metrics",
        "only in a run with --deep, which evaluates at every decision each legal decision one "
        "decision ahead (the game's heuristic of the position it leads to, for the seat to "
        "move; a win 2, a loss -2, as the greedy bot scores them; the lab's look-ahead, not "
        "the bots' own search values) and compares positions and boards; means over games of "
        "per-game means over the decisions that were not forced, with t intervals",
    ),
    (
        "clarity",
        "variance: the variance of a decision's alternatives' evaluations (Ludii's clarity, "
        "variance); narrowness: the share of them at least 3/4 of the way from their mean to "
        "the best (Ludii's clarity, narrowness)",
    ),
    (
        "uncertain decisions",
        "per game, the share of decisions whose best two alternatives are evaluated less than "
        "0.05 apart",
    ),
    (
        "chosen move's shortfall",
        "the evaluation difference of the chosen move: best alternative's evaluation minus the "
        "chosen one's, 0 when the move played is the best one decision ahead",
    ),
    (
        "MCTS's own values",
        "where an MCTS bot decides, the same summaries from its own search: each root decision "
        "it opened valued by its mean reward for the seat to move (-1 to 1), its choice the "
        "most visited; per game, means over the decisions it searched with at least two "
        "opened (alpha-beta's values are not kept: its pruned root moves have bounds, not "
        "values)",
    ),
    (
        "repetition",
        "situational: the share of a game's decisions taken in a position seen before in that "
        "game (the game's repetition key: board, side to move and what its rules compare, "
        "without move counters); positional: the same for the board alone, as drawn (cells and "
        "stacks, without side to move, pools or counters); Ludii's state repetition",
    ),
    (
        "move distance",
        "per game, the mean over decisions that move a piece from one cell to another of the "
        "distance between the centres of the first and last cells clicked, in cell sizes",
    ),
    (
        "state-space estimate",
        "per game, cells x log10(distinct cell contents seen + 1), the log10 of the boards "
        "with every cell empty or holding any stack seen in that game, independently (after "
        "Ludii's upper bound; it leaves out contents never seen, side to move, pools and "
        "counters); the table gives its mean over games",
    ),
    (
        "differences",
        "variant minus base; rates: Newcombe interval and Fisher's exact test; "
        "means: Welch's t interval and test; real = Benjamini-Hochberg adjusted p < 0.05 across "
        "every metric of every variant of the run (one family)",
    ),
    (
        "power",
        "the smallest effect a test sees 80% of the time at this number of games (5% level, "
        "arcsine approximation): smaller real effects usually read as no real difference",
    ),
    (
        "balance under strong play",
        "with --strong SPEC, each variant is played again (--strong-games games, the same "
        "seeds) by SPEC in every seat; the seats' verdict is the same seat-balance test, and "
        "the first seat's edge under strong play minus under the run's bots has the MOVER "
        "interval, Benjamini-Hochberg adjusted over the variants",
    ),
    (
        "skill",
        "the stronger bot's wins over decided games against the bot below (K - 1 copies of it "
        "at K seats), Wilson interval, one-sided binomial test against an equal player's "
        "share 1/K",
    ),
)


def _fmt(estimate: dict[str, float] | None, percent: bool) -> str:
    if estimate is None or math.isnan(estimate["value"]):
        return "—"
    if percent:
        # Whole percents, or, where they would print an interval as a point, the decimals
        # that show its width to two significant digits (0.06% [0.00, 0.15]).
        shares = [100 * estimate[k] for k in ("value", "low", "high")]
        width = shares[2] - shares[1]
        digits = 0
        if width > 0 and round(shares[1]) == round(shares[2]):
            digits = max(1, 1 - math.floor(math.log10(width)))
        value, low, high = (f"{share:.{digits}f}" for share in shares)
        return f"{value}% [{low}, {high}]"
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
                _fmt(s["decided_share"], True),
            ]
            for s in result["seats"]
        ]
        reasons = ", ".join(f"{termination_name(k)} {v}" for k, v in result["terminations"].items())
        parts.append(
            f"<h3>{escape(one['label'])}</h3>"
            f"<p>{result['games']} games; bots per seat: {escape(', '.join(one['players']))}; "
            f"seat balance p {_p(result['seat_balance_p'])}; terminations: {escape(reasons)}; "
            f"caps hit in {_fmt(one['caps'], True)} of games.</p>"
            + _table(
                [
                    "seat (final ranking)",
                    "wins",
                    "shared/draws",
                    "losses",
                    "wins of all games",
                    f"wins of the {result['decided']} with a winner (fair {1 / len(rows):.0%})",
                ],
                rows,
            )
            + _draw_types(result["seats"])
            + _uniformity(result.get("uniformity"))
        )
        if len(result["players"]) > 1:
            parts.append(
                _table(
                    ["bot", "win rate"],
                    [[spec, _fmt(e, True)] for spec, e in result["players"].items()],
                )
            )
    return "".join(parts)


def _draw_types(seats: Sequence[dict[str, Any]]) -> str:
    """Each seat's draws and shared places by how the game ended, most first (``P1: repetition
    3, ply cap 2``); nothing when no seat drew."""
    parts = []
    for seat in seats:
        kinds = sorted(seat.get("draw_types", {}).items(), key=lambda item: (-item[1], item[0]))
        if kinds:
            found = ", ".join(f"{termination_name(k)} {v}" for k, v in kinds)
            parts.append(f"{escape(seat['seat'])}: {escape(found)}")
    return (
        f"<p>Draws and shared places by how the game ended: {'; '.join(parts)}.</p>"
        if parts
        else ""
    )


def _uniformity(estimate: dict[str, float] | None) -> str:
    """The outcome uniformity line under a series' outcome table."""
    if estimate is None:
        return ""
    name, meaning = PLAIN["uniformity"]
    return (
        f"<p>{escape(name.capitalize())} {_fmt(estimate, False)} (bootstrap 95% interval over "
        f"games): {escape(meaning)}.</p>"
    )


def _metric_table(series: Sequence[dict[str, Any]]) -> str:
    rows = []
    for metric in METRICS:
        cells = [_fmt(one["metrics"][metric.key], metric.percent) for one in series]
        if any(c != "—" for c in cells):
            rows.append([metric.label, *cells])
    return _table(["metric (95% interval)", *[one["label"] for one in series]], rows)


def _comparison_section(summary: dict[str, Any]) -> str:
    parts = []
    for comparison in summary["comparisons"]:
        rows = []
        for row in comparison["rows"]:
            scale = 100.0 if PERCENT[row["metric"]] else 1.0
            unit = " pt" if scale == 100 else ""
            diff, low, high = (row[k] * scale for k in ("diff", "low", "high"))
            digits = decimals((high - low) / 2)
            base, variant = (
                f"{round(v * 100)}%" if scale == 100 else figure(v) for v in row["values"]
            )
            verdict = "real" if row["real"] else "no significant difference"
            cls = ' class="real"' if row["real"] else ""
            name, meaning = PLAIN.get(row["metric"], (row["label"], ""))
            rows.append(
                [
                    f"<td class='metric'>{escape(name)}"
                    f"<span class='meaning'>{escape(meaning)}</span></td>",
                    f"<td>{base}</td>",
                    f"<td>{variant}</td>",
                    f"<td{cls}>{diff:+.{digits}f}{unit}</td>",
                    f"<td>[{low:+.{digits}f}, {high:+.{digits}f}]</td>",
                    f"<td>{_p(row['p_adjusted'])}</td>",
                    f"<td{cls}>{verdict}</td>",
                ]
            )
        parts.append(
            f"<h3>{escape(comparison['variant'])} minus {escape(comparison['base'])}</h3>"
            + _table(
                [
                    "metric",
                    comparison["base"],
                    comparison["variant"],
                    "difference",
                    "95% interval",
                    "adjusted p",
                    "verdict",
                ],
                rows,
                raw=True,
            )
            + _figure(
                plots.comparison_chart(comparison, PERCENT),
                "Each metric's difference with its 95% interval; filled: real after the "
                "Benjamini-Hochberg correction. An interval across 0 is no significant "
                "difference, not proof of none.",
            )
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
            f"{r.get('p_adjusted', r['p']):.3g}",
            "yes" if r["real"] else "no",
        ]
        for r in skill
    ]
    return _table(
        [
            "stronger vs weaker",
            "games",
            "W",
            "D",
            "L",
            "wins of decided",
            "fair share",
            "p",
            "adjusted p",
            "clearly better?",
        ],
        rows,
    ) + _figure(
        plots.skill_chart(skill),
        "Share of decided games each stronger bot wins against the one below, with 95% "
        "intervals; the dashed line is an equal player's share (1/seats). Green: clearly "
        "better. About 20 decided games tell a large gap, not a small one.",
    )


def _strong_section(summary: dict[str, Any]) -> str:
    """Balance under strong play: per variant the seat verdict with the run's bots and with the
    strong ones, and the first seat's edge under both."""
    rows = []
    for row in summary["strong_rows"]:
        before, after = ("yes" if v else "no" for v in row["unequal"])
        changed = "no" if row["unequal"][0] == row["unequal"][1] else "yes"
        rows.append(
            [
                row["variant"],
                f"{row['games']} ({row['decided']})",
                f"{before} → {after}",
                changed,
                f"{row['edge'][0]:.2f} → {row['edge'][1]:.2f}",
                f"{row['diff']:+.2f} [{row['low']:+.2f}, {row['high']:+.2f}]",
                "yes" if row["real"] else "no",
            ]
        )
    return _table(
        [
            "variant",
            "games (won)",
            "seats unequal?",
            "changed?",
            "first seat's edge",
            "moved (95%)",
            "real?",
        ],
        rows,
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


MIN_CURVE_POINTS = 6
"""Pieces over time is drawn from at least this many snapshots; fewer would draw straight
lines between a handful of points and show a shape the data do not have."""


def termination_name(termination: str) -> str:
    """A termination as words: ``home_row`` reads ``home row``."""
    return termination.replace("_", " ")


def _figure(svg: str, caption: str) -> str:
    return f"<figure>{svg}<figcaption>{escape(caption)}</figcaption></figure>"


def _pieces(one: dict[str, Any]) -> str:
    """Pieces over time, or why it is not drawn (too few snapshots per game)."""
    points = max((len(line) for line in one["pieces_curve"]), default=0)
    if points >= MIN_CURVE_POINTS:
        return _figure(
            plots.piece_curves(one),
            "Mean pieces on the board per seat, over the games still going, from a snapshot "
            f"every {one['pieces_every']} decisions. Needs snapshots at least every tenth of a "
            "game (--board-every) and a few dozen games.",
        )
    every = one["pieces_every"]
    stride = max(1, int(median(one["decisions"] or [0])) // 10)
    return (
        f"<p class='note'>Pieces over time for {escape(one['label'])} is not drawn: with a "
        f"snapshot every {every} decisions the curve would have only {points} points. Run with "
        f"--board-every {stride} (a tenth of a typical game) to draw it.</p>"
    )


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
    names = {
        reason: termination_name(reason)
        for one in series
        for reason in one["outcome"]["terminations"]
    }
    items = "".join(
        f"<li class='warning'>{escape(line)}</li>"
        if line.startswith("Warning")
        else f"<li>{escape(line)}</li>"
        for line in summary["headlines"]
    )
    sections = [
        f"<h1>{escape(title)}</h1><p class='meta'>{meta}</p>",
        f"<ul class='headlines'>{items}</ul>",
        "<h2>Outcome</h2>",
        _figure(
            plots.outcome_bars(series),
            "Share of the games with a winner that each seat wins, against its fair share "
            "(dashed: 1/seats), and apart the share of games without a single winner (draws "
            "and shared places), with 95% Wilson intervals. Seats rotate between bots, so a "
            "bar is the seat's edge. An edge of a few points needs hundreds of games (see the "
            "power line in the headlines).",
        ),
        _outcome_section(series),
        _figure(
            plots.endings_chart(series, names),
            "How games end: the share of games per termination (the rules' ends, or a cap).",
        ),
        "<h2>All metrics</h2>",
        _metric_table(series),
        "<h2>Duration</h2>",
        _figure(
            plots.length_histogram(series),
            "Game length in decisions; each bin spans the same number of whole decisions. "
            "Its shape is worth reading from about a hundred games on.",
        ),
        "<h2>Choice</h2>",
        _figure(
            branching,
            "Mean number of legal decisions at each decision number, over the games still "
            "going (the curve stops where fewer than a tenth of the games are).",
        ),
        "<h2>Feel</h2>",
        _figure(
            plots.decided_histogram(series),
            "When games are decided: for each game with one winner, the share of its "
            "decisions after which the winner leads for good. Low: decided early.",
        ),
    ]
    for one in series:
        if one["samples"]:
            sections.append(
                _figure(
                    plots.evaluation_traces(one),
                    "Every seat's evaluation (the game's heuristic, -1 to 1) through the first "
                    "sample games; the title says how each ended. Three games illustrate, they "
                    "do not measure.",
                )
            )
        if one["pieces_curve"]:
            sections.append(_pieces(one))
    if summary["comparisons"]:
        sections += ["<h2>Variants compared</h2>", _comparison_section(summary)]
    if summary["skill"]:
        sections += ["<h2>Skill</h2>", _skill_section(summary["skill"])]
    if summary.get("strong_rows"):
        sections += [
            "<h2>Balance under strong play</h2>",
            f"<p>Every variant played again with {escape(summary['strong_rows'][0]['players'])} "
            "in every seat: does the verdict on the seats hold when the game is played well? "
            "Per variant: the strong games (with a winner), whether the seat-balance "
            "test calls the seats unequal (the run's bots → the strong ones) and whether that "
            "changed, the first seat's share of the games with a winner over its fair share, "
            "and how far it moved, with its 95% interval (real: Benjamini-Hochberg adjusted "
            "p < 0.05).</p>",
            _strong_section(summary),
        ]
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
    title = f"Playtest report: {make(summary['game']).name}"
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
