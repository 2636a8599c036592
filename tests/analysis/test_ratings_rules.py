"""Ratings on small cases worked out by hand: one game, a chain of pairings, the anchor, the
report's rounding, and the refusals."""

from __future__ import annotations

import math

import pytest

from boardlab.analysis.finishes import Finish
from boardlab.analysis.ratings import Rating, elo_ratings, fit, rate
from boardlab.analysis.tournament_report import standings
from boardlab.core.errors import OptionError
from boardlab.core.outcome import Result

ELO = 400 / math.log(10)


def logit(share: float) -> float:
    return math.log(share / (1 - share))


def by_player(ratings: list[Rating]) -> dict[str, Rating]:
    return {r.player: r for r in ratings}


FIT = 0.005
"""The fit's tolerance: a half per cent."""


def test_a_single_win_is_firths_half_game_on_each_side() -> None:
    """Firth's penalty on one pairing is exactly half a game added to each side: one win is
    1.5 of 2, 191 points, not infinity."""
    (won,) = (r for r in elo_ratings([Finish(("a", "random"), (0, 1))]) if r.player == "a")
    assert won.rating == pytest.approx(ELO * logit(0.75), rel=FIT)


def test_a_chain_of_pairings_takes_half_a_game_on_each_side_of_each_link() -> None:
    """A chain random < a < b, each link 10-0: the links are two separate pairings, so each is
    10.5 of 11 (Firth's half game per side), a that far above random and b twice as far. The
    former prior's virtual draws per table were the same here, but added up over tables."""
    games = [Finish(("a", "random"), (0, 1))] * 10 + [Finish(("b", "a"), (0, 1))] * 10
    ratings = by_player(elo_ratings(games))
    step = ELO * logit(10.5 / 11)
    assert ratings["a"].rating == pytest.approx(step, rel=FIT)
    assert ratings["b"].rating == pytest.approx(2 * step, rel=FIT)
    assert (ratings["a"].games, ratings["b"].games, ratings["random"].games) == (20, 10, 10)


def test_draws_follow_davidsons_model() -> None:
    """300 wins, 100 losses and 200 draws against random: Davidson's maximum likelihood is
    odds of 3 to 1 among the games not drawn (400 log10 3 = 191 points) and a draw weight
    200 / sqrt(300 * 100); Firth's penalty moves both by well under a per cent here."""
    games = [Finish(("a", "random"), (0, 1))] * 300 + [Finish(("random", "a"), (0, 1))] * 100
    games += [Finish(("a", "random"), (0, 0))] * 200
    found = fit(games)
    assert found.ratings[0] == pytest.approx(400 * math.log10(3), rel=FIT)
    assert found.ties[2] == pytest.approx(200 / math.sqrt(300 * 100), rel=FIT)


def test_seats_tied_first_share_the_first_place() -> None:
    """a and b tie first ahead of random in ten three-seat games, and each also wins alone
    five times: a and b are equal by symmetry and well above random, and the shared first
    places are a tie of two, fitted apart from the single wins."""
    games = [Finish(("a", "b", "random"), (0, 0, 1))] * 10
    games += [Finish(("a", "b", "random"), (0, 1, 1)), Finish(("a", "b", "random"), (1, 0, 1))] * 5
    found = fit(games)
    ratings = by_player(elo_ratings(games))
    assert ratings["a"].rating == pytest.approx(ratings["b"].rating, abs=1)
    assert ratings["a"].low > 0
    assert set(found.ties) == {2}


def test_the_anchor_is_exactly_zero_with_no_interval() -> None:
    games = [Finish(("a", "b", "random"), (0, 1, 2)), Finish(("random", "a", "b"), (0, 2, 1))]
    for ratings in (rate(games), elo_ratings([Finish(("a", "random"), (0, 1))])):
        anchor = by_player(ratings)["random"]
        assert (anchor.rating, anchor.low, anchor.high) == (0.0, 0.0, 0.0)


def test_any_player_can_be_the_anchor() -> None:
    two = [Finish(("a", "b"), (0, 1))] * 3 + [Finish(("b", "a"), (0, 1))]
    ratings = by_player(rate(two, anchor="b"))
    assert ratings["b"].rating == 0.0 and ratings["a"].rating > 0
    three = [Finish(("a", "b", "c"), (0, 1, 2))] * 3
    ratings = by_player(rate(three, anchor="c"))
    assert ratings["c"].rating == 0.0 and ratings["a"].rating > ratings["b"].rating > 0


def test_multi_seat_ratings_count_games_and_give_the_same_answer_every_time() -> None:
    games = [
        Finish(("a", "b", "random"), (0, 1, 2)),
        Finish(("b", "random", "a"), (0, 1, 2)),
        Finish(("random", "a", "b"), (1, 0, 2)),
        Finish(("a", "random", "b"), (0, 0, 1)),
    ]
    first = rate(games)
    assert rate(games) == first
    assert [r.games for r in first] == [4, 4, 4]


def test_a_rating_reports_to_a_tenth_of_a_point() -> None:
    rating = Rating("level:easy", 123.456, 80.46, 166.94, 12)
    assert rating.as_json() == {
        "player": "level:easy",
        "rating": 123.5,
        "ci95": [80.5, 166.9],
        "games": 12,
    }


def test_a_finish_from_results_keeps_the_players() -> None:
    finish = Finish.from_results(["x", "y"], [Result.DRAW, Result.DRAW])
    assert finish == Finish(("x", "y"), (1, 1))


def test_refusals_say_what_is_wrong() -> None:
    mixed = [Finish(("a", "random"), (0, 1)), Finish(("a", "b", "random"), (0, 1, 2))]
    with pytest.raises(
        OptionError, match=r"^all games must have the same number of seats, got \[2, 3\]$"
    ):
        rate(mixed)
    with pytest.raises(OptionError, match=r"^the anchor 'random' played no game; players: a, b$"):
        rate([Finish(("a", "b"), (0, 1))])
    with pytest.raises(OptionError, match=r"^no finished games to rate$"):
        rate([])


def test_the_crosstable_scores_each_meeting_one_ahead_half_tied_nothing_behind() -> None:
    # a beats b twice and draws once; in a three-seat game c wins, a and b lose together.
    finishes = [Finish(("a", "b"), (0, 1))] * 2 + [Finish(("b", "a"), (0, 0))]
    score = standings(finishes, "b").score
    assert score["a"]["b"] == pytest.approx(2.5 / 3) and score["b"]["a"] == pytest.approx(0.5 / 3)
    three = [Finish(("a", "b", "c"), (1, 1, 0))]
    score = standings(three, "a").score
    assert (score["c"]["a"], score["a"]["c"], score["a"]["b"]) == (1.0, 0.0, 0.5)
