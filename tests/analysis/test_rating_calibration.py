"""The printed 95% rating intervals are calibrated at 2, 3 and 5 seats.

Tournaments are drawn from known strengths (the winner of each game drawn with odds
``10^(rating/400)``, losers tied, as in a Colosseum Offcuts game won outright), rated, and the
share of printed intervals (rounded to whole points, as the tournament table prints them) that
hold the true rating is checked against the band [90%, 99%].

The band's tolerance, honestly: each repetition gives one verdict per rated player; the verdicts
of one repetition share its games, so the number of independent verdicts lies between the
repetitions and the verdicts. Even counted as only ``REPETITIONS`` independent verdicts, a
method that covers exactly 95% lands in the band with probability >= 99%
(:func:`test_the_band_tolerates_chance_at_this_number_of_repetitions`), while intervals 1.5
times too wide cover about 99.7% and fail, and the former OpenSkill intervals, whose centres are
pulled off, covered 64% (3 seats) and 38% (5 seats) here. The longer run in docs/lab.md
(1,000 repetitions) gives 94.9%, 95.3% and 95.5%.
"""

from __future__ import annotations

import itertools
import random

import pytest
from scipy import stats

from boardlab.analysis.finishes import Finish
from boardlab.analysis.ratings import rate, stages

TRUE = {"random": 0.0, "a": 60.0, "b": 150.0, "c": 260.0, "d": 400.0}
"""Known strengths on the Elo scale; ``random`` is the anchor."""
REPETITIONS = 150
BAND = (0.90, 0.99)
GAMES_PER_TABLE = {2: 30, 3: 30, 5: 300}
"""300 games per repetition at every seat count (10 pairings, 10 tables of 3, 1 table of 5)."""


def tournament(rng: random.Random, seats: int) -> list[Finish]:
    """A round-robin of tables of ``seats`` players, seats rotated, winners drawn by strength."""
    games = []
    for table in itertools.combinations(TRUE, seats):
        for index in range(GAMES_PER_TABLE[seats]):
            turn = index % seats
            seating = table[turn:] + table[:turn]
            odds = [10 ** (TRUE[player] / 400) for player in seating]
            winner = rng.choices(range(seats), weights=odds)[0]
            games.append(Finish(seating, tuple(0 if s == winner else 2 for s in range(seats))))
    return games


def coverage(seats: int, seed: int) -> float:
    """The share of printed intervals holding the true rating over ``REPETITIONS`` tournaments."""
    rng = random.Random(seed)
    hits = verdicts = 0
    for _ in range(REPETITIONS):
        for rating in rate(tournament(rng, seats)):
            if rating.player != "random":
                hits += round(rating.low) <= TRUE[rating.player] <= round(rating.high)
                verdicts += 1
    return hits / verdicts


def test_the_band_tolerates_chance_at_this_number_of_repetitions() -> None:
    calibrated = stats.binom(REPETITIONS, 0.95)
    inside = calibrated.cdf(BAND[1] * REPETITIONS) - calibrated.cdf(BAND[0] * REPETITIONS - 1)
    assert inside >= 0.99
    too_wide = stats.binom(REPETITIONS, 0.997)
    assert too_wide.sf(BAND[1] * REPETITIONS) > 0.5


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_printed_95_percent_intervals_cover_the_true_rating_90_to_99_percent(seats: int) -> None:
    found = coverage(seats, seed=seats)
    assert BAND[0] <= found <= BAND[1], f"{seats} seats: coverage {found:.1%}"


def test_a_game_is_the_plackett_luce_choices_of_its_ranking() -> None:
    # Won outright: one choice of the winner among all; the tied losers add nothing.
    assert stages([4, 7, 9], [2, 0, 2]) == [((4, 7, 9), (0.0, 1.0, 0.0))]
    # Everyone drew: each takes 1/K of a first place (half a win at two seats).
    assert stages([4, 7, 9], [1, 1, 1]) == [((4, 7, 9), (1 / 3,) * 3)]
    # A winner, then two drawn seats ahead of a loser: the drawn share the second choice.
    assert stages([1, 2, 3, 4], [1, 0, 2, 1]) == [
        ((1, 2, 3, 4), (0.0, 1.0, 0.0, 0.0)),
        ((1, 3, 4), (0.5, 0.0, 0.5)),
    ]
