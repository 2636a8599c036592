"""Ratings from finished games: one strength per player on an Elo-like scale, with 95% intervals.

One model for every seat count: Plackett-Luce with ties in Davidson-Luce's form (Firth, Kosmidis
and Turner 2019, the model of R's ``PlackettLuce``), fitted by penalised maximum likelihood on the
Elo scale. A game is a sequence of choices: from the players left, the next place is taken by one
player or shared by a group ``T``, with odds ``delta_|T| * exp(mean_{i in T} r_i / ELO)`` (the
geometric mean of the group's strengths, times a tie weight per group size, 1 for one player).
With two seats and no draws this is Bradley-Terry (400 points = 10:1 odds); with draws it is
Davidson's model of ties. The last place is no choice (a Colosseum Offcuts game won outright
ranks the winner and leaves the eliminated tied behind), unless every seat shares one place
(a draw): then the game is the choice of all of them together. Tie weights are fitted for the
group sizes that were seen; a size never seen has weight 0.

The model is a conditional logit (every set a choice could have taken is an alternative), so
its score and Fisher information are exact and cheap. **Prior**: Firth's penalty, half the
log-determinant of the Fisher information (Jeffreys' prior), which removes the first-order bias of
maximum likelihood and keeps every rating finite when a player won or lost every game, without
pulling ratings towards 0 by a fixed number of virtual games (the former one virtual draw per
table weighed 11-25% of small tournaments and shrank their ratings by up to a half). Intervals
come from the Fisher information at the estimate. ``benchmarks/rating_calibration.py`` measures
their coverage at 2, 3 and 5 seats with 0-60% shared places, with a first-seat bonus the model
does not know, and with normal performances (not this model); docs/lab.md has the table.

Ratings are anchored: the anchor player (``random`` by default) is 0 by definition, and every
other interval is that of the difference to the anchor; :meth:`Fit.gap` gives the interval of
the difference between any two players.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.sparse.csgraph import connected_components

from boardlab.analysis.finishes import Finish
from boardlab.analysis.match import Z95
from boardlab.core.errors import OptionError

ELO = 400 / math.log(10)
"""Elo points per unit of natural log-odds."""

Key = tuple[int, ...]
"""A set of players (indices, sorted)."""


@dataclass(frozen=True)
class Rating:
    """One player's rating with its 95% interval, and the number of games behind it."""

    player: str
    rating: float
    low: float
    high: float
    games: int

    def as_json(self) -> dict[str, object]:
        """A JSON-ready dict, rounded to a tenth of a point."""
        return {
            "player": self.player,
            "rating": round(self.rating, 1),
            "ci95": [round(self.low, 1), round(self.high, 1)],
            "games": self.games,
        }


def _players(finishes: Sequence[Finish], anchor: str) -> list[str]:
    """Every player once, in order of first appearance; the anchor must be one of them."""
    players = list(dict.fromkeys(p for finish in finishes for p in finish.players))
    if anchor not in players:
        raise OptionError(f"the anchor {anchor!r} played no game; players: {', '.join(players)}")
    return players


def _check_connected(
    players: Sequence[str], tables: Sequence[tuple[int, ...]], anchor: str
) -> None:
    """Ratings compare only players linked to the anchor by a chain of games."""
    met = np.zeros((len(players), len(players)))
    for table in tables:
        met[np.ix_(table, table)] = 1
    _, labels = connected_components(met > 0, directed=False)
    lost = [p for i, p in enumerate(players) if labels[i] != labels[players.index(anchor)]]
    if lost:
        raise OptionError(f"no chain of games links {', '.join(lost)} to {anchor!r}")


def choices(seats: Sequence[int], ranks: Sequence[int]) -> list[tuple[Key, Key]]:
    """The choices of one game (module doc): (players left, players chosen), each sorted.

    ``seats`` are player indices. The last place is no choice (its seats are what is left),
    unless every seat shares one place: then the game is the choice of all of them together.
    """
    levels = sorted(set(ranks))
    found = []
    for level in levels[:-1] if len(levels) > 1 else levels:
        left = tuple(sorted(s for s, r in zip(seats, ranks, strict=True) if r >= level))
        chosen = tuple(sorted(s for s, r in zip(seats, ranks, strict=True) if r == level))
        found.append((left, chosen))
    return found


@dataclass(frozen=True)
class Fit:
    """A fitted tournament: every player's rating (Elo points, the anchor 0), their covariance
    (Elo points squared; the anchor's row and column are 0), and each tie size's ``delta``."""

    players: list[str]
    ratings: NDArray[np.float64]
    covariance: NDArray[np.float64]
    ties: dict[int, float]

    def gap(self, a: str, b: str) -> tuple[float, float, float]:
        """``rating(a) - rating(b)`` with its 95% interval."""
        i, j = self.players.index(a), self.players.index(b)
        diff = float(self.ratings[i] - self.ratings[j])
        var = self.covariance[i, i] + self.covariance[j, j] - 2 * self.covariance[i, j]
        half = Z95 * math.sqrt(max(0.0, float(var)))
        return diff, diff - half, diff + half


