"""The compiled Colosseum Offcuts evaluation: :func:`~boardlab.games.colosseum_offcuts.
evaluation.evaluate` on a kernel state, for the compiled searches and the greedy bot."""

from __future__ import annotations

from boardlab.core.engine import KernelArray as Array
from boardlab.games.colosseum_offcuts.evaluation import PENDING
from boardlab.games.colosseum_offcuts.kernel_layout import (
    P_PLAYERS,
    PW,
    S_CELL,
    S_FORTS,
    S_LEVEL,
    S_MID,
    S_MODE,
    S_SETUP,
    S_SIDE,
    compiled,
)


@compiled
def evaluate(p: Array, s: Array, seat: int) -> float:
    """``seat``'s value in [-1, 1] of the game in progress ``s``: material plus threats.

    As the reference: Fortifications against the rivals' mean, and 0.1 per capture available
    next action (an Attack-mode Fortification on top of a stack beside a stack topped by an
    enemy Fortification, free to leave its cell), minus 0.1 per such threat against ``seat``;
    and ``PENDING`` of one capture when the side to move can capture with its actions left
    (with both left, also from a lone Mobile Fortification: a flip, then the capture).
    """
    players = p[P_PLAYERS]
    if not s[S_FORTS + seat]:
        return -1.0
    rivals = 0
    for other in range(players):
        if other != seat:
            rivals += s[S_FORTS + other]
    material = (s[S_FORTS + seat] - rivals / (players - 1)) / 2
    mover = s[S_SIDE]
    actions = 0 if s[S_SETUP] else 1 if s[S_MID] else 2
    threats = 0
    pending = 0
    counters = 4 * players
    for k in range(counters):
        # Counter k is seat k >> 2's; slots 2-3 are its Fortifications (kernel_layout).
        if not k & 2 or not _on_top(s, counters, k):
            continue
        attack = s[S_MODE + k] != 0
        owner = k >> 2
        if not attack and not (owner == mover and actions == 2):
            continue
        free = -1  # whether counter k may leave its cell (1) or not (0); found when needed
        for j in range(counters):
            if j & 2 and j >> 2 != owner and _on_top(s, counters, j):
                step = s[S_CELL + j] - s[S_CELL + k]
                if step == 1 or step == -1 or step == PW or step == -PW:
                    if free < 0:
                        free = 1 if _may_leave(s, counters, k) else 0
                    if not free:
                        break
                    victim = j >> 2
                    if attack:
                        if owner == seat:
                            threats += 1
                        elif victim == seat:
                            threats -= 1
                    if owner == mover and actions:
                        pending = max(pending, 2 if victim == seat else 1)
    value: float = 0.7 * material + 0.1 * threats
    if pending:
        change = -0.5 if pending == 2 else 0.5 / (players - 1)
        value += 0.7 * PENDING * change
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


@compiled
def _may_leave(s: Array, counters: int, k: int) -> bool:
    """Whether top counter ``k`` may leave its cell (§6.2): it is not alone there, or the
    footprint stays connected without its cell."""
    cell = s[S_CELL + k]
    start = -1
    for j in range(counters):
        other = s[S_CELL + j]
        if j != k and other == cell:
            return True
        if other >= 0 and other != cell and start < 0:
            start = j
    if start < 0:
        return True
    # Flood fill over the counters (at most 20) by a bit mask of those reached.
    reached = 1 << start
    grown = True
    while grown:
        grown = False
        for a in range(counters):
            if not (reached >> a) & 1:
                continue
            here = s[S_CELL + a]
            for b in range(counters):
                there = s[S_CELL + b]
                if (reached >> b) & 1 or there < 0 or there == cell:
                    continue
                step = there - here
                if step == 0 or step == 1 or step == -1 or step == PW or step == -PW:
                    reached |= 1 << b
                    grown = True
    for j in range(counters):
        if s[S_CELL + j] >= 0 and s[S_CELL + j] != cell and not (reached >> j) & 1:
            return False
    return True
