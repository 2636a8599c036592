"""The lab's statistics on inputs where the right method and its usual substitutes disagree,
checked against values computed here by hand from the textbook formulas."""

from __future__ import annotations

import math
from statistics import fmean, variance

import pytest
from scipy.stats import t as student_t

from boardlab.analysis import stats
from boardlab.analysis.finishes import Finish
from boardlab.analysis.ratings import elo_ratings

Z95 = 1.959963984540054  # the 97.5% point of the standard normal
ELO = 400 / math.log(10)  # Elo points per unit of log-odds: 400 points are 10:1 odds


def binomial_two_sided(k: int, n: int) -> float:
    """Exact two-sided p of ``k`` of ``n`` under a fair coin: the total probability of every
    count no more likely than ``k`` (by symmetry, twice the tail beyond ``k``)."""
    tail: float = sum(math.comb(n, i) for i in range(max(k, n - k), n + 1)) / 2**n
    return min(1.0, 2 * tail)


def test_two_seats_get_the_exact_binomial_test_where_chi_square_says_otherwise() -> None:
    # At 60:40, the exact test says p = 0.057 and chi-square (statistic 4, one degree of
    # freedom) says 0.046: only the exact one keeps "balanced" at the 5% level.
    exact = binomial_two_sided(60, 100)
    chi_square = math.erfc(math.sqrt(4 / 2))
    assert exact == pytest.approx(0.056887, abs=1e-6)
    assert chi_square == pytest.approx(0.0455, abs=1e-4)
    assert stats.seat_balance([60, 40]) == pytest.approx(exact, rel=1e-9)
    assert stats.seat_balance([40, 60]) == pytest.approx(exact, rel=1e-9)
    assert stats.seat_balance([7, 2]) == pytest.approx(binomial_two_sided(7, 9), rel=1e-9)


def test_three_seats_get_the_chi_square_test() -> None:
    # 50, 30, 10 against 30 each: statistic (400 + 0 + 400) / 30; with two degrees of freedom
    # the upper tail is exp(-x / 2).
    assert stats.seat_balance([50, 30, 10]) == pytest.approx(math.exp(-80 / 6), rel=1e-9)
    # Four seats, three degrees of freedom: tail = erfc(sqrt(x/2)) + sqrt(2x/pi) exp(-x/2).
    x = (100 + 0 + 0 + 100) / 30
    tail = math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    assert stats.seat_balance([40, 30, 30, 20]) == pytest.approx(tail, rel=1e-9)


def test_beats_is_the_one_sided_binomial_tail() -> None:
    tail = sum(math.comb(20, i) for i in range(14, 21)) / 2**20
    assert stats.beats(14, 20) == pytest.approx(tail, rel=1e-9)
    assert stats.beats(6, 20) == pytest.approx(1 - sum(math.comb(20, i) for i in range(6)) / 2**20)


def test_beats_at_three_seats_tests_against_a_third_not_a_half() -> None:
    # 40 wins of 84 decided three-seat games: far above an equal player's third, below a half.
    third = sum(math.comb(84, i) * 2 ** (84 - i) for i in range(40, 85)) / 3**84
    assert stats.beats(40, 84, fair=1 / 3) == pytest.approx(third, rel=1e-9)
    assert stats.beats(40, 84, fair=1 / 3) < 0.01 < 0.5 < stats.beats(40, 84)


def test_compare_means_is_welch_with_unequal_sizes_and_variances() -> None:
    a = [10.0, 11.0, 9.0, 10.5, 9.5]  # few games, little spread
    b = [14.0, 3.0, 22.0, 8.0, 17.0, 1.0, 25.0, 12.0, 19.0, 6.0, 15.0, 10.0]  # many, spread
    va, vb = variance(a) / len(a), variance(b) / len(b)
    error = math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))  # Welch-Satterthwaite
    diff = fmean(b) - fmean(a)
    p = 2 * float(student_t.sf(abs(diff) / error, df))
    half = float(student_t.ppf(0.975, df)) * error
    found = stats.compare_means(a, b)
    assert found.diff == pytest.approx(diff)
    assert found.p == pytest.approx(p, rel=1e-9)
    assert (found.low, found.high) == pytest.approx((diff - half, diff + half), rel=1e-9)
    # Student's pooled test would say something else here: the input tells them apart.
    pooled = ((len(a) - 1) * variance(a) + (len(b) - 1) * variance(b)) / (len(a) + len(b) - 2)
    student_error = math.sqrt(pooled * (1 / len(a) + 1 / len(b)))
    student_p = 2 * float(student_t.sf(abs(diff) / student_error, len(a) + len(b) - 2))
    assert abs(student_p - p) > 0.05
    assert stats.compare_means(b, a).diff == pytest.approx(-diff)


