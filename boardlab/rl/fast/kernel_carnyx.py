"""The Carnyx observation planes in compiled code, read from a kernel state.

The same planes as :class:`~boardlab.rl.fast.carnyx.CarnyxEncoder`, bit for bit
(``tests/rl/test_vector.py`` compares them at every position of seeded games), for the batched
environments of :mod:`boardlab.rl.vector`. A stack is a height and a colour mask (bit ``i``:
the ``i``-th disc from the bottom is Light); each disc adds one to its colour's disc plane,
seen from the observing seat.
"""

from __future__ import annotations

import numpy as np

from boardlab.core.engine import Kernel, KernelArray
from boardlab.core.jit import numba
from boardlab.games.carnyx.board import NAMES, SQUARES
from boardlab.games.carnyx.kernel_rules import HEIGHT, MASK, PLY, POOLS, SIDE, STATUS
from boardlab.rl.fast.carnyx import CarnyxEncoder
from boardlab.rl.fast.kernel_planes import copy_into
from boardlab.rl.fast.kernel_tables import (
    HEADER,
    O_AREA,
    O_CAP,
    O_PHASES,
    O_PLY,
    O_SIZE,
    common_tables,
)

USES_RECORD = False
""":func:`observe` writes every plane and leaves its record unread (a record of no log
serves)."""

_PHASES = ("setup", "play", "over")
_ROLES = ("unplaced", "supply", "reserve")
# Integer slots after the header: the disc, top and height channels, the grid place of each
# square, then the pool channel of each (observing seat, owner, role).
O_DISC, O_TOP, O_HEIGHT = HEADER, HEADER + 1, HEADER + 2
O_PLACES = HEADER + 3
O_POOLS = O_PLACES + SQUARES


def observer_tables(kernel: Kernel, encoder: CarnyxEncoder) -> tuple[KernelArray, ...]:
    """The integer and float32 tables :func:`observe` reads for ``kernel``'s game."""
    header, templates = common_tables(kernel, encoder, _PHASES)
    ints = [*header, encoder.channel("piece disc seat+0"), encoder.channel("top seat+0")]
    ints.append(encoder.channel("height"))
    ints += [encoder.grid_place(NAMES[square]) for square in range(SQUARES)]
    ints += [
        encoder.channel(f"pool {role} seat+{encoder.relative(owner, seat)} disc")
        for seat in range(2)
        for owner in range(2)
        for role in _ROLES
    ]
    return np.array(ints, dtype=np.int64), templates


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
    read. At 575 floats, writing them all costs less than logging the cells to rewrite
    only what changed (measured: ``docs/rl.md``)."""
    over = s[STATUS] != 0
    setup = s[POOLS] != 0 or s[POOLS + 3] != 0
    phase = 2 if over else 0 if setup else 1
    mover = 1 if not over and s[SIDE] == seat else 0
    # The template (every decision starts a turn), then the ply fraction.
    size = oi[O_SIZE]
    area = oi[O_AREA]
    start = (((seat * oi[O_PHASES] + phase) * 2 + mover) * 2 + 1) * size
    copy_into(out, of[start : start + size])
    cap = oi[O_CAP]
    if cap:
        at = oi[O_PLY] * area
        out[at : at + area] = np.float32(min(s[PLY] / cap, 1.0))
    disc, top, height = oi[O_DISC], oi[O_TOP], oi[O_HEIGHT]
    for square in range(SQUARES):
        h = s[HEIGHT + square]
        if h == 0:
            continue
        mask = s[MASK + square]
        place = oi[O_PLACES + square]
        for level in range(h):
            colour = (mask >> level) & 1
            out[(disc + (colour - seat) % 2) * area + place] += 1.0
        out[height * area + place] = h
        out[(top + (((mask >> (h - 1)) & 1) - seat) % 2) * area + place] = 1.0
    first = 0 if setup else 1  # the unplaced pieces and supply in setup, then supply, reserve
    for owner in range(2):
        for role in range(first, first + 2):
            count = s[POOLS + 3 * owner + role]
            if count:
                at = oi[O_POOLS + (seat * 2 + owner) * 3 + role] * area
                out[at : at + area] = count
