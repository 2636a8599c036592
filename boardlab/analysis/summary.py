"""From traces to a designer's summary: every metric of every series with its interval,
variants side by side with tested differences, the skill trace, and plain sentences.

The summary is JSON data (``summary.json`` of a report); it depends only on the traces, so the
same run seed gives the same summary however the run was split, resumed or distributed.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import Any

from scipy import stats

from boardlab.analysis import decision_metrics as dm
from boardlab.analysis import metrics, seat_metrics
from boardlab.analysis.headlines import headlines
from boardlab.analysis.lab import LabConfig, Series
from boardlab.analysis.seat_edge import compare_edges, edge
from boardlab.analysis.stats import (
    ALPHA,
    LEVEL,
    Estimate,
    adjust,
    beats,
    bootstrap_uniformity,
    compare_means,
    compare_proportions,
    mean,
    proportion,
    seat_balance,
)
from boardlab.analysis.strong_play import strong_comparisons, strong_rows
from boardlab.analysis.trace import GameTrace
from boardlab.core.registry import make

CURVE_SHARE = 0.1
"""Curves by decision stop where fewer than this share of the games are still going."""


@dataclass(frozen=True)
class Metric:
    """A per-game quantity compared across variants: a rate (0/1 per game) or a mean."""

    key: str
    label: str
    kind: str
    value: Callable[[GameTrace], float | None]
    percent: bool = False


def _first_seat_win(trace: GameTrace) -> float:
    return float(trace.results[0] == "win")


def _draw(trace: GameTrace) -> float:
    return float("win" not in trace.results)


def _completed(trace: GameTrace) -> float:
    return float(metrics.completed(trace.termination))


def _drama(trace: GameTrace) -> float | None:
    return metrics.drama(trace.eval_rows(), metrics.winner(trace.results))


def _comeback(trace: GameTrace) -> float | None:
    return metrics.comeback(trace.eval_rows(), metrics.winner(trace.results))


def _decisiveness(trace: GameTrace) -> float | None:
    return metrics.decisiveness(trace.eval_rows(), metrics.winner(trace.results))


def _margin(trace: GameTrace) -> float | None:
    found = metrics.margin(trace.scores)
    return None if found is None else abs(found)


METRICS = (
    Metric("first_seat_wins", "first seat wins", "rate", _first_seat_win, True),
    Metric("draws", "draws", "rate", _draw, True),
    Metric("completion", "ends by the rules (not a cap)", "rate", _completed, True),
    Metric("decisions", "decisions per game", "mean", lambda t: t.decisions),
    Metric("turns", "turns per game", "mean", lambda t: t.turns),
    Metric("branching", "branching (decisions)", "mean", lambda t: metrics.branching(t.choices)),
    Metric(
        "turn_branching",
        "branching (whole turns, geometric)",
        "mean",
        lambda t: metrics.turn_branching(t.choices, t.turn_start),
    ),
    Metric(
        "forced",
        "forced decisions (mean share per game)",
        "mean",
        lambda t: metrics.forced_share(t.choices),
        True,
    ),
    Metric(
        "max_branching",
        "branching (most at a decision)",
        "mean",
        lambda t: metrics.max_branching(t.choices),
    ),
    Metric(
        "median_branching",
        "branching (median over decisions)",
        "mean",
        lambda t: metrics.median_branching(t.choices),
    ),
    Metric(
        "tree_size",
        "game-tree complexity (log10, per game)",
        "mean",
        lambda t: metrics.tree_size(t.choices),
    ),
    Metric("lead_changes", "lead changes", "mean", lambda t: metrics.lead_changes(t.eval_rows())),
    Metric(
        "lasting_lead_changes",
        "lead changes not undone at the next decision",
        "mean",
        lambda t: metrics.lasting_lead_changes(t.eval_rows()),
    ),
    Metric("comeback", "comebacks (winner was once last)", "rate", _comeback, True),
    Metric(
        "idle",
        "losers' idle share (3-5 seats)",
        "mean",
        lambda t: metrics.idle_share(t.seats, t.results),
        True,
    ),
    Metric(
        "kingmaking",
        "kingmaking (3-5 seats: a losing last seat set the winner's lead)",
        "rate",
        lambda t: seat_metrics.kingmade(t.seats, t.eval_rows(), t.results),
        True,
    ),
    Metric(
        "eliminated",
        "seats knocked out before the last round (3-5 seats)",
        "mean",
        lambda t: seat_metrics.eliminated(t.seats, t.turn_start, t.results),
    ),
    Metric("drama", "drama (winner's deepest deficit)", "mean", _drama),
    Metric(
        "threshold",
        "decisiveness threshold (best evaluation of a seat that did not win)",
        "mean",
        lambda t: seat_metrics.decisiveness_threshold(t.eval_rows(), t.results),
    ),
    Metric("decisiveness", "decided after (share of game)", "mean", _decisiveness, True),
    Metric("stability", "evaluation variance", "mean", lambda t: metrics.stability(t.eval_rows())),
    Metric(
        "coverage",
        "board coverage (in snapshots)",
        "mean",
        lambda t: metrics.coverage(t.cells, t.covered),
        True,
    ),
    Metric("margin", "score margin (absolute)", "mean", _margin),
    Metric(
        "clarity",
        "clarity: variance of the alternatives' evaluations (deep)",
        "mean",
        lambda t: dm.clarity_variance(t.alternatives, t.choices),
    ),
    Metric(
        "narrowness",
        "clarity: share of alternatives near the best (deep)",
        "mean",
        lambda t: dm.narrowness(t.alternatives, t.choices),
        True,
    ),
    Metric(
        "uncertainty",
        "uncertain decisions: best two within 0.05 (deep)",
        "mean",
        lambda t: dm.uncertainty(t.alternatives, t.choices),
        True,
    ),
    Metric(
        "shortfall",
        "chosen move's evaluation below the best (deep)",
        "mean",
        lambda t: dm.chosen_shortfall(t.alternatives, t.choices),
    ),
    Metric(
        "search_clarity",
        "clarity from MCTS's own values: variance of its root means (deep)",
        "mean",
        lambda t: dm.search_clarity(t.searched),
    ),
    Metric(
        "search_uncertainty",
        "uncertain MCTS decisions: best two root means within 0.05 (deep)",
        "mean",
        lambda t: dm.search_uncertainty(t.searched),
        True,
    ),
    Metric(
        "search_shortfall",
        "MCTS's choice below its best root mean (deep)",
        "mean",
        lambda t: dm.search_shortfall(t.searched),
    ),
    Metric(
        "repetition",
        "situational repetition: positions seen before (deep)",
        "mean",
        lambda t: dm.repetition(t.repeats),
        True,
    ),
    Metric(
        "board_repetition",
        "positional repetition: boards seen before (deep)",
        "mean",
        lambda t: dm.repetition(t.board_repeats),
        True,
    ),
    Metric(
        "distance",
        "move distance, in cells (deep)",
        "mean",
        lambda t: dm.mean_distance(t.distance),
    ),
    Metric(
        "state_space",
        "state-space estimate (log10, Ludii's bound, deep)",
        "mean",
        lambda t: t.state_space,
    ),
)
"""Every compared metric, in report order; each is defined in :mod:`metrics`."""
METRICS_BY_KEY = {metric.key: metric for metric in METRICS}
EDGE = "first_seat_edge"
EDGE_LABEL = "first seat's edge (its share of decided games ÷ fair share)"
PERCENT = {EDGE: False} | {metric.key: metric.percent for metric in METRICS}
"""Per compared metric: whether its differences read as percentage points."""


def values(metric: Metric, traces: Sequence[GameTrace]) -> list[float]:
    """The metric's value in every game where it applies."""
    found = (metric.value(trace) for trace in traces)
    return [float(v) for v in found if v is not None]