def wilson(k: int, n: int) -> tuple[float, float]:
    """Wilson's score interval, from its formula."""
    share = k / n
    centre = (share + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 / (1 + Z95**2 / n) * math.sqrt(share * (1 - share) / n + Z95**2 / (4 * n * n))
    return centre - half, centre + half


def test_compare_proportions_is_newcombe_and_fisher_with_unequal_sizes() -> None:
    k_a, n_a, k_b, n_b = 3, 12, 30, 50
    (a_low, a_high), (b_low, b_high) = wilson(k_a, n_a), wilson(k_b, n_b)
    a, b = k_a / n_a, k_b / n_b
    low = b - a - math.sqrt((b - b_low) ** 2 + (a_high - a) ** 2)
    high = b - a + math.sqrt((b_high - b) ** 2 + (a - a_low) ** 2)
    # Fisher: every table with the same margins no more likely than the one seen.
    total, first = k_a + k_b, n_a

    def chance(x: int) -> float:
        return math.comb(n_a, x) * math.comb(n_b, total - x) / math.comb(n_a + n_b, total)

    seen = chance(k_a)
    p = sum(
        chance(x)
        for x in range(max(0, total - n_b), min(first, total) + 1)
        if chance(x) <= seen * (1 + 1e-7)
    )
    found = stats.compare_proportions(k_a, n_a, k_b, n_b)
    assert found.diff == pytest.approx(b - a)
    assert (found.low, found.high) == pytest.approx((low, high), rel=1e-9)
    assert found.p == pytest.approx(p, rel=1e-9)


def test_benjamini_hochberg_differs_from_bonferroni_and_raw() -> None:
    raw = [0.002, 0.009, 0.012, 0.04, 0.3]
    # p * 5 / rank: 0.01, 0.0225, 0.02, 0.05, 0.3; then the running minimum from the top.
    assert stats.adjust(raw) == pytest.approx([0.01, 0.02, 0.02, 0.05, 0.3])


def test_a_bradley_terry_rating_and_interval_by_hand() -> None:
    """One pairing, 30 wins and 10 losses: Firth's penalty adds half a game to each side, so
    the rating is the Elo of the score 30.5 / 41, and its interval 1.96 standard errors of the
    log-odds from the 40 games' information at that score, 1 / sqrt(40 p (1 - p)), on the Elo
    scale."""
    games = [Finish(("a", "random"), (0, 1))] * 30 + [Finish(("random", "a"), (0, 1))] * 10
    (rating,) = (r for r in elo_ratings(games) if r.player == "a")
    share = 30.5 / 41
    centre = ELO * math.log(share / (1 - share))
    half = Z95 * ELO / math.sqrt(40 * share * (1 - share))
    # The fit stops within a few hundredths of a point of the maximum.
    assert rating.rating == pytest.approx(centre, abs=0.1)
    assert (rating.low, rating.high) == pytest.approx((centre - half, centre + half), abs=0.1)


def is_nan_difference(found: stats.Difference) -> bool:
    return all(math.isnan(v) for v in (found.diff, found.low, found.high)) and found.p == 1.0


def test_too_few_games_give_no_difference_and_no_evidence() -> None:
    # A mean difference needs two games a side; a rate difference one.
    assert is_nan_difference(stats.compare_means([1.0], [1.0, 2.0, 3.0]))
    assert is_nan_difference(stats.compare_means([1.0, 2.0, 3.0], [1.0]))
    two_each = stats.compare_means([1.0, 2.0], [3.0, 5.0])
    assert two_each.diff == 2.5 and two_each.low < 2.5 < two_each.high and 0 < two_each.p < 1
    assert is_nan_difference(stats.compare_proportions(0, 0, 3, 5))
    assert is_nan_difference(stats.compare_proportions(3, 5, 0, 0))
    one_each = stats.compare_proportions(1, 1, 0, 1)
    assert one_each.diff == -1.0 and one_each.p == 1.0 and one_each.high > -1.0


# SciPy warns of precision loss for the constant side, whose variance is exactly 0.
@pytest.mark.filterwarnings("ignore:Precision loss occurred:RuntimeWarning")
def test_constant_samples_are_compared_exactly() -> None:
    # Both constant: the difference is known exactly, and it is either nothing or certain.
    exact = stats.compare_means([2.0, 2.0, 2.0], [5.0, 5.0])
    assert (exact.diff, exact.low, exact.high, exact.p) == (3.0, 3.0, 3.0, 0.0)
    # One constant side still has the other's spread: Welch with a zero variance.
    b = [1.0, 2.0, 3.0, 6.0]
    found = stats.compare_means([2.0, 2.0, 2.0], b)
    error = math.sqrt(variance(b) / len(b))
    p = 2 * float(student_t.sf(abs(fmean(b) - 2.0) / error, len(b) - 1))
    assert found.p == pytest.approx(p, rel=1e-9) and found.low < found.diff < found.high


def test_estimates_carry_their_game_counts() -> None:
    assert stats.mean([1.0, 2.0, 3.0]).n == 3
    assert stats.mean([7.0, 7.0]).n == 2
    empty = stats.mean([])
    assert empty.n == 0 and all(math.isnan(v) for v in (empty.value, empty.low, empty.high))
    assert stats.proportion(3, 8).n == 8
    none = stats.proportion(0, 0)
    assert math.isnan(none.value) and (none.low, none.high, none.n) == (0.0, 1.0, 0)


def test_an_untested_p_value_counts_as_one_in_the_adjustment() -> None:
    # NaN (a difference that could not be tested) is 1: 0.01 * 2 / 1, then 1 * 2 / 2.
    assert stats.adjust([0.01, math.nan]) == pytest.approx([0.02, 1.0])


def test_reports_round_to_six_decimals_and_keep_counts_whole() -> None:
    estimate = stats.Estimate(0.12345678, 0.1, 0.2, 5)
    assert estimate.to_json() == {"value": 0.123457, "low": 0.1, "high": 0.2, "n": 5}
    assert isinstance(estimate.to_json()["n"], int)
    difference = stats.Difference(0.12345678, -0.1234564, 0.3, 0.00000049)
    assert difference.to_json() == {"diff": 0.123457, "low": -0.123456, "high": 0.3, "p": 0.0}
