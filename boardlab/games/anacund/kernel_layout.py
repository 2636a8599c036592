"""A random layout's first kernel state from its seed, compiled (the RL environments' reset).

:func:`~boardlab.games.anacund.board.random_values` shuffles the slats with Python's
``random.Random(seed)``; a game made for each seed costs about 0.1 ms, and the reference values
alone about 15 µs, more than a third of a random game on the kernel. :func:`seeded_start` does
the same draw in compiled code: CPython's Mersenne Twister (MT19937) seeded as
``random.seed`` seeds it from an int below 2**32 (``init_by_array`` of its one 32-bit word),
``random()`` and ``shuffle``'s ``getrandbits`` rejection, then the slats as spec §4.2 lays
them, and writes the kernel state of the layout's first position. ``tests/games/anacund`` and
the RL tests check it against the reference for thousands of seeds, and :func:`agrees` lets a
caller check it where it runs (another Python could draw otherwise).
"""

from __future__ import annotations

import numba
import numpy as np

from boardlab.core.engine import KernelArray
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

_N = 624
_M = 397
_TOP = np.array([1] * 5 + [2] * 5 + [3] * 5, dtype=np.int64)
_BOTTOM = np.array([6] * 5 + [5] * 5 + [4] * 5, dtype=np.int64)
"""The fifteen 2-ideogram slats, top|bottom (``board.TWO_SLATS``); index 0 is the bonus slat."""
_X = np.array([1, 3, 5], dtype=np.int64)
_Y = np.array([2, 4, 6], dtype=np.int64)
SEEDS = 2**32
"""Seeds below this are drawn as Python draws them (the environments draw below 2**31)."""


@numba.njit(cache=True)
def _seed(mt: KernelArray, seed: int) -> None:
    """``random.seed(seed)``: ``init_genrand(19650218)`` then ``init_by_array([seed])``;
    ``mt[_N]`` is the index of the next word."""
    mt[0] = 19650218
    for i in range(1, _N):
        mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & 0xFFFFFFFF
    i = 1
    for _ in range(_N):  # max(_N, key length 1) rounds; the key's index stays 0
        mixed = ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525) & 0xFFFFFFFF
        mt[i] = ((mt[i] ^ mixed) + seed) & 0xFFFFFFFF
        i += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
    for _ in range(_N - 1):
        mixed = ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941) & 0xFFFFFFFF
        mt[i] = ((mt[i] ^ mixed) - i) & 0xFFFFFFFF
        i += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
    mt[0] = 0x80000000
    mt[_N] = _N


@numba.njit(cache=True)
def _word(mt: KernelArray) -> int:
    """``genrand_uint32``: the next tempered 32-bit word. Each word is twisted just before it
    is used, in order: the same words as twisting all 624 at once (each reads the words before
    it twisted and those after it not yet), for the few dozen that a layout draws."""
    i = mt[_N]
    if i >= _N:
        i = 0
    y = (mt[i] & 0x80000000) | (mt[i + 1 if i + 1 < _N else 0] & 0x7FFFFFFF)
    j = i + _M if i + _M < _N else i + _M - _N
    y = mt[i] = mt[j] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
    mt[_N] = i + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & 0xFFFFFFFF  # type: ignore[no-any-return]


@numba.njit(cache=True)
def _random(mt: KernelArray) -> float:
    """``random()``: 53 bits from two words."""
    a = _word(mt) >> 5
    b = _word(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@numba.njit(cache=True)
def _below(mt: KernelArray, n: int) -> int:
    """``_randbelow_with_getrandbits(n)`` for 1 < n < 2**32."""
    k = 0
    while (1 << k) <= n:  # n.bit_length()
        k += 1
    r = _word(mt) >> (32 - k)
    while r >= n:
        r = _word(mt) >> (32 - k)
    return r


@numba.njit(cache=True)
def draw(seed: int, values: KernelArray) -> int:
    """:func:`~boardlab.games.anacund.board.random_values` of ``seed`` (below :data:`SEEDS`):
    the values of squares 1..36 into ``values``; returns the bonus square number."""
    mt = np.empty(_N + 1, dtype=np.int64)
    _seed(mt, seed)
    order = np.arange(15)
    for i in range(14, 0, -1):  # shuffle
        j = _below(mt, i + 1)
        order[i], order[j] = order[j], order[i]
    bonus = 0
    for column in range(2, 17):
        slat = order[column - 2]
        top, bottom = _TOP[slat], _BOTTOM[slat]
        if _random(mt) < 0.5:
            top, bottom = bottom, top
        values[column - 1] = top
        values[SQUARES - column - 1] = bottom
        if slat == 0:
            bonus = column if top == 1 else SQUARES - column
    x_first = _random(mt) < 0.5
    for column in (1, 17):
        cells = _X if x_first == (column == 1) else _Y
        middle = SQUARES if column == 1 else 18
        if _random(mt) < 0.5:
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
