"""The compiled Anacund evaluation: ``AnacundState.heuristic`` on a kernel state, for the
compiled searches and the greedy bot (same value: the running score difference)."""

from __future__ import annotations

from boardlab.core.jit import njit
from boardlab.games.anacund.kernel_rules import P_BONUS_POINTS, SQUARES, scores


@njit(cache=True)
def evaluate(p, s, seat):  # type: ignore[no-untyped-def]
    """``seat``'s running score lead over the points at stake (spec §8), in [-1, 1]."""
    a, b = scores(p, s)
    diff = a - b if seat == 0 else b - a
    return diff / (SQUARES + p[P_BONUS_POINTS])
