"""A playtest's evidence: per variant, what people's games and answers say, beside bot
self-play of the same variant, and the variants compared with the lab's honest tests.

Pure functions of :class:`Game` rows and survey answers (``playtest_dashboard.py`` reads them
from the store): seats' shares of the decided games with Wilson intervals and their edge over
the fair share (:mod:`boardlab.analysis.seat_edge`), lengths with t intervals, end reasons,
time per decision, refused turns, abandonments, each question's mean and spread; between
variants, the first seat's edge (MOVER), draws (Newcombe, Fisher), lengths and scores (Welch),
corrected together by Benjamini-Hochberg, with the power line of the lab's report.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from statistics import fmean, median
from typing import Any

from boardlab.analysis.headlines import power_line
from boardlab.analysis.report import termination_name
from boardlab.analysis.seat_edge import compare_edges, edge
from boardlab.analysis.stats import (
    ALPHA,
    Difference,
    adjust,
    compare_means,
    compare_proportions,
    detectable_difference,
    mean,
    proportion,
)
from boardlab.web.playtest_games import Game

LONGEST_SHOWN = 5
REFUSALS_SHOWN = 8


def _est(estimate: Any) -> dict[str, float | int | None]:
    """An estimate as JSON, NaN as null (JSON has no NaN)."""
    return {
        k: None if isinstance(v, float) and math.isnan(v) else v
        for k, v in estimate.to_json().items()
    }


def _diff(difference: Difference) -> dict[str, float | None]:
    return {
        k: None if isinstance(v, float) and math.isnan(v) else v
        for k, v in difference.to_json().items()
    }


def outcomes(games: Sequence[Game], seats: Sequence[str]) -> dict[str, Any]:
    """Who won the finished ``games``: per seat its wins, share of the decided games and
    edge over the fair share; the share with no single winner; lengths; end reasons."""
    finished = [g for g in games if g.status == "finished" and g.results]
    winners = [g.results.index("win") for g in finished if g.results.count("win") == 1]
    decided, count = len(winners), len(seats)
    rows = []
    for seat, name in enumerate(seats):
        wins = winners.count(seat)
        value, low, high = edge(wins, decided, count)
        rows.append(
            {
                "seat": name,
                "wins": wins,
                "decided_share": _est(proportion(wins, decided)),
                "edge": {"value": _nan(value), "low": low, "high": high},
            }
        )
    lengths = [g.plies for g in finished]
    return {
        "games": len(finished),
        "decided": decided,
        "seats": rows,
        "draws": _est(proportion(len(finished) - decided, len(finished))),
        "length": _est(mean([float(n) for n in lengths])),
        "lengths": lengths,
        "endings": dict(Counter(termination_name(g.termination) for g in finished).most_common()),
    }


def _nan(value: float) -> float | None:
    return None if math.isnan(value) else value


def people_summary(games: Sequence[Game], seats: Sequence[str]) -> dict[str, Any]:
    """What the people's games of one variant say."""
    summary = outcomes(games, seats)
    summary["status"] = dict(Counter(g.status for g in games))
    against_bot = [g for g in games if g.status == "finished" and len(g.people) == 1]
    if against_bot:
        won = sum(g.results[g.people[0]] == "win" for g in against_bot)
        summary["people_against_bot"] = {
            "games": len(against_bot),
            "won": won,
            "share": _est(proportion(won, len(against_bot))),
        }
    decisions = [d for g in games for d in g.decisions]
    seconds = [d.seconds for d in decisions]
    summary["time"] = {
        "decisions": len(seconds),
        "mean": _est(mean(seconds)),
        "median": median(seconds) if seconds else None,
        "longest": [
            {
                "match": g.match_id,
                "seat": g.seats[d.seat],
                "ply": d.ply,
                "turn": d.turn,
                "seconds": round(d.seconds, 1),
            }
            for g, d in sorted(
                ((g, d) for g in games for d in g.decisions), key=lambda pair: -pair[1].seconds
            )[:LONGEST_SHOWN]
        ],
    }
    refused = [r for g in games for r in g.refused]
    played = [g for g in games if g.status in ("finished", "playing")]
    summary["refused"] = {
        "count": len(refused),
        "per_game": round(len(refused) / len(played), 3) if played else None,
        "reasons": [
            {"reason": reason, "count": n}
            for reason, n in Counter(r[2] for r in refused).most_common(REFUSALS_SHOWN)
        ],
        "typed": [
            {"turn": turn, "count": n}
            for turn, n in Counter(r[1] for r in refused).most_common(REFUSALS_SHOWN)
        ],
    }
    return summary


