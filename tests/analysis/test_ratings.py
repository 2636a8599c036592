"""Ratings recover the strengths of simulated players within their 95% intervals."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from boardlab.analysis.finishes import Finish, pair_score
from boardlab.analysis.ratings import elo_ratings, rate
from boardlab.core.errors import OptionError
from boardlab.core.outcome import Result

TRUE = {"random": 0.0, "weak": 120.0, "fair": 260.0, "good": 420.0}
"""Simulated strengths on the Elo scale."""


def expected(a: float, b: float) -> float:
    """Elo's expected score of a player rated ``a`` against one rated ``b``."""
    return 1 / (1 + 10 ** ((b - a) / 400))


def two_seat_games(rng: random.Random, per_pair: int, draw_share: float) -> list[Finish]:
    """Round-robin games by Davidson's model of draws: a player rated ``a`` wins against one
    rated ``b`` with odds 10^((a - b)/400) among the games not drawn, and equal players draw
    ``draw_share`` of their games (fewer the further apart they are)."""
    tie = 2 * draw_share / (1 - draw_share)
    games = []
    for a, b in itertools.combinations(TRUE, 2):
        alpha, beta = 10 ** (TRUE[a] / 400), 10 ** (TRUE[b] / 400)
        draw = tie * math.sqrt(alpha * beta)
        for _ in range(per_pair):
            u = rng.random() * (alpha + beta + draw)
            ranks = (0, 1) if u < alpha else (1, 0) if u < alpha + beta else (0, 0)
            games.append(Finish((a, b), ranks))
    return games


def plackett_luce_games(
    rng: random.Random, games: int, seats: int, winner_only: bool = False
) -> list[Finish]:
    """Games at ``seats`` seats ranked by Plackett-Luce with odds 10^(difference/400).

    With ``winner_only`` the losers tie, as in a Colosseum Offcuts game won outright.
    """
    names = list(TRUE)
    finishes = []
    for _ in range(games):
        players = rng.sample(names, seats)
        left, order = list(players), []
        while left:
            weights = [10 ** (TRUE[p] / 400) for p in left]
            chosen = rng.choices(left, weights=weights)[0]
            order.append(chosen)
            left.remove(chosen)
        if winner_only:
            ranks = tuple(0 if p == order[0] else 1 for p in players)
        else:
            ranks = tuple(order.index(p) for p in players)
        finishes.append(Finish(tuple(players), ranks))
    return finishes


def test_a_finish_ranks_winners_then_draws_then_losers() -> None:
    finish = Finish.from_results(["a", "b", "c"], [Result.LOSS, Result.WIN, Result.LOSS])
    assert finish.ranks == (2, 0, 2)
    assert [pair_score(finish.ranks, 1, x) for x in (0, 2)] == [1.0, 1.0]
    assert pair_score(finish.ranks, 0, 2) == 0.5


@pytest.mark.parametrize("draw_share", [0.0, 0.4])
def test_bradley_terry_recovers_strengths_within_the_intervals(draw_share: float) -> None:
    ratings = elo_ratings(two_seat_games(random.Random(3), 150, draw_share))
    for r in ratings:
        assert r.low <= TRUE[r.player] <= r.high, r
        assert r.high - r.low < 200
        assert r.games == 450
    anchor = next(r for r in ratings if r.player == "random")
    assert (anchor.rating, anchor.low, anchor.high) == (0.0, 0.0, 0.0)


def test_bradley_terry_intervals_cover_the_truth_about_95_percent_of_the_time() -> None:
    """900 intervals with 30% draws. One standard error of a 95% coverage is 0.7% here: the
    band 93-98.5% holds a calibrated method by 3 standard errors, while intervals 16% too
    narrow (92% coverage) fall out below and 40% too wide (99.6%) above."""
    rng = random.Random(11)
    hits = trials = 0
    for _ in range(300):
        for r in elo_ratings(two_seat_games(rng, 40, 0.3)):
            if r.player != "random":
                hits += r.low <= TRUE[r.player] <= r.high
                trials += 1
    assert 0.93 <= hits / trials <= 0.985


def test_a_pairing_won_every_time_has_a_finite_rating_and_wide_interval() -> None:
    games = [Finish(("strong", "random"), (0, 1))] * 10
    (strong,) = (r for r in elo_ratings(games) if r.player == "strong")
    assert 300 < strong.rating < 800
    assert strong.low > 0 and strong.high - strong.low > 400


def test_a_draw_is_a_shared_place_that_favours_neither_side() -> None:
    # 20 wins, 20 losses and 20 draws: equal; 20 draws alone: equal, and not known to be.
    games = [Finish(("a", "random"), (0, 1))] * 20 + [Finish(("random", "a"), (0, 1))] * 20
    games += [Finish(("a", "random"), (0, 0))] * 20
    ratings = {r.player: r for r in elo_ratings(games)}
    assert ratings["a"].rating == pytest.approx(0.0, abs=1e-6)
    ratings = {r.player: r for r in elo_ratings([Finish(("a", "random"), (0, 0))] * 20)}
    assert ratings["a"].rating == pytest.approx(0.0, abs=1e-6)
    assert ratings["a"].low < 0 < ratings["a"].high


@pytest.mark.parametrize("seats", [3, 4])
def test_plackett_luce_recovers_strengths_from_full_rankings(seats: int) -> None:
    ratings = elo_ratings(plackett_luce_games(random.Random(seats), 500, seats))
    for r in ratings:
        assert r.low <= TRUE[r.player] <= r.high, r
        assert r.high - r.low < 260
    assert [r.player for r in sorted(ratings, key=lambda r: -r.rating)] == sorted(
        TRUE, key=lambda p: -TRUE[p]
    )


def test_plackett_luce_orders_players_from_winner_only_rankings() -> None:
    games = plackett_luce_games(random.Random(5), 400, 3, winner_only=True)
    ratings = rate(games)
    assert [r.player for r in ratings] == ["good", "fair", "weak", "random"]
    assert math.isfinite(ratings[0].high)


def test_rate_uses_bradley_terry_for_two_seats_and_sorts_best_first() -> None:
    games = two_seat_games(random.Random(1), 60, 0.0)
    assert rate(games) == sorted(elo_ratings(games), key=lambda r: -r.rating)


def test_the_anchor_must_play_and_every_player_must_be_linked_to_it() -> None:
    games = [Finish(("a", "b"), (0, 1))]
    with pytest.raises(OptionError, match="anchor 'random' played no game"):
        rate(games)
    games.append(Finish(("random", "c"), (0, 1)))
    with pytest.raises(OptionError, match="no chain of games links a, b"):
        rate(games)
    with pytest.raises(OptionError, match="no finished games"):
        rate([])