def estimate(metric: Metric, traces: Sequence[GameTrace]) -> Estimate | None:
    """The metric over the games: a Wilson interval for rates, a t interval for means."""
    found = values(metric, traces)
    if not found:
        return None
    if metric.kind == "rate":
        return proportion(int(sum(found)), len(found))
    found_mean = mean(found)
    if metric.percent and found_mean.low == found_mean.high:
        return spread_unseen(found)
    if metric.percent:
        # A mean of per-game shares lies in [0, 1]; so does its true value, so clamping the t
        # interval there loses no coverage and never prints a share below 0 or above 100%.
        low, high = max(0.0, found_mean.low), min(1.0, found_mean.high)
        return Estimate(found_mean.value, low, high, found_mean.n)
    return found_mean


def spread_unseen(found: Sequence[float]) -> Estimate:
    """A mean of shares whose games all gave the same share: the t interval would be a point
    (``85% [85, 85]``), claiming a certainty that one value per game cannot give. A share lies
    in [0, 1], so bounds that hold for any such distribution: all 0 (or all 1) is Clopper and
    Pearson's interval of 0 of ``n`` (a game's share is positive at least as often as the mean
    share), otherwise Hoeffding's interval."""
    n, value = len(found), found[0]
    if value in (0.0, 1.0):
        exact = stats.binomtest(0, n).proportion_ci(confidence_level=LEVEL, method="exact")
        high = float(exact.high)
        return Estimate(value, 0.0, high, n) if value == 0 else Estimate(value, 1 - high, 1.0, n)
    half = math.sqrt(math.log(2 / (1 - LEVEL)) / (2 * n))
    return Estimate(value, max(0.0, value - half), min(1.0, value + half), n)