def survey_summary(
    questions: Sequence[str], scores: Sequence[Sequence[int | None]], texts: Sequence[str]
) -> dict[str, Any]:
    """Each question's mean with its interval and the spread of the answers (how many gave
    each score), and the free texts (as typed: the page escapes them)."""
    rows = []
    for number, question in enumerate(questions):
        given = [row[number] for row in scores if row[number] is not None]
        counts = Counter(given)
        rows.append(
            {
                "question": question,
                "answers": len(given),
                "mean": _score_mean([float(s) for s in given if s is not None]),
                "spread": [counts.get(score, 0) for score in range(1, 6)],
            }
        )
    return {"answers": len(scores), "questions": rows, "texts": [t for t in texts if t]}


def _score_mean(scores: list[float]) -> dict[str, float | int | None]:
    """The mean score with its t interval, clamped to the scale (1 to 5) a mean lies in."""
    found = _est(mean(scores))
    for key in ("low", "high"):
        value = found[key]
        if value is not None:
            found[key] = min(5.0, max(1.0, float(value)))
    return found


def bot_summary(
    results: Sequence[tuple[tuple[str, ...], str, int]], seats: Sequence[str]
) -> dict[str, Any]:
    """Bot self-play of a variant as the same outcome summary: each game as
    ``(results, termination, plies)``."""
    games = [
        Game("", 0, tuple(seats), (), "finished", tuple(r), termination, plies)
        for r, termination, plies in results
    ]
    return outcomes(games, seats)


def disagreements(people: dict[str, Any], bots: dict[str, Any], seats: Sequence[str]) -> list[str]:
    """Plain sentences where people's games and bot self-play of one variant differ: the
    first seat's share of decided games, the share with no winner, the length."""
    notes = []
    first_people, first_bots = people["seats"][0], bots["seats"][0]
    test = compare_proportions(
        first_bots["wins"], bots["decided"], first_people["wins"], people["decided"]
    )
    if people["decided"] and bots["decided"]:
        p_share = first_people["wins"] / people["decided"]
        b_share = first_bots["wins"] / bots["decided"]
        if p_share == b_share:
            sentence = (
                f"People and bots give the first seat ({seats[0]}) the same share of the games "
                f"with a winner: {p_share:.0%}"
            )
        else:
            stronger = "stronger" if p_share > b_share else "weaker"
            sentence = (
                f"People find the first seat ({seats[0]}) {stronger} than bots do: it won "
                f"{p_share:.0%} of people's games with a winner against {b_share:.0%} of the "
                f"bots' (p = {test.p:.3f})"
            )
        if p_share == b_share:
            notes.append(sentence + ".")
        else:
            real = test.p < ALPHA
            notes.append(sentence + (": a real difference." if real else _hint(people["decided"])))
    draws = compare_proportions(
        round(bots["draws"]["value"] * bots["games"]) if bots["games"] else 0,
        bots["games"],
        round(people["draws"]["value"] * people["games"]) if people["games"] else 0,
        people["games"],
    )
    if people["games"] and bots["games"] and draws.p < ALPHA:
        more = "more" if draws.diff > 0 else "less"
        notes.append(
            f"People's games end with no single winner {more} often than the bots' "
            f"({people['draws']['value']:.0%} against {bots['draws']['value']:.0%}, "
            f"p = {draws.p:.3f})."
        )
    length = compare_means(
        [float(n) for n in bots["lengths"]], [float(n) for n in people["lengths"]]
    )
    if not math.isnan(length.diff) and length.p < ALPHA:
        longer = "longer" if length.diff > 0 else "shorter"
        notes.append(
            f"People's games are {longer} than the bots': {fmean(people['lengths']):.0f} "
            f"turns against {fmean(bots['lengths']):.0f} on average (p = {length.p:.3f})."
        )
    if not notes:
        notes.append("People's games and bot self-play show no difference yet.")
    return notes


