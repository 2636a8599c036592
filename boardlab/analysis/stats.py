"""Honest statistics for the lab: 95% intervals of rates and means, and tests of differences.

Rates get Wilson score intervals, means Student t intervals. A difference of two rates gets
Newcombe's hybrid score interval and Fisher's exact test; a difference of two means Welch's t
test and interval. The many differences of one comparison are corrected together with the
Benjamini-Hochberg procedure (:func:`adjust`), so "real" means "survives a 5% false discovery
rate", not "one of many tests that came out below 0.05 by luck".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from statistics import fmean, quantiles

import numpy as np
from scipy import stats

LEVEL = 0.95
ALPHA = 0.05


@dataclass(frozen=True)
class Estimate:
    """A rate or mean with its 95% interval over ``n`` games."""

    value: float
    low: float
    high: float
    n: int

    def to_json(self) -> dict[str, float | int]:
        """Plain data, rounded for reading."""
        return {key: round(v, 6) if isinstance(v, float) else v for key, v in asdict(self).items()}

    @property
    def half_width(self) -> float:
        """Half the interval's width: the ``±`` of a report."""
        return (self.high - self.low) / 2


@dataclass(frozen=True)
class Difference:
    """``b - a`` with its 95% interval and the two-sided p-value of "no difference"."""

    diff: float
    low: float
    high: float
    p: float

    def to_json(self) -> dict[str, float]:
        """Plain data, rounded for reading."""
        return {key: round(v, 6) for key, v in asdict(self).items()}


def proportion(k: int, n: int) -> Estimate:
    """``k`` of ``n`` with its Wilson score interval (0 to 1 when ``n`` is 0)."""
    if n == 0:
        return Estimate(math.nan, 0.0, 1.0, 0)
    interval = stats.binomtest(k, n).proportion_ci(confidence_level=LEVEL, method="wilson")
    return Estimate(k / n, float(interval.low), float(interval.high), n)


def mean(values: Sequence[float]) -> Estimate:
    """The mean with its t interval (a point for equal values; NaN for none)."""
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    centre = fmean(values)
    if min(values) == max(values):
        return Estimate(centre, centre, centre, n)
    error = float(stats.sem(values))
    half = float(stats.t.ppf((1 + LEVEL) / 2, n - 1)) * error
    return Estimate(centre, centre - half, centre + half, n)


def compare_proportions(k_a: int, n_a: int, k_b: int, n_b: int) -> Difference:
    """``k_b/n_b - k_a/n_a``: Newcombe's hybrid score interval and Fisher's exact p."""
    a, b = proportion(k_a, n_a), proportion(k_b, n_b)
    if n_a == 0 or n_b == 0:
        return Difference(math.nan, math.nan, math.nan, 1.0)
    diff = b.value - a.value
    low = diff - math.sqrt((b.value - b.low) ** 2 + (a.high - a.value) ** 2)
    high = diff + math.sqrt((b.high - b.value) ** 2 + (a.value - a.low) ** 2)
    table = np.array([[k_a, n_a - k_a], [k_b, n_b - k_b]])
    p = float(stats.fisher_exact(table).pvalue)
    return Difference(diff, low, high, min(1.0, p))


def compare_means(a: Sequence[float], b: Sequence[float]) -> Difference:
    """``mean(b) - mean(a)``: Welch's t test and interval (p = 1 when both are constant)."""
    if len(a) < 2 or len(b) < 2:
        return Difference(math.nan, math.nan, math.nan, 1.0)
    diff = fmean(b) - fmean(a)
    if min(a) == max(a) and min(b) == max(b):
        return Difference(diff, diff, diff, 1.0 if diff == 0 else 0.0)
    result = stats.ttest_ind(b, a, equal_var=False)
    interval = result.confidence_interval(confidence_level=LEVEL)
    return Difference(diff, float(interval.low), float(interval.high), float(result.pvalue))


