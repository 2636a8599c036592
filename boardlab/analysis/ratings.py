"""Ratings from finished games: one strength per player on an Elo-like scale, with 95% intervals.

Two seats: Bradley-Terry fitted by maximum likelihood on the Elo scale (400 points = 10:1 odds),
a draw counting half a win to each side. A pairing one side won every time has no finite
maximum, so each pairing that was played also gets ``prior_draws`` virtual drawn games (as in
BayesElo); intervals come from the curvature of that penalised likelihood.

Three to five seats: the Plackett-Luce model of OpenSkill (Weng-Lin), updated game by game with
no skill drift (``tau=0``) from each game's ranking (winner, then drawn seats, then losers) and
averaged over fixed shuffles of the games. Its ``mu`` is put on the same Elo-like scale: in
Plackett-Luce, player ``i`` finishes ahead of ``j`` with odds ``exp((mu_i - mu_j) / c)`` (``c``
taken at the final sigmas), so a difference of 400 points means 10:1 odds of finishing ahead,
as in the two-seat fit.

Both are anchored: the anchor player (``random`` by default) is 0 by definition, and every other
interval is that of the difference to the anchor.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from openskill.models import PlackettLuce
from scipy.optimize import minimize
from scipy.sparse.csgraph import connected_components

from boardlab.analysis.finishes import Finish, pair_score
from boardlab.analysis.match import Z95
from boardlab.core.errors import OptionError

ELO = 400 / math.log(10)
"""Elo points per unit of natural log-odds."""

ORDERS = 8
"""How many shuffles of the games OpenSkill's game-by-game ratings are averaged over."""


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


def _games_played(finishes: Sequence[Finish], players: Sequence[str]) -> dict[str, int]:
    """Games per player."""
    counts = dict.fromkeys(players, 0)
    for finish in finishes:
        for player in finish.players:
            counts[player] += 1
    return counts


def _check_connected(players: Sequence[str], met: NDArray[np.float64], anchor: str) -> None:
    """Ratings compare only players linked to the anchor by a chain of games."""
    _, labels = connected_components(met > 0, directed=False)
    lost = [p for i, p in enumerate(players) if labels[i] != labels[players.index(anchor)]]
    if lost:
        raise OptionError(f"no chain of games links {', '.join(lost)} to {anchor!r}")


def elo_ratings(
    finishes: Sequence[Finish], anchor: str = "random", prior_draws: float = 1.0
) -> list[Rating]:
    """Bradley-Terry ratings of two-seat games by penalised maximum likelihood (module doc)."""
    players = _players(finishes, anchor)
    index = {player: i for i, player in enumerate(players)}
    size = len(players)
    scored = np.zeros((size, size))
    met = np.zeros((size, size))
    for finish in finishes:
        if len(finish.players) != 2:
            raise OptionError("Bradley-Terry ratings need two-seat games; use openskill_ratings")
        a, b = (index[p] for p in finish.players)
        scored[a, b] += pair_score(finish.ranks, 0, 1)
        scored[b, a] += pair_score(finish.ranks, 1, 0)
        met[a, b] += 1
        met[b, a] += 1
    _check_connected(players, met, anchor)
    played = met > 0
    scored = scored + prior_draws / 2 * played
    met = met + prior_draws * played
    free = [i for i in range(size) if players[i] != anchor]

    def full(free_ratings: NDArray[np.float64]) -> NDArray[np.float64]:
        ratings = np.zeros(size)
        ratings[free] = free_ratings
        return ratings

    def expected(ratings: NDArray[np.float64]) -> NDArray[np.float64]:
        return 1.0 / (1.0 + np.exp(-(ratings[:, None] - ratings[None, :]) / ELO))

    def loss(free_ratings: NDArray[np.float64]) -> float:
        p = np.clip(expected(full(free_ratings)), 1e-300, 1.0)
        return float(-np.sum(scored * np.log(p)))

    def gradient(free_ratings: NDArray[np.float64]) -> NDArray[np.float64]:
        p = expected(full(free_ratings))
        grad: NDArray[np.float64] = -np.sum(scored - met * p, axis=1) / ELO
        return grad[free]

    def hessian(free_ratings: NDArray[np.float64]) -> NDArray[np.float64]:
        p = expected(full(free_ratings))
        weights = met * p * (1 - p) / ELO**2
        laplacian: NDArray[np.float64] = np.diag(weights.sum(axis=1)) - weights
        return laplacian[np.ix_(free, free)]

    fit = minimize(loss, np.zeros(len(free)), jac=gradient, hess=hessian, method="trust-exact")
    ratings = full(fit.x)
    spread = np.zeros(size)
    spread[free] = np.sqrt(np.diag(np.linalg.inv(hessian(fit.x))))
    counts = _games_played(finishes, players)
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


def openskill_ratings(
    finishes: Sequence[Finish], anchor: str = "random", orders: int = ORDERS
) -> list[Rating]:
    """Plackett-Luce ratings (OpenSkill) of games with 2-5 seats (module doc).

    OpenSkill updates game by game, so its answer depends on the order of the games; ``mu`` and
    ``sigma`` are averaged over ``orders`` fixed shuffles of ``finishes`` so that the order in
    which games happened to finish does not matter beyond that of ``finishes`` itself.
    """
    players = _players(finishes, anchor)
    seats = {len(finish.players) for finish in finishes}
    if len(seats) != 1:
        raise OptionError(f"all games must have the same number of seats, got {sorted(seats)}")
    index = {player: i for i, player in enumerate(players)}
    met = np.zeros((len(players), len(players)))
    for finish in finishes:
        for a in finish.players:
            for b in finish.players:
                met[index[a], index[b]] += a != b
    _check_connected(players, met, anchor)
    model = PlackettLuce(tau=0.0)
    mu = np.zeros(len(players))
    sigma = np.zeros(len(players))
    shuffler = random.Random(0)
    for _ in range(orders):
        order = list(finishes)
        shuffler.shuffle(order)
        current = {p: model.rating(name=p) for p in players}
        for finish in order:
            teams = [[current[player]] for player in finish.players]
            updated = model.rate(teams, ranks=[float(rank) for rank in finish.ranks])
            for player, (rating,) in zip(finish.players, updated, strict=True):
                current[player] = rating
        mu += [current[p].mu / orders for p in players]
        sigma += [current[p].sigma / orders for p in players]
    # Plackett-Luce's c at the final sigmas, as the model uses it in a game of these seats.
    scale = ELO / math.sqrt(seats.pop() * (model.beta**2 + float(np.mean(sigma**2))))
    base = index[anchor]
    counts = _games_played(finishes, players)
    ratings = []
    for i, player in enumerate(players):
        centre = float(mu[i] - mu[base]) * scale
        half = 0.0 if i == base else Z95 * math.hypot(sigma[i], sigma[base]) * scale
        ratings.append(Rating(player, centre, centre - half, centre + half, counts[player]))
    return ratings


def rate(finishes: Sequence[Finish], anchor: str = "random") -> list[Rating]:
    """Ratings of the players of ``finishes``, best first: Bradley-Terry for two seats, else
    OpenSkill."""
    if not finishes:
        raise OptionError("no finished games to rate")
    two_seats = all(len(finish.players) == 2 for finish in finishes)
    ratings = elo_ratings(finishes, anchor) if two_seats else openskill_ratings(finishes, anchor)
    return sorted(ratings, key=lambda r: -r.rating)