def _hint(games: int) -> str:
    return f"; with {games} people's games with a winner this is a hint, not yet a real difference."


def compare_variants(
    people: Sequence[dict[str, Any]],
    surveys: Sequence[dict[str, Any]],
    raw_scores: Sequence[Sequence[Sequence[int | None]]],
    names: Sequence[str],
) -> dict[str, Any]:
    """Every variant against the first on people's games and survey scores: the first seat's
    edge, the share with no winner, the length, each question's scores; p-values corrected
    together (Benjamini-Hochberg) and a power line."""
    rows: list[dict[str, Any]] = []
    base = people[0]
    for number in range(1, len(people)):
        other = people[number]
        seats_a, seats_b = len(base["seats"]), len(other["seats"])
        tests: list[tuple[str, Difference, bool]] = [
            (
                "first seat's edge (share of decided games ÷ fair share)",
                compare_edges(
                    (base["seats"][0]["wins"], base["decided"], seats_a),
                    (other["seats"][0]["wins"], other["decided"], seats_b),
                ),
                False,
            ),
            (
                "games with no single winner",
                compare_proportions(
                    base["games"] - base["decided"],
                    base["games"],
                    other["games"] - other["decided"],
                    other["games"],
                ),
                True,
            ),
            (
                "length (turns)",
                compare_means(
                    [float(n) for n in base["lengths"]], [float(n) for n in other["lengths"]]
                ),
                False,
            ),
        ]
        for question, row in enumerate(surveys[0]["questions"]):
            a = _given(raw_scores[0], question)
            b = _given(raw_scores[number], question)
            tests.append((f"survey: {row['question']}", compare_means(a, b), False))
        for metric, difference, percent in tests:
            rows.append(
                {
                    "variant": names[number],
                    "base": names[0],
                    "metric": metric,
                    "percent": percent,
                    **_diff(difference),
                }
            )
    for row, p in zip(
        rows, adjust([r["p"] if r["p"] is not None else 1.0 for r in rows]), strict=True
    ):
        row["p_adjusted"] = round(p, 6)
        row["verdict"] = verdict(row)
    return {"rows": rows, "power": power(people)}


def power(people: Sequence[dict[str, Any]]) -> str:
    """What the variants' people's games can show (the lab's power line, over the variant
    with the fewest games)."""
    games = min((p["games"] for p in people), default=0)
    decided = min((p["decided"] for p in people), default=0)
    if not games:
        return "No finished game in some variant yet: nothing can be compared."
    if not decided:
        return (
            f"No game with a single winner in some variant yet, so no seat's edge can be "
            f"seen; with {games} games a variant, a rate must differ by about "
            f"{100 * detectable_difference(games):.0f} points between variants to be seen "
            "(80% of the time)."
        )
    return power_line(games, 1 / len(people[0]["seats"]), len(people) > 1, decided)


def _given(scores: Sequence[Sequence[int | None]], question: int) -> list[float]:
    """The scores given to one question (blanks left out)."""
    return [float(score) for row in scores if (score := row[question]) is not None]


def verdict(row: dict[str, Any]) -> str:
    """A row's reading in words."""
    if row["diff"] is None:
        return "not enough games or answers to compare"
    if row["p_adjusted"] < ALPHA:
        return "a real difference (survives the 5% false discovery rate)"
    return "no real difference seen (it may still be there: see the power line)"