def curve(series: Sequence[Sequence[float]]) -> list[float]:
    """Mean by decision number over the games still going, while enough of them are."""
    longest = max((len(s) for s in series), default=0)
    least = max(1, math.ceil(CURVE_SHARE * len(series)))
    out = []
    for d in range(longest):
        alive = [s[d] for s in series if len(s) > d]
        if len(alive) < least:
            break
        out.append(round(sum(alive) / len(alive), 4))
    return out


def outcome(traces: Sequence[GameTrace], seats: Sequence[str]) -> dict[str, Any]:
    """Wins per seat position and per player, draws, ranks, terminations, seat balance."""
    n = len(traces)
    table = [Counter(t.results[s] for t in traces) for s in range(len(seats))]
    wins = [row["win"] for row in table]
    decided = sum(metrics.winner(t.results) is not None for t in traces)
    draw_types = [
        dict(sorted(Counter(t.termination for t in traces if t.results[s] == "draw").items()))
        for s in range(len(seats))
    ]
    per_seat = [
        {
            "seat": name,
            "wins": row["win"],
            "draws": row["draw"],
            "losses": row["loss"],
            "draw_types": kinds,
            "win_rate": proportion(row["win"], n).to_json(),
            "decided_share": proportion(row["win"], decided).to_json(),
        }
        for name, row, kinds in zip(seats, table, draw_types, strict=True)
    ]
    players: Counter[str] = Counter()
    games: Counter[str] = Counter()
    for trace in traces:
        for seat, spec in enumerate(trace.players):
            games[spec] += 1
            players[spec] += trace.results[seat] == "win"
    return {
        "games": n,
        "decided": decided,
        "fair": round(1 / len(seats), 6),
        "seats": per_seat,
        "players": {
            spec: proportion(players[spec], games[spec]).to_json() for spec in sorted(games)
        },
        "seat_balance_p": round(seat_balance(wins), 6),
        "uniformity": uniformity(traces),
        "terminations": dict(sorted(Counter(t.termination for t in traces).items())),
    }


def uniformity(traces: Sequence[GameTrace]) -> dict[str, float | int] | None:
    """Outcome uniformity of the games (see :data:`seat_metrics.UTILITY`) with its bootstrap
    95% interval; None without games."""
    if not traces:
        return None
    rows = [[seat_metrics.UTILITY[r] for r in t.results] for t in traces]
    return bootstrap_uniformity(rows).to_json()


def summarize_series(
    series: Series, traces: Sequence[GameTrace], seats: Sequence[str]
) -> dict[str, Any]:
    """Every metric of one series, with intervals, curves and sample games."""
    found = {}
    for metric in METRICS:
        result = estimate(metric, traces)
        found[metric.key] = None if result is None else result.to_json()
    seat_count = len(seats)
    # The last snapshot is the end of the game, off the stride: the curve leaves it out.
    pieces = [
        curve([[row[s] for row in t.pieces[:-1]] for t in traces if t.pieces])
        for s in range(seat_count)
    ]
    return {
        "name": series.name,
        "label": series.label,
        "options": series.options,
        "players": list(series.players),
        "seat_names": list(seats),
        "outcome": outcome(traces, seats),
        "metrics": found,
        "caps": proportion(
            sum(not metrics.completed(t.termination) for t in traces), len(traces)
        ).to_json(),
        "decisions": [t.decisions for t in traces],
        "decided_after": sorted(
            round(v, 4) for v in values(METRICS_BY_KEY["decisiveness"], traces)
        ),
        "branching_curve": curve([t.choices for t in traces]),
        "pieces_curve": pieces if any(pieces) else [],
        "pieces_every": max((t.board_every for t in traces), default=0),
        "samples": [
            {"index": t.index, "record": t.record, "evals": t.eval_rows(), "results": t.results}
            for t in traces
            if t.record is not None
        ][:3],
    }


def first_seat_record(traces: Sequence[GameTrace]) -> tuple[int, int, int]:
    """The first seat's wins, the games with one winner, and the seat count."""
    decided = [metrics.winner(t.results) for t in traces]
    wins = sum(seat == 0 for seat in decided)
    seats = len(traces[0].results) if traces else 2
    return wins, sum(seat is not None for seat in decided), seats


