"""Murus Gallicus's evaluation on the kernel's state: ``MurusGallicusState.heuristic`` compiled.

The compiled search (:mod:`boardlab.ai.search`) calls ``evaluate`` at its leaves; it equals the
reference heuristic on every position that is not over (the same sums in the same order).
"""

from __future__ import annotations

import math

from boardlab.core.engine import KernelArray
from boardlab.core.jit import numba
from boardlab.games.murus_gallicus.kernel import P_MASK, _bit_index


@numba.njit(cache=True)
def _count(bits: int) -> int:
    """Set bits of an int64 (the sign bit included)."""
    n = 0
    while bits:
        bits &= bits - 1
        n += 1
    return n


@numba.njit(cache=True)
def evaluate(p: KernelArray, s: KernelArray, seat: int) -> float:
    """Material (tower 2, wall 1) plus the squared advance of towers, squashed by tanh."""
    rows = _count(p[P_MASK]) >> 3  # the board is 8 columns wide
    score = 0.0
    for k in range(2):
        side = seat if k == 0 else 1 - seat
        sign = 1.0 if k == 0 else -1.0
        towers = s[2 * side]
        score += sign * (2 * _count(towers) + _count(s[2 * side + 1]))
        while towers:
            low = towers & -towers
            row = _bit_index(low) >> 3
            advance = row if side == 0 else rows - 1 - row
            score += sign * 0.15 * advance * advance
            towers ^= low
    return math.tanh(score / 12.0)