def _choices(finishes: Sequence[Finish], index: dict[str, int]) -> Counter[tuple[Key, Key]]:
    """Every choice of every game, counted."""
    return Counter(
        choice
        for finish in finishes
        for choice in choices([index[p] for p in finish.players], finish.ranks)
    )


def fit(finishes: Sequence[Finish], anchor: str = "random") -> Fit:
    """Davidson-Luce ratings (module doc) by Firth's penalised maximum likelihood."""
    players = _players(finishes, anchor)
    index = {player: i for i, player in enumerate(players)}
    size = len(players)
    counted = _choices(finishes, index)
    _check_connected(players, sorted({left for left, _ in counted}), anchor)
    sizes = sorted({len(chosen) for left, chosen in counted if len(chosen) > 1})
    free = [i for i in range(size) if players[i] != anchor]
    # The model is a conditional logit: every set a choice could have taken is an alternative
    # with features (1/m for each of its m players, the indicator of its tie size).
    width = len(free) + len(sizes)
    column = {player: k for k, player in enumerate(free)}
    rows: list[Key] = sorted({left for left, _ in counted})
    alternatives: list[Key] = []
    owner: list[int] = []
    for row, left in enumerate(rows):
        for m in (1, *sizes):
            for chosen in itertools.combinations(left, m):
                alternatives.append(chosen)
                owner.append(row)
    features = np.zeros((len(alternatives), width))
    position = {}
    for a, chosen in enumerate(alternatives):
        position[(rows[owner[a]], chosen)] = a
        for player in chosen:
            if player in column:
                features[a, column[player]] = 1 / len(chosen)
        if len(chosen) > 1:
            features[a, len(free) + sizes.index(len(chosen))] = 1.0
    observed = np.zeros(len(alternatives))
    for (left, chosen), n in counted.items():
        observed[position[(left, chosen)]] += n
    owners = np.array(owner)
    starts = np.flatnonzero(np.r_[True, owners[1:] != owners[:-1]])
    per_row = np.add.reduceat(observed, starts)

    def penalised(
        beta: NDArray[np.float64],
    ) -> tuple[float, NDArray[np.float64], NDArray[np.float64]]:
        """Firth's penalised log-likelihood, its gradient, and the Fisher information."""
        logits = features @ beta
        top = np.maximum.reduceat(logits, starts)
        odds = np.exp(logits - top[owners])
        total = np.add.reduceat(odds, starts)
        chance = odds / total[owners]
        centred = features - np.add.reduceat(chance[:, None] * features, starts)[owners]
        weights = per_row[owners] * chance
        info: NDArray[np.float64] = (weights[:, None] * centred).T @ centred
        sign, logdet = np.linalg.slogdet(info)
        if sign <= 0 or not np.isfinite(logdet):
            # So far out that the information vanishes: no better than where the step began.
            return -math.inf, np.zeros(width), info
        inverse = np.linalg.inv(info)
        # The penalty is half the log-determinant of the information (Jeffreys' prior); its
        # gradient, half the third central moments contracted with the inverse information.
        spread = np.einsum("ij,jk,ik->i", centred, inverse, centred)
        score = observed @ centred + 0.5 * (weights * spread) @ centred
        value = observed @ logits - per_row @ (top + np.log(total))
        return float(value + 0.5 * logdet), score, info

    # Fisher scoring with step halving: a handful of steps from equal strengths.
    beta = np.zeros(width)
    value, score, info = penalised(beta)
    for _ in range(100):
        step = np.linalg.solve(info, score)
        while True:
            trial = penalised(beta + step)
            if trial[0] >= value - 1e-12 or np.abs(step).max() < 1e-10:
                break
            step = step / 2
        beta = beta + step
        value, score, info = trial
        if np.abs(step).max() < 1e-9:
            break
    ratings = np.zeros(size)
    ratings[free] = beta[: len(free)] * ELO
    covariance = np.zeros((size, size))
    inverse = np.linalg.inv(info)[: len(free), : len(free)] * ELO**2
    covariance[np.ix_(free, free)] = inverse
    ties = {m: float(np.exp(beta[len(free) + k])) for k, m in enumerate(sizes)}
    return Fit(players, ratings, covariance, ties)


def elo_ratings(finishes: Sequence[Finish], anchor: str = "random") -> list[Rating]:
    """Every player's rating with its 95% interval, in order of first appearance."""
    found = fit(finishes, anchor)
    counts = Counter(p for finish in finishes for p in finish.players)
    spread = np.sqrt(np.diag(found.covariance))
    return [
        Rating(
            player,
            float(found.ratings[i]),
            float(found.ratings[i] - Z95 * spread[i]),
            float(found.ratings[i] + Z95 * spread[i]),
            counts[player],
        )
        for i, player in enumerate(found.players)
    ]


def rate(finishes: Sequence[Finish], anchor: str = "random") -> list[Rating]:
    """Ratings of the players of ``finishes``, best first (module doc)."""
    if not finishes:
        raise OptionError("no finished games to rate")
    seats = {len(finish.players) for finish in finishes}
    if len(seats) != 1:
        raise OptionError(f"all games must have the same number of seats, got {sorted(seats)}")
    return sorted(elo_ratings(finishes, anchor), key=lambda r: -r.rating)
