"""Ratings on small cases worked out by hand: one game, a chain of pairings, the anchor, the
report's rounding, and the refusals."""

from __future__ import annotations

import math

import pytest

from boardlab.analysis.finishes import Finish
from boardlab.analysis.ratings import Rating, elo_ratings, rate
from boardlab.analysis.tournament_report import standings
from boardlab.core.errors import OptionError
from boardlab.core.outcome import Result

ELO = 400 / math.log(10)


def logit(share: float) -> float:
    return math.log(share / (1 - share))


def by_player(ratings: list[Rating]) -> dict[str, Rating]:
    return {r.player: r for r in ratings}


# The fit stops a little short of the maximum where the likelihood is flat (few games): 4.5
# points at one game, 4 at twenty; the tolerances below allow 2.5%.
FIT = 0.025


def test_a_single_win_counts_with_one_virtual_draw() -> None:
    """One win plus the prior's virtual draw is 1.5 of 2: 191 points, not infinity."""
    (won,) = (r for r in elo_ratings([Finish(("a", "random"), (0, 1))]) if r.player == "a")
    assert won.rating == pytest.approx(ELO * logit(0.75), rel=FIT)


def test_only_pairings_that_were_played_get_virtual_draws() -> None:
    """A chain random < a < b, each link 10-0: both links score 10.5 of 11, so a is the Elo of
    that score above random and b twice as far. Virtual draws between random and b, who never
    met, would pull b back."""
    games = [Finish(("a", "random"), (0, 1))] * 10 + [Finish(("b", "a"), (0, 1))] * 10
    ratings = by_player(elo_ratings(games))
    step = ELO * logit(10.5 / 11)
    assert ratings["a"].rating == pytest.approx(step, rel=FIT)
    assert ratings["b"].rating == pytest.approx(2 * step, rel=FIT)
    assert (ratings["a"].games, ratings["b"].games, ratings["random"].games) == (20, 10, 10)


def test_seats_tied_first_share_the_first_place() -> None:
    """Ten three-seat games in which a and b tie first and random comes last: each tied seat
    takes half of each first place. With the prior's virtual draw (a third each) a and b take
    10/2 + 1/3 of the 11 first places and random 1/3, and a and b are equal by symmetry; the
    maximum of a Plackett-Luce first choice then gives each of a and b the chance
    (10 + 2/3) / 22 and random 1/3 / 11: odds of 16 to 1, 400 log10(16) points above random.
    Whole first places to each tied seat would make the odds 61 to 1 (714 points)."""
    games = [Finish(("a", "b", "random"), (0, 0, 1))] * 10
    ratings = by_player(elo_ratings(games))
    assert ratings["a"].rating == pytest.approx(400 * math.log10(16), rel=FIT)
    assert ratings["b"].rating == pytest.approx(ratings["a"].rating, abs=1)


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
