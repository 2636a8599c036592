"""The compiled Carnyx evaluation: :func:`boardlab.games.carnyx.evaluation.evaluate` on a
kernel state, for the compiled searches and the greedy bot (same weights, same value)."""

from __future__ import annotations

import math

from boardlab.core.jit import njit
from boardlab.games.carnyx.board import SIZE, SQUARES
from boardlab.games.carnyx.evaluation import (
    ADVANCE_WEIGHT,
    HEIGHT_WEIGHT,
    RESERVE_WEIGHT,
    SCALE,
    STACK_WEIGHT,
)
from boardlab.games.carnyx.kernel_rules import HEIGHT, POOLS, _top


@njit(cache=True)
def evaluate(p, s, seat):  # type: ignore[no-untyped-def]
    """``seat``'s heuristic value of the game in progress ``s``, in (-1, 1)."""
    dark = 0.0
    light = 0.0
    for square in range(SQUARES):
        colour = _top(s, square)
        rank = square // SIZE
        if colour == 0:
            dark += STACK_WEIGHT + HEIGHT_WEIGHT * s[HEIGHT + square] + ADVANCE_WEIGHT * rank
        elif colour == 1:
            advance = SIZE - 1 - rank
            light += STACK_WEIGHT + HEIGHT_WEIGHT * s[HEIGHT + square] + ADVANCE_WEIGHT * advance
    dark += RESERVE_WEIGHT * s[POOLS + 2]
    light += RESERVE_WEIGHT * s[POOLS + 5]
    if seat == 0:
        return math.tanh((dark - light) / SCALE)
    return math.tanh((light - dark) / SCALE)
