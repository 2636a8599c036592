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
    """Round-robin games whose expected score is Elo's; ``draw_share`` of the close ones draw.

    A draw replaces half a win and half a loss, so the expected score stays Elo's.
    """
    games = []
    for a, b in itertools.combinations(TRUE, 2):
        score = expected(TRUE[a], TRUE[b])
        draw = draw_share * 2 * min(score, 1 - score)
        for _ in range(per_pair):
            u = rng.random()
            ranks = (0, 1) if u < score - draw / 2 else (0, 0) if u < score + draw / 2 else (1, 0)
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
    """900 intervals (2.5 s). Correct intervals cover 96.5% here (the prior's virtual draws make
    them a little wide), one standard error 0.6%: the band 94-99% holds them by 4 standard
    errors, while intervals 16% too narrow (92% coverage) or 40% too wide (99.6%) fall out."""
    rng = random.Random(11)
    hits = trials = 0
    for _ in range(300):
        for r in elo_ratings(two_seat_games(rng, 40, 0.3)):
            if r.player != "random":
                hits += r.low <= TRUE[r.player] <= r.high
                trials += 1
    assert 0.94 <= hits / trials <= 0.99


def test_a_pairing_won_every_time_has_a_finite_rating_and_wide_interval() -> None:
    games = [Finish(("strong", "random"), (0, 1))] * 10
    (strong,) = (r for r in elo_ratings(games) if r.player == "strong")
    assert 300 < strong.rating < 800
    assert strong.low > 0 and strong.high - strong.low > 400


def test_a_draw_counts_half_a_win() -> None:
    # 20 draws and 20 wins score 75%, which Elo puts 191 points above.
    games = [Finish(("a", "random"), (0, 0))] * 20 + [Finish(("random", "a"), (1, 0))] * 20
    ratings = {r.player: r for r in elo_ratings(games)}
    assert ratings["a"].rating == pytest.approx(191.0, abs=10)
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