def adjust(p_values: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg adjusted p-values of a family of tests (NaN counts as 1)."""
    if not p_values:
        return []
    clean = [1.0 if math.isnan(p) else p for p in p_values]
    return [float(p) for p in stats.false_discovery_control(clean, method="bh")]


def seat_balance(wins: Sequence[int]) -> float:
    """p-value of "every seat wins equally often", from the decided games' wins per seat.

    Two seats: an exact binomial test; more: a chi-square goodness-of-fit test. 1.0 when no
    game was decided.
    """
    total = sum(wins)
    if total == 0:
        return 1.0
    if len(wins) == 2:
        return float(stats.binomtest(wins[0], total).pvalue)
    return float(stats.chisquare(wins).pvalue)


def beats(wins: int, decided: int, fair: float = 0.5) -> float:
    """One-sided p-value of "no better than an equal player": ``P(X >= wins)``,
    ``X ~ B(decided, fair)``, where ``fair`` is an equal player's share (1/K at K seats)."""
    if decided == 0:
        return 1.0
    return float(stats.binomtest(wins, decided, p=fair, alternative="greater").pvalue)


def quartiles(values: Sequence[float]) -> tuple[float, float, float]:
    """First quartile, median and third quartile (all three the value itself for one value)."""
    if len(values) == 1:
        return values[0], values[0], values[0]
    low, mid, high = quantiles(values, n=4, method="inclusive")
    return low, mid, high


POWER = 0.8
"""The chance of seeing a real effect that power lines assume: the usual 80%."""


def _reach(n: float) -> float:
    """Cohen's h a two-sided 5% test detects with ``POWER`` over an effective sample ``n``."""
    z = float(stats.norm.ppf(1 - ALPHA / 2) + stats.norm.ppf(POWER))
    return z / math.sqrt(n)


def detectable_share(n: int, fair: float) -> float:
    """The smallest share above ``fair`` that a 5% test over ``n`` games sees with 80% power.

    The standard power calculation of one proportion on the arcsine scale (Cohen's h):
    ``2 asin(sqrt(p)) - 2 asin(sqrt(fair)) = (z_0.975 + z_0.8) / sqrt(n)``. 1.0 when even a
    share of 1 is out of reach (NaN for no games).
    """
    if n == 0:
        return math.nan
    angle = math.asin(math.sqrt(fair)) + _reach(n) / 2
    return 1.0 if angle >= math.pi / 2 else math.sin(angle) ** 2


def detectable_difference(n: int, base: float = 0.5) -> float:
    """The smallest rise of a rate from ``base`` that comparing two samples of ``n`` games
    sees with 80% power at 5% (two-sided; Cohen's h with ``2 / n``); NaN for no games."""
    if n == 0:
        return math.nan
    angle = math.asin(math.sqrt(base)) + _reach(n / 2) / 2
    return (1.0 if angle >= math.pi / 2 else math.sin(angle) ** 2) - base


def detectable_effect(n: int) -> float:
    """The smallest difference of two means, in standard deviations (Cohen's d), that
    comparing two samples of ``n`` games sees with 80% power at 5% (normal approximation)."""
    return _reach(n / 2) if n else math.nan


BOOTSTRAP_RESAMPLES = 1000
"""Resamples of a bootstrap interval: enough for the 2.5% and 97.5% points to a point or so."""


def bootstrap_uniformity(utilities: Sequence[Sequence[float]]) -> Estimate:
    """Outcome uniformity (``1 - mean_s var_g u[g][s]``) of games' per-seat results ``u`` with
    a percentile bootstrap 95% interval over games (seeded: the same games give the same
    interval). A function of the whole sample, not a mean per game, so no t interval."""
    table = np.asarray(utilities, dtype=np.float64)
    n = len(table)

    def uniformity(rows: np.ndarray) -> np.ndarray:
        # rows: (resamples, games, seats); the population variance per seat, meaned over seats.
        return np.asarray(1.0 - rows.var(axis=1).mean(axis=-1))

    value = float(uniformity(table[np.newaxis])[0])
    rng = np.random.default_rng(0)
    found = []
    for _ in range(0, BOOTSTRAP_RESAMPLES, 100):
        found.append(uniformity(table[rng.integers(0, n, size=(100, n))]))
    low, high = np.percentile(np.concatenate(found), [2.5, 97.5])
    return Estimate(value, float(low), float(high), n)


def detectable_edge_difference(decided_a: int, seats_a: int, decided_b: int, seats_b: int) -> float:
    """The smallest rise of the first seat's edge over its fair share (share of the decided
    games times ``K``) from a variant of ``seats_a`` seats to one of ``seats_b`` that a 5%
    two-sided test sees with 80% power, from their decided games (normal approximation).

    An edge estimate from ``n`` decided games at ``K`` seats with share ``p`` has variance
    ``K^2 p (1 - p) / n``: ``(K - 1) / n`` for an equal seat. The difference ``d`` solves
    ``d = z_0.975 sqrt(V_0) + z_0.8 sqrt(V_d)``, with ``V_0`` the variance of the difference
    when both seats are equal and ``V_d`` when the second wins ``(1 + d) / K_b``; NaN without
    games.
    """
    if decided_a == 0 or decided_b == 0:
        return math.nan
    alpha, power = float(stats.norm.ppf(1 - ALPHA / 2)), float(stats.norm.ppf(POWER))
    base = (seats_a - 1) / decided_a
    null = math.sqrt(base + (seats_b - 1) / decided_b)
    found = (alpha + power) * null
    for _ in range(50):  # a contraction: converges in a few steps
        share = min(1.0, (1 + found) / seats_b)
        spread = math.sqrt(base + seats_b**2 * share * (1 - share) / decided_b)
        found = alpha * null + power * spread
    return found
