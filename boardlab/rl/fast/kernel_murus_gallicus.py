"""The Murus Gallicus observation planes in compiled code, read from a kernel state.

The same planes as :class:`~boardlab.rl.fast.murus_gallicus.MurusGallicusEncoder`, bit for
bit (``tests/rl/test_vector.py`` compares them at every position of seeded games), for the
batched environments of :mod:`boardlab.rl.vector`. Everything that does not depend on the
position comes from the fast encoder once, as tables: a template per (seat, game over, seat to
move) and, per seat and bitboard, what one cell of that bitboard writes in the stack channels.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import numpy as np

from boardlab.core.engine import Kernel, KernelArray
from boardlab.core.jit import numba, trailing_zeros
from boardlab.games.murus_gallicus.kernel import S_OVER, S_PLY, S_SIDE
from boardlab.rl.fast.kernel_planes import copy_into
from boardlab.rl.fast.murus_gallicus import MurusGallicusEncoder

USES_RECORD = False
""":func:`observe` writes every plane and leaves its record unread (a record of no log
serves)."""

# LLVM's count of trailing zeros: the index of a single set bit (as in the game's kernel).
_bit_index = cast(Callable[[int], int], trailing_zeros)

# Slots of the integer tables.
O_SIZE, O_ROWS, O_COLUMNS, O_STACK, O_PLY, O_CAP, O_MATRICES = range(7)


def observer_tables(kernel: Kernel, encoder: MurusGallicusEncoder) -> tuple[KernelArray, ...]:
    """The integer and float32 tables :func:`observe` reads for ``kernel``'s game."""
    size = int(np.prod(encoder.shape))
    templates = []
    for seat in range(2):
        for over in (False, True):
            for mover in (False, True):
                planes = encoder.template(seat).copy()
                planes[encoder.channel("phase over" if over else "phase play")] = 1.0
                planes[encoder.channel("to move")] = float(mover)
                planes[encoder.channel("turn start")] = 1.0  # every decision starts a turn
                templates.append(planes.reshape(-1))
    # Per seat and bitboard (Roman towers, walls, Gaul towers, walls): the stack channels.
    matrices = [m.T.reshape(-1) for m in encoder.stack_matrices()]
    floats = np.concatenate([*templates, *matrices]).astype(np.float32)
    ints = np.zeros(7, dtype=np.int64)
    ints[O_SIZE] = size
    ints[O_ROWS], ints[O_COLUMNS] = encoder.rows, encoder.columns
    ints[O_STACK] = encoder.stack_channels
    ints[O_PLY] = encoder.channel("ply fraction")
    ints[O_CAP] = kernel.game.max_plies or 0
    ints[O_MATRICES] = len(templates) * size
    return ints, floats


@numba.njit(cache=True)
def observe(
    p: KernelArray,
    oi: KernelArray,
    of: KernelArray,
    s: KernelArray,
    seat: int,
    out: KernelArray,
    rec: KernelArray,
) -> None:
    """Write the planes of kernel state ``s`` seen by ``seat`` into ``out`` (flat float32).

    Every plane, whatever ``out`` held: ``rec`` (the record of
    :mod:`~boardlab.rl.fast.kernel_planes`, which the large encoders write through) is not
    read. At 840 floats, writing them all costs less than logging the cells to rewrite
    only what changed (measured: ``docs/rl.md``)."""
    size = oi[O_SIZE]
    rows = oi[O_ROWS]
    columns = oi[O_COLUMNS]
    stack = oi[O_STACK]
    over = 1 if s[S_OVER] != 0 else 0
    mover = 1 if over == 0 and s[S_SIDE] == seat else 0
    start = ((seat * 2 + over) * 2 + mover) * size
    copy_into(out, of[start : start + size])
    area = rows * columns
    cap = oi[O_CAP]
    if cap:
        fraction = np.float32(min(s[S_PLY] / cap, 1.0))
        ply = oi[O_PLY] * area
        out[ply : ply + area] = fraction
    for board in range(4):
        bits = s[board]
        column_of = oi[O_MATRICES] + (seat * 4 + board) * stack
        while bits:
            low = bits & -bits
            cell = _bit_index(low)
            bits ^= low
            place = (rows - 1 - (cell >> 3)) * columns + (cell & 7)
            for k in range(stack):
                out[(1 + k) * area + place] = of[column_of + k]
