"""The compiled Colosseum Offcuts evaluation: :func:`~boardlab.games.colosseum_offcuts.
evaluation.evaluate` on a kernel state, for the compiled searches and the greedy bot."""

from __future__ import annotations

from boardlab.core.engine import KernelArray as Array
from boardlab.games.colosseum_offcuts.kernel_layout import (
    P_PLAYERS,
    PW,
    S_CELL,
    S_FORTS,
    S_LEVEL,
    S_MODE,
    compiled,
)


@compiled
def evaluate(p: Array, s: Array, seat: int) -> float:
    """``seat``'s value in [-1, 1] of the game in progress ``s``: material plus threats.

    As the reference: Fortifications against the rivals' mean, and 0.1 per capture available
    next action (an Attack-mode Fortification on top of a stack beside a stack topped by an
    enemy Fortification), minus 0.1 per such threat against ``seat``.
    """
    players = p[P_PLAYERS]
    if not s[S_FORTS + seat]:
        return -1.0
    rivals = 0
    for other in range(players):
        if other != seat:
            rivals += s[S_FORTS + other]
    material = (s[S_FORTS + seat] - rivals / (players - 1)) / 2
    threats = 0
    counters = 4 * players
    for k in range(counters):
        # Counter k is seat k >> 2's; slots 2-3 are its Fortifications (kernel_layout).
        if k & 2 and s[S_MODE + k] and _on_top(s, counters, k):
            for j in range(counters):
                if j & 2 and j >> 2 != k >> 2 and _on_top(s, counters, j):
                    step = s[S_CELL + j] - s[S_CELL + k]
                    if step == 1 or step == -1 or step == PW or step == -PW:
                        if k >> 2 == seat:
                            threats += 1
                        elif j >> 2 == seat:
                            threats -= 1
    value: float = 0.7 * material + 0.1 * threats
    return max(-1.0, min(1.0, value))


@compiled
def _on_top(s: Array, counters: int, k: int) -> bool:
    """Whether counter ``k`` is on the board with no counter above it."""
    cell = s[S_CELL + k]
    if cell < 0:
        return False
    for j in range(counters):
        if s[S_CELL + j] == cell and s[S_LEVEL + j] > s[S_LEVEL + k]:
            return False
    return True
