"""A random layout's first kernel state from its seed, compiled (the RL environments' reset).

:func:`~boardlab.games.anacund.board.random_values` shuffles the slats with Python's
``random.Random(seed)``; a game made for each seed costs about 0.1 ms, and the reference values
alone about 15 µs, more than a third of a random game on the kernel. :func:`seeded_start` does
the same draw in compiled code: CPython's Mersenne Twister (MT19937) seeded as
``random.seed`` seeds it from an int below 2**32 (``init_by_array`` of its one 32-bit word),
``random()`` and ``shuffle``'s ``getrandbits`` rejection (:mod:`boardlab.core.kernel_mersenne`),
then the slats as spec §4.2 lays them, and writes the kernel state of the layout's first
position. ``tests/games/anacund`` and the RL tests check it against the reference for
thousands of seeds, and :func:`agrees` lets a caller check it where it runs (another Python
could draw otherwise).
"""

from __future__ import annotations

import numpy as np

from boardlab.core.engine import KernelArray
from boardlab.core.jit import numba
from boardlab.core.kernel_mersenne import N, below, random
from boardlab.core.kernel_mersenne import seed as random_seed
from boardlab.games.anacund.board import random_values
from boardlab.games.anacund.kernel_rules import (
    BONUS,
    KEY,
    SQUARES,
    VALUE_SQUARES,
    VALUES,
    Z_BONUS,
    Z_VALUE,
)

_TOP = np.array([1] * 5 + [2] * 5 + [3] * 5, dtype=np.int64)
_BOTTOM = np.array([6] * 5 + [5] * 5 + [4] * 5, dtype=np.int64)
"""The fifteen 2-ideogram slats, top|bottom (``board.TWO_SLATS``); index 0 is the bonus slat."""
_X = np.array([1, 3, 5], dtype=np.int64)
_Y = np.array([2, 4, 6], dtype=np.int64)
SEEDS = 2**32
"""Seeds below this are drawn as Python draws them (the environments draw below 2**31)."""


@numba.njit(cache=True)
def draw(seed: int, values: KernelArray) -> int:
    """:func:`~boardlab.games.anacund.board.random_values` of ``seed`` (below :data:`SEEDS`):
    the values of squares 1..36 into ``values``; returns the bonus square number."""
    mt = np.empty(N + 1, dtype=np.int64)
    random_seed(mt, seed)
    order = np.arange(15)
    for i in range(14, 0, -1):  # shuffle
        j = below(mt, i + 1)
        order[i], order[j] = order[j], order[i]
    bonus = 0
    for column in range(2, 17):
        slat = order[column - 2]
        top, bottom = _TOP[slat], _BOTTOM[slat]
        if random(mt) < 0.5:
            top, bottom = bottom, top
        values[column - 1] = top
        values[SQUARES - column - 1] = bottom
        if slat == 0:
            bonus = column if top == 1 else SQUARES - column
    x_first = random(mt) < 0.5
    for column in (1, 17):
        cells = _X if x_first == (column == 1) else _Y
        middle = SQUARES if column == 1 else 18
        if random(mt) < 0.5:
            cells = cells[::-1]
        values[column - 1] = cells[0]
        values[middle - 1] = cells[1]
        values[SQUARES - column - 1] = cells[2]
    return bonus


@numba.njit(cache=True)
def seeded_start(p: KernelArray, first: KernelArray, seed: int, out: KernelArray) -> None:
    """The kernel state of the first position of ``first``'s game with the layout that
    ``seed`` draws (below :data:`SEEDS`), into ``out``: ``first`` with other values, bonus
    square, value masks and key."""
    out[:] = first
    key = first[KEY] ^ p[Z_BONUS + first[BONUS]]
    for i in range(SQUARES):
        key ^= p[Z_VALUE + 7 * i + first[VALUES + i]]
    values = out[VALUES : VALUES + SQUARES]
    bonus = draw(seed, values)
    out[BONUS] = bonus - 1
    key ^= p[Z_BONUS + bonus - 1]
    for value in range(1, 7):
        out[VALUE_SQUARES + value - 1] = 0
    for i in range(SQUARES):
        key ^= p[Z_VALUE + 7 * i + values[i]]
        out[VALUE_SQUARES + values[i] - 1] |= 1 << i
    out[KEY] = key


def agrees(seeds: tuple[int, ...] = (0, 1, 2**31 - 1)) -> bool:
    """Whether :func:`draw` gives what the reference draws for ``seeds`` here."""
    values = np.zeros(SQUARES, dtype=np.int64)
    for seed in seeds:
        bonus = draw(seed, values)
        if (values.tolist(), bonus) != random_values(seed):
            return False
    return True
