"""The Anacund observation planes in compiled code, read from a kernel state.

The same planes as :class:`~boardlab.rl.fast.anacund.AnacundEncoder`, bit for bit
(``tests/rl/test_vector.py`` compares them at every position of seeded games), for the batched
environments of :mod:`boardlab.rl.vector`. Each square's code (plus five on the bonus square)
selects one column of per-square channels from the fast encoder's table; the layout's values,
the captured pieces, the groups left and the running scores are written from the state.
"""

from __future__ import annotations

import numba
import numpy as np

from boardlab.core.engine import Kernel, KernelArray
from boardlab.games.anacund.kernel_rules import (
    BOARD,
    BONUS,
    GROUPS,
    P_BONUS_POINTS,
    PLY,
    SIDE,
    SQUARES,
    STATUS,
    SUB,
    VALUES,
)
from boardlab.rl.fast.anacund import AnacundEncoder
from boardlab.rl.fast.kernel_tables import (
    HEADER,
    O_AREA,
    O_CAP,
    O_PHASES,
    O_PLY,
    O_SIZE,
    common_tables,
)

_PHASES = ("play", "over")
_CODES = 5
"""Square codes (free, a piece of seat 0 or 1, blocked beside by seat 0 or 1); plus five on
the bonus square."""
# Integer slots after the header: the value channel, how many per-square channels follow the
# cell plane, the float offset of the square tables, each square's grid place; then per
# (observing seat, owner): the captured channel, the score channel, and the channel of each
# group size 1-6.
O_VALUE, O_SQUARE_CHANNELS, O_TABLES = HEADER, HEADER + 1, HEADER + 2
O_PLACES = HEADER + 3
O_CAPTURED = O_PLACES + SQUARES
O_SCORES = O_CAPTURED + 4
O_GROUPS = O_SCORES + 4


def observer_tables(kernel: Kernel, encoder: AnacundEncoder) -> tuple[KernelArray, ...]:
    """The integer and float32 tables :func:`observe` reads for ``kernel``'s game."""
    header, templates = common_tables(kernel, encoder, _PHASES)
    tables = [table.T.reshape(-1) for table in encoder.square_tables()]
    channels = encoder.square_tables()[0].shape[0]
    ints = [*header, encoder.channel("cell value"), channels, templates.size]
    ints += [encoder.grid_place(str(square + 1)) for square in range(SQUARES)]
    pairs = [(seat, owner) for seat in range(2) for owner in range(2)]
    ints += [
        encoder.channel(f"pool captured seat+{encoder.relative(owner, seat)} piece")
        for seat, owner in pairs
    ]
    ints += [
        encoder.channel(f"score seat+{encoder.relative(owner, seat)}") for seat, owner in pairs
    ]
    ints += [
        encoder.channel(f"pool groups seat+{encoder.relative(owner, seat)} group#{size}")
        for seat, owner in pairs
        for size in range(1, 7)
    ]
    floats = np.concatenate([templates, *tables]).astype(np.float32)
    return np.array(ints, dtype=np.int64), floats


@numba.njit(cache=True)
def _broadcast(out: KernelArray, channel: int, area: int, value: float) -> None:
    """Fill one whole plane with ``value``."""
    at = channel * area
    out[at : at + area] = value


@numba.njit(cache=True)
def observe(
    p: KernelArray, oi: KernelArray, of: KernelArray, s: KernelArray, seat: int, out: KernelArray
) -> None:
    """Write the planes of kernel state ``s`` seen by ``seat`` into ``out`` (flat float32)."""
    over = 1 if s[STATUS] != 0 else 0
    mover = 1 if over == 0 and s[SIDE] == seat else 0
    turn = 1 if s[SUB] == 0 else 0
    # The template, then the ply fraction. (Not shared with the other games' encoders:
    # Numba's cache would not see a shared helper change.)
    size = oi[O_SIZE]
    area = oi[O_AREA]
    start = (((seat * oi[O_PHASES] + over) * 2 + mover) * 2 + turn) * size
    out[:] = of[start : start + size]
    cap = oi[O_CAP]
    if cap:
        _broadcast(out, oi[O_PLY], area, min(s[PLY] / cap, 1.0))
    channels = oi[O_SQUARE_CHANNELS]
    table = oi[O_TABLES] + seat * 2 * _CODES * channels
    value = oi[O_VALUE] * area
    bonus = s[BONUS]
    captured = np.zeros(2, dtype=np.int64)
    points = np.zeros(2, dtype=np.int64)
    for square in range(SQUARES):
        code = s[BOARD + square]
        if code != 0:
            owner = (code - 1) % 2
            points[owner] += 1
            if code >= 3:
                captured[owner] += 1
            if square == bonus:
                points[owner] += p[P_BONUS_POINTS]
        if square == bonus:
            code += _CODES
        place = oi[O_PLACES + square]
        column = table + code * channels
        for k in range(channels):
            out[(1 + k) * area + place] = of[column + k]
        out[value + place] = s[VALUES + square]
    for owner in range(2):
        pair = seat * 2 + owner
        _broadcast(out, oi[O_CAPTURED + pair], area, captured[owner])
        _broadcast(out, oi[O_SCORES + pair], area, points[owner])
        for slot in range(3):
            group = s[GROUPS + 3 * owner + slot]
            if group:
                at = oi[O_GROUPS + pair * 6 + group - 1] * area
                out[at : at + area] += 1.0
