"""A seat's edge over its fair share, comparable across seat counts.

At ``K`` seats an equal seat wins ``1/K`` of the games with one winner, so a raw win rate
(over all games) of a 2-seat variant and of a 3-seat one differ by the fair share and by the
draws even when neither seat has any edge. The edge compared here is the seat's **share of the
decided games (one winner) over its fair share**: ``share * K``, 1 for an equal seat, 1.2 for
a seat that wins a fifth more than its fair share, whatever ``K`` and however many draws.

The interval of a difference of two edges is the MOVER interval (Zou and Donner 2008:
Newcombe's hybrid score interval, generalised to a weighted difference) built from the two
Wilson intervals, scaled by each variant's ``K``; its p-value is that interval inverted (the
smallest level at which it leaves out 0), so the verdict and the printed interval always agree.
"""

from __future__ import annotations

import math

from scipy import stats
from scipy.optimize import brentq

from boardlab.analysis.stats import LEVEL, Difference


def _wilson(k: int, n: int, level: float) -> tuple[float, float]:
    found = stats.binomtest(k, n).proportion_ci(confidence_level=level, method="wilson")
    return float(found.low), float(found.high)


def _mover(
    a: tuple[int, int, int], b: tuple[int, int, int], level: float
) -> tuple[float, float, float]:
    """Edge of ``b`` minus edge of ``a`` (each ``(wins, decided, seats)``), MOVER interval."""
    (k_a, n_a, seats_a), (k_b, n_b, seats_b) = a, b
    edge_a, edge_b = seats_a * k_a / n_a, seats_b * k_b / n_b
    low_a, high_a = (seats_a * x for x in _wilson(k_a, n_a, level))
    low_b, high_b = (seats_b * x for x in _wilson(k_b, n_b, level))
    diff = edge_b - edge_a
    low = diff - math.hypot(edge_b - low_b, high_a - edge_a)
    high = diff + math.hypot(high_b - edge_b, edge_a - low_a)
    return diff, low, high


def edge(wins: int, decided: int, seats: int) -> tuple[float, float, float]:
    """The seat's share of ``decided`` games times ``seats``, with its scaled Wilson interval
    (NaN and 0 to ``seats`` for no decided game)."""
    if decided == 0:
        return math.nan, 0.0, float(seats)
    low, high = _wilson(wins, decided, LEVEL)
    return seats * wins / decided, seats * low, seats * high


def compare_edges(a: tuple[int, int, int], b: tuple[int, int, int]) -> Difference:
    """Edge of ``b`` minus edge of ``a``, each given as ``(wins, decided games, seats)``.

    The 95% MOVER interval, and the p-value at which that interval would just reach 0 (1 when
    a side has no decided game).
    """
    if a[1] == 0 or b[1] == 0:
        return Difference(math.nan, math.nan, math.nan, 1.0)
    diff, low, high = _mover(a, b, LEVEL)

    def margin(alpha: float) -> float:
        """How far the interval at level ``1 - alpha`` stays from 0 (negative: it holds 0)."""
        _, low, high = _mover(a, b, 1 - alpha)
        return max(low, -high)

    tiny, whole = 1e-12, 1 - 1e-12
    if margin(whole) < 0 or diff == 0:
        p = 1.0
    elif margin(tiny) > 0:
        p = 0.0
    else:
        p = float(brentq(margin, tiny, whole, xtol=1e-12))
    return Difference(diff, low, high, p)