def compare(base: Sequence[GameTrace], other: Sequence[GameTrace]) -> list[dict[str, Any]]:
    """Every metric of ``other`` minus ``base``, with interval, p and BH-adjusted verdict.

    The first seat is compared by its edge over its fair share (:mod:`seat_edge`), not by its
    raw win rate, which differs between seat counts and with the draws even without any edge.
    """
    first = first_seat_record(base), first_seat_record(other)
    rows: list[dict[str, Any]] = [
        {
            "metric": EDGE,
            "label": EDGE_LABEL,
            "seats": [first[0][2], first[1][2]],
            "values": [round(edge(*record)[0], 6) for record in first],
            **compare_edges(*first).to_json(),
        }
    ]
    for metric in METRICS:
        if metric.key == "first_seat_wins":
            continue
        a, b = values(metric, base), values(metric, other)
        if not a or not b:
            continue
        if metric.kind == "rate":
            diff = compare_proportions(int(sum(a)), len(a), int(sum(b)), len(b))
        else:
            diff = compare_means(a, b)
        rows.append(
            {
                "metric": metric.key,
                "label": metric.label,
                "values": [round(fmean(a), 6), round(fmean(b), 6)],
                **diff.to_json(),
            }
        )
    for row, adjusted in zip(rows, adjust([row["p"] for row in rows]), strict=True):
        row["p_adjusted"] = round(adjusted, 6)
        row["real"] = adjusted < ALPHA
    return rows


def skill_rung(series: Series, traces: Sequence[GameTrace]) -> dict[str, Any]:
    """The strong bot's record against the weak ones: share of decided games won, with p.

    The strong bot sits with ``K - 1`` copies of the weak one, so an equal player's share of
    the decided games is ``1/K``: the one-sided binomial test is against that fair share.
    """
    strong = series.players[0]
    seats = len(series.players)
    tally: Counter[str] = Counter()
    for trace in traces:
        seat = trace.players.index(strong) if strong in trace.players else 0
        tally[trace.results[seat]] += 1
    decided = tally["win"] + tally["loss"]
    fair = 1 / seats
    p = beats(tally["win"], decided, fair)
    return {
        "label": series.label,
        "strong": strong,
        "weak": series.players[-1],
        "seats": seats,
        "fair": round(fair, 6),
        "games": len(traces),
        "wins": tally["win"],
        "draws": tally["draw"],
        "losses": tally["loss"],
        "share": proportion(tally["win"], decided).to_json(),
        "p": round(p, 6),
        "real": p < ALPHA,
    }


def one_family(rows: Sequence[dict[str, Any]]) -> None:
    """Adjust the p-values of ``rows`` together (Benjamini-Hochberg) and mark the real ones.

    A run's family is every variant's metrics (or every rung of its skill trace), so several
    variants or rungs do not each get their own 5% of false discoveries.
    """
    for row, adjusted in zip(rows, adjust([row["p"] for row in rows]), strict=True):
        row["p_adjusted"] = round(adjusted, 6)
        row["real"] = adjusted < ALPHA


def summarize_run(
    config: LabConfig, series: Sequence[Series], traces: Sequence[GameTrace]
) -> dict[str, Any]:
    """The whole run: every series, comparisons with the first variant, skill, headlines."""
    by_series: dict[str, list[GameTrace]] = {s.name: [] for s in series}
    for trace in traces:
        if trace.series in by_series:
            by_series[trace.series].append(trace)
    variants = [s for s in series if s.kind == "variant"]
    rungs = [s for s in series if s.kind == "skill"]
    summaries = [
        summarize_series(s, by_series[s.name], seat_names(config.game, s)) for s in variants
    ]
    strong = [
        summarize_series(s, by_series[s.name], seat_names(config.game, s))
        for s in series
        if s.kind == "strong"
    ]
    base = variants[0].name
    rows = {s.name: compare(by_series[base], by_series[s.name]) for s in variants[1:]}
    comparisons = [{"base": base, "variant": name, "rows": found} for name, found in rows.items()]
    skill = [skill_rung(s, by_series[s.name]) for s in rungs]
    one_family([row for found in rows.values() for row in found])
    one_family(skill)
    summary = {
        "game": config.game,
        "seed": config.seed,
        "games": config.games,
        "config": config.to_json(),
        "series": summaries,
        "comparisons": comparisons,
        "skill": skill,
    }
    if strong:
        summary["strong"] = strong
        summary["strong_rows"] = strong_rows(summaries, strong)
        summary["strong_comparisons"] = strong_comparisons(strong)
    summary["headlines"] = headlines(summary, PERCENT)
    return summary


def seat_names(game_id: str, series: Series) -> tuple[str, ...]:
    """The seat names of a series' game."""
    return make(game_id, **series.options).player_names


def game_row(trace: GameTrace) -> dict[str, Any]:
    """One game as a flat CSV row: who sat where, how it ended, and every per-game metric."""
    row: dict[str, Any] = {
        "series": trace.series,
        "game": trace.index + 1,
        "players": " | ".join(trace.players),
        "results": " | ".join(trace.results),
        "termination": trace.termination,
        "scores": "" if trace.scores is None else " | ".join(map(str, trace.scores)),
        "record": trace.record or "",
    }
    for metric in METRICS:
        value = metric.value(trace)
        row[metric.key] = "" if value is None else round(float(value), 6)
    return row
