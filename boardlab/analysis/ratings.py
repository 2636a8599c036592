"""Ratings from finished games: one strength per player on an Elo-like scale, with 95% intervals.

One model for every seat count: Plackett-Luce, fitted by maximum likelihood on the Elo scale.
Player ``i`` of rating ``r_i`` finishes first at a table ``S`` with probability
``10^(r_i/400) / sum_{j in S} 10^(r_j/400)``; the rest of the ranking follows stage by stage
from the players left. With two seats this is Bradley-Terry (400 points = 10:1 odds); at any
seat count 400 points are 10:1 odds of finishing ahead of one another.

Ties: seats of equal rank share their stage's choice, each counting ``1/m`` of it (``m`` tied
seats), and seats tied in last place carry nothing more (a Colosseum Offcuts game won outright
ranks the winner, not the eliminated). A game everyone drew counts ``1/K`` of a first place to
each of its ``K`` seats; with two seats that is a draw counting half a win, as in Elo.

A table one side won every time has no finite maximum, so each distinct table that was played
(a set of players that met) also gets ``prior_draws`` virtual drawn games (as BayesElo does for
pairs). Intervals come from the curvature of that penalised likelihood (its observed Fisher
information), the variance a bootstrap over games converges to. (OpenSkill's Weng-Lin update,
used here before for 3-5 seats, damps every variance update by ``sigma/c``: a device to keep an
online rating mobile that left its intervals 3-5 times too wide for a fixed set of games.)

Ratings are anchored: the anchor player (``random`` by default) is 0 by definition, and every
other interval is that of the difference to the anchor.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import minimize
from scipy.sparse.csgraph import connected_components

from boardlab.analysis.finishes import Finish
from boardlab.analysis.match import Z95
from boardlab.core.errors import OptionError

ELO = 400 / math.log(10)
"""Elo points per unit of natural log-odds."""

Stage = tuple[tuple[int, ...], tuple[float, ...]]
"""One choice of a game: the players still in it (indices) and the credit each one takes."""


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


def stages(seats: Sequence[int], ranks: Sequence[int]) -> list[Stage]:
    """The Plackett-Luce choices of one game (module doc): ``seats`` are player indices."""
    levels = sorted(set(ranks))
    if len(levels) == 1:
        share = 1 / len(seats)
        return [(tuple(seats), (share,) * len(seats))]
    found = []
    for level in levels[:-1]:
        left = [(p, rank) for p, rank in zip(seats, ranks, strict=True) if rank >= level]
        chosen = sum(rank == level for _, rank in left)
        credit = tuple(1 / chosen if rank == level else 0.0 for _, rank in left)
        found.append((tuple(p for p, _ in left), credit))
    return found


def elo_ratings(
    finishes: Sequence[Finish], anchor: str = "random", prior_draws: float = 1.0
) -> list[Rating]:
    """Plackett-Luce ratings (Bradley-Terry at two seats) by penalised maximum likelihood."""
    players = _players(finishes, anchor)
    index = {player: i for i, player in enumerate(players)}
    size = len(players)
    counted: defaultdict[Stage, float] = defaultdict(float)
    tables: set[tuple[int, ...]] = set()
    for finish in finishes:
        seats = [index[p] for p in finish.players]
        tables.add(tuple(sorted(seats)))
        for stage in stages(seats, finish.ranks):
            counted[stage] += 1
    _check_connected(players, sorted(tables), anchor)
    for table in tables:
        counted[(table, (1 / len(table),) * len(table))] += prior_draws
    # Equal stages are summed once, weighted by how often they occur: few rows for many games.
    member = np.zeros((len(counted), size))
    credit = np.zeros((len(counted), size))
    weight = np.array(list(counted.values()), dtype=float)
    for row, (left, shares) in enumerate(counted):
        member[row, list(left)] = 1.0
        credit[row, list(left)] = shares
    free = [i for i in range(size) if players[i] != anchor]

    def chances(free_ratings: NDArray[np.float64]) -> NDArray[np.float64]:
        """Each stage's chance of each player taking it, at these ratings (Elo points)."""
        logits = np.zeros(size)
        logits[free] = free_ratings / ELO
        odds = member * np.exp(logits - logits.max())
        found: NDArray[np.float64] = odds / odds.sum(axis=1, keepdims=True)
        return found

    def loss(free_ratings: NDArray[np.float64]) -> float:
        p = np.where(credit > 0, chances(free_ratings), 1.0)
        return float(-np.sum(weight[:, None] * credit * np.log(np.clip(p, 1e-300, 1.0))))

    def gradient(free_ratings: NDArray[np.float64]) -> NDArray[np.float64]:
        grad: NDArray[np.float64] = -weight @ (credit - chances(free_ratings)) / ELO
        return grad[free]

    def hessian(free_ratings: NDArray[np.float64]) -> NDArray[np.float64]:
        p = chances(free_ratings)
        # Each stage's credits sum to one, so its curvature is that of one multinomial draw.
        info = np.diag(weight @ p) - (weight[:, None] * p).T @ p
        found: NDArray[np.float64] = info[np.ix_(free, free)] / ELO**2
        return found

    fit = minimize(loss, np.zeros(len(free)), jac=gradient, hess=hessian, method="trust-exact")
    ratings = np.zeros(size)
    ratings[free] = fit.x
    spread = np.zeros(size)
    spread[free] = np.sqrt(np.diag(np.linalg.inv(hessian(fit.x))))
    counts = Counter(p for finish in finishes for p in finish.players)
    return [
        Rating(
            player,
            float(ratings[i]),
            float(ratings[i] - Z95 * spread[i]),
            float(ratings[i] + Z95 * spread[i]),
            counts[player],
        )
        for i, player in enumerate(players)
    ]


def rate(finishes: Sequence[Finish], anchor: str = "random") -> list[Rating]:
    """Ratings of the players of ``finishes``, best first (module doc)."""
    if not finishes:
        raise OptionError("no finished games to rate")
    seats = {len(finish.players) for finish in finishes}
    if len(seats) != 1:
        raise OptionError(f"all games must have the same number of seats, got {sorted(seats)}")
    return sorted(elo_ratings(finishes, anchor), key=lambda r: -r.rating)
