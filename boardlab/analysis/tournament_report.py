"""A tournament's standings: the crosstable, the rating table, JSON for machines, and a plot."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import median
from typing import Any

from boardlab.analysis.finishes import Finish, pair_score
from boardlab.analysis.ratings import Fit, Rating, fit, rate


@dataclass(frozen=True)
class Standings:
    """Ratings (best first) and the pairwise crosstable of one tournament."""

    ratings: list[Rating]
    anchor: str
    seats: int
    score: dict[str, dict[str, float]]
    """``score[a][b]``: a's share of finishes ahead of b (a tie is half) in games both played."""
    met: dict[str, dict[str, int]]
    """``met[a][b]``: games a and b played together."""
    fit: Fit
    """The fitted model: covariances (for intervals of differences) and tie weights."""

    def overall(self, player: str) -> float:
        """The player's score over all its opponents, weighted by games."""
        games = sum(self.met[player].values())
        won = sum(self.score[player][b] * n for b, n in self.met[player].items())
        return won / games if games else 0.0


def standings(finishes: Sequence[Finish], anchor: str) -> Standings:
    """Rate the finishes and build the crosstable."""
    ratings = rate(finishes, anchor)
    players = [r.player for r in ratings]
    won = {a: dict.fromkeys(players, 0.0) for a in players}
    met = {a: dict.fromkeys(players, 0) for a in players}
    for finish in finishes:
        for i, j in itertools.permutations(range(len(finish.players)), 2):
            a, b = finish.players[i], finish.players[j]
            won[a][b] += pair_score(finish.ranks, i, j)
            met[a][b] += 1
    score = {a: {b: won[a][b] / met[a][b] for b in players if met[a][b]} for a in players}
    met = {a: {b: n for b, n in row.items() if n} for a, row in met.items()}
    seats = len(finishes[0].players)
    return Standings(ratings, anchor, seats, score, met, fit(finishes, anchor))


def rating_table(result: Standings) -> str:
    """The rating table in markdown, best first."""
    method = "Bradley-Terry" if result.seats == 2 else "Plackett-Luce"
    if result.fit.ties:
        method += " with Davidson-Luce ties"
    method += " (Elo scale, Firth's penalty)"
    lines = [
        f"Ratings: {method}, {result.anchor} = 0, 95% intervals",
        "",
        "| # | player | rating | 95% CI | games | score |",
        "|---:|---|---:|---|---:|---:|",
    ]
    for number, r in enumerate(result.ratings, 1):
        lines.append(
            f"| {number} | {r.player} | {r.rating:.0f} | {r.low:.0f} to {r.high:.0f} "
            f"| {r.games} | {result.overall(r.player):.0%} |"
        )
    found = cautions(result)
    return "\n".join([*lines, "", *found] if found else lines)


def cautions(result: Standings) -> list[str]:
    """What the table cannot tell at this number of games, in sentences (none when it can)."""
    rated = [r for r in result.ratings if r.player != result.anchor]
    found = []
    unclear = [r.player for r in rated if r.low <= 0 <= r.high]
    if unclear:
        found.append(
            f"Not shown to be stronger or weaker than {result.anchor} (the 95% interval "
            f"holds 0): {', '.join(unclear)}."
        )
    if rated:
        half = median((r.high - r.low) / 2 for r in rated)
        found.append(
            f"A typical interval is ± {half:.0f} points: players rated closer than about that "
            "are not told apart by these games; more games per pairing narrow it (as one over "
            "the square root of the games)."
        )
    return found


def crosstable(result: Standings) -> str:
    """The crosstable in markdown: the row player's score against the column player."""
    players = [r.player for r in result.ratings]
    numbers = range(1, len(players) + 1)
    lines = [
        "Crosstable: the row's share of finishes ahead of the column (games together)",
        "",
        "| # | player | " + " | ".join(str(n) for n in numbers) + " |",
        "|---:|---|" + "---:|" * len(players),
    ]
    for number, a in zip(numbers, players, strict=True):
        cells = [
            f"{result.score[a][b]:.0%} ({result.met[a][b]})" if b in result.score[a] else "—"
            for b in players
        ]
        lines.append(f"| {number} | {a} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def as_json(result: Standings) -> dict[str, Any]:
    """Ratings and crosstable as JSON data (scores rounded to 4 decimals)."""
    return {
        "anchor": result.anchor,
        "seats": result.seats,
        "method": "davidson-luce, firth",
        "ties": {str(size): round(delta, 4) for size, delta in result.fit.ties.items()},
        "covariance": {
            a: {
                b: round(float(result.fit.covariance[i, j]), 1)
                for j, b in enumerate(result.fit.players)
            }
            for i, a in enumerate(result.fit.players)
        },
        "ratings": [
            {**r.as_json(), "score": round(result.overall(r.player), 4)} for r in result.ratings
        ],
        "crosstable": {
            a: {b: {"score": round(s, 4), "games": result.met[a][b]} for b, s in row.items()}
            for a, row in result.score.items()
        },
    }


def plot(result: Standings, title: str, path: Path) -> None:
    """A PNG of the ratings with their 95% intervals, best at the top."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    ratings = list(reversed(result.ratings))
    figure, axes = pyplot.subplots(figsize=(7, 0.45 * len(ratings) + 1.4))
    centres = [r.rating for r in ratings]
    errors = [[r.rating - r.low for r in ratings], [r.high - r.rating for r in ratings]]
    rows = range(len(ratings))
    axes.errorbar(centres, rows, xerr=errors, fmt="o", color="tab:blue", capsize=4)
    axes.set_yticks(list(rows), [r.player for r in ratings])
    axes.axvline(0, color="grey", linewidth=0.8, linestyle=":")
    axes.set_xlabel(f"rating ({result.anchor} = 0), with 95% interval")
    axes.set_title(title)
    axes.grid(axis="x", alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    pyplot.close(figure)
