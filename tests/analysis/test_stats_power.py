"""The lab's power lines and quartiles, checked against the power they promise.

A designer reads "a share of 64% would be seen" as: a real share that high is detected by the
5% test four times in five. These tests compute that power independently (the normal tail of
the arcsine-scale statistic, ``norm.cdf``, not the quantile formula the code inverts) and check
the closed forms by hand (``sin²(π/4 + x) = (1 + sin 2x) / 2``).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from boardlab.analysis.stats import (
    detectable_difference,
    detectable_effect,
    detectable_share,
    quartiles,
)

Z_TWO_SIDED = 1.959963984540054  # the 97.5% normal quantile, by table


def _power(h: float, n: float) -> float:
    """Power of a two-sided 5% test of an effect ``h`` (Cohen) over an effective sample ``n``."""
    return float(stats.norm.cdf(h * math.sqrt(n) - Z_TWO_SIDED))


def _h(p: float, q: float) -> float:
    return 2 * math.asin(math.sqrt(p)) - 2 * math.asin(math.sqrt(q))


@pytest.mark.parametrize("n", [20, 100, 400])
@pytest.mark.parametrize("fair", [0.5, 1 / 3, 0.25, 0.2])
def test_a_detectable_share_is_seen_four_times_in_five(n: int, fair: float) -> None:
    share = detectable_share(n, fair)
    assert fair < share < 1
    assert _power(_h(share, fair), n) == pytest.approx(0.8, abs=1e-9)
    # A share a little lower is seen less often: the line is the smallest share with 80%.
    assert _power(_h(share - 0.01, fair), n) < 0.8


def test_a_detectable_share_by_hand_and_out_of_reach() -> None:
    # fair 1/2: sin²(π/4 + h/2) = (1 + sin h) / 2 with h = (z_0.975 + z_0.8) / sqrt(n).
    assert detectable_share(100, 0.5) == pytest.approx((1 + math.sin(0.2801585)) / 2, abs=1e-6)
    assert detectable_share(100, 0.5) == pytest.approx(0.638254, abs=2e-6)
    assert detectable_share(400, 0.5) < detectable_share(100, 0.5) < detectable_share(20, 0.5)
    assert detectable_share(1, 0.5) == 1.0  # not even a perfect score would be seen
    assert math.isnan(detectable_share(0, 0.5))


@pytest.mark.parametrize("n", [40, 200, 1000])
@pytest.mark.parametrize("base", [0.5, 0.3])
def test_a_detectable_difference_of_two_samples_is_seen_four_times_in_five(
    n: int, base: float
) -> None:
    rise = detectable_difference(n, base)
    assert 0 < rise < 1 - base
    # Two samples of n: the difference's variance is twice one sample's, so n / 2 is effective.
    assert _power(_h(base + rise, base), n / 2) == pytest.approx(0.8, abs=1e-9)
    assert _power(_h(base + rise - 0.01, base), n / 2) < 0.8


def test_a_detectable_difference_by_hand_and_out_of_reach() -> None:
    # base 1/2 over two samples of 200 (effective 100): (1 + sin h) / 2 - 1/2 = sin(h) / 2.
    assert detectable_difference(200, 0.5) == pytest.approx(math.sin(0.2801585) / 2, abs=1e-6)
    assert detectable_difference(200) == detectable_difference(200, 0.5)
    assert detectable_difference(1, 0.3) == pytest.approx(0.7)  # capped at a rate of 1
    assert math.isnan(detectable_difference(0))


def test_a_detectable_effect_in_standard_deviations() -> None:
    for n in (10, 200, 5000):
        d = detectable_effect(n)
        assert _power(d, n / 2) == pytest.approx(0.8, abs=1e-9)
    assert detectable_effect(200) == pytest.approx(0.2801585, abs=1e-6)
    assert math.isnan(detectable_effect(0))


@pytest.mark.parametrize(
    "values", [[1.0, 2.0, 3.0, 4.0, 5.0], [1.0, 2.0, 3.0, 4.0], [7.0, 1.0, 4.0], [2.0, 9.0]]
)
def test_quartiles_are_numpys_linear_percentiles(values: list[float]) -> None:
    expected = tuple(float(v) for v in np.percentile(values, [25, 50, 75]))
    assert quartiles(values) == pytest.approx(expected)


def test_quartiles_by_hand_and_of_one_value() -> None:
    assert quartiles([1.0, 2.0, 3.0, 4.0]) == pytest.approx((1.75, 2.5, 3.25))
    assert quartiles([6.0]) == (6.0, 6.0, 6.0)
