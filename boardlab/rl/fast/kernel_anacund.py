"""The Anacund observation planes in compiled code, read from a kernel state.

The same planes as :class:`~boardlab.rl.fast.anacund.AnacundEncoder`, bit for bit
(``tests/rl/test_vector.py`` compares them at every position of seeded games), for the batched
environments of :mod:`boardlab.rl.vector`. Each square's code (plus five on the bonus square)
selects one column of per-square channels from the fast encoder's table; the layout's values,
the captured pieces, the groups left and the running scores are written from the state.
"""

from __future__ import annotations

import numpy as np

from boardlab.core.engine import Kernel, KernelArray
from boardlab.core.jit import numba
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
from boardlab.rl.fast.kernel_planes import copy_into
from boardlab.rl.fast.kernel_tables import (
    HEADER,
    O_AREA,
    O_CAP,
    O_PHASES,
    O_PLY,
    O_SIZE,
    common_tables,
    nonzero_entries,
    sparse_templates,
)

USES_RECORD = False
""":func:`observe` writes every plane and leaves its record unread (a record of no log
serves)."""

_PHASES = ("play", "over")
_CODES = 5
"""Square codes (free, a piece of seat 0 or 1, blocked beside by seat 0 or 1); plus five on
the bonus square."""
# Integer slots after the header: the value channel, the entries per square code (below), the
# float offset of their values, the first channel and the number of channels of the block of
# broadcast channels (pools and scores), where the templates' lists are
# (:func:`sparse_templates`, at the end), each square's grid place; then per (observing seat,
# owner): the captured channel, the score channel, and the channel of each group size 1-6;
# then per (observing seat, square code) the per-square channels that code sets,
# ``O_SQUARE_CHANNELS`` entries padded with -1.
O_VALUE, O_SQUARE_CHANNELS, O_TABLES, O_BLOCK, O_BLOCK_SIZE, O_TEMPLATES = range(HEADER, HEADER + 6)
O_PLACES = HEADER + 6
O_CAPTURED = O_PLACES + SQUARES
O_SCORES = O_CAPTURED + 4
O_GROUPS = O_SCORES + 4
O_SET = O_GROUPS + 24


def observer_tables(kernel: Kernel, encoder: AnacundEncoder) -> tuple[KernelArray, ...]:
    """The integer and float32 tables :func:`observe` reads for ``kernel``'s game."""
    header, templates = common_tables(kernel, encoder, _PHASES)
    width, channels, values = nonzero_entries(encoder.square_tables())
    block = encoder.channel("pool groups seat+0 piece")
    block_size = encoder.channel(f"score seat+{encoder.players - 1}") + 1 - block
    # The block is 0 in every template, so a plane of it left at 0 needs no writing.
    size, area = header[O_SIZE], header[O_AREA]
    assert not templates.reshape(-1, size)[:, block * area : (block + block_size) * area].any()
    ints = [*header, encoder.channel("cell value"), width, 0, block, block_size, 0]
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
    ints += channels
    lists, planes = sparse_templates(templates, size, area, len(ints), values.size)
    ints[O_TEMPLATES] = len(ints)
    ints += lists
    floats = np.concatenate([values, planes]).astype(np.float32)
    return np.array(ints, dtype=np.int64), floats


@numba.njit(cache=True)
def _start(out: KernelArray, oi: KernelArray, of: KernelArray, template: int, area: int) -> None:
    """Write template ``template`` (:func:`~boardlab.rl.fast.kernel_tables.sparse_templates`):
    zeros, then its few nonzero planes."""
    out[:] = 0.0
    at = oi[oi[O_TEMPLATES] + template]
    for k in range(oi[at]):
        channel = oi[at + 1 + 2 * k]
        plane = oi[at + 2 + 2 * k]
        copy_into(out[channel * area :], of[plane : plane + area])


@numba.njit(cache=True)
def _broadcast(out: KernelArray, channel: int, area: int, value: float) -> None:
    """Fill one whole plane with ``value``."""
    at = channel * area
    out[at : at + area] = value


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
    read. At 2,346 floats, writing them all costs less than logging the cells to rewrite
    only what changed (measured: ``docs/rl.md``)."""
    over = 1 if s[STATUS] != 0 else 0
    mover = 1 if over == 0 and s[SIDE] == seat else 0
    turn = 1 if s[SUB] == 0 else 0
    area = oi[O_AREA]
    _start(out, oi, of, ((seat * oi[O_PHASES] + over) * 2 + mover) * 2 + turn, area)
    # The block of pools and scores (zeros now): each plane's value is summed in its first
    # place, and the planes that are not 0 filled from there at the end (nothing allocated).
    block = oi[O_BLOCK] * area
    block_end = block + oi[O_BLOCK_SIZE] * area
    cap = oi[O_CAP]
    if cap:
        _broadcast(out, oi[O_PLY], area, min(s[PLY] / cap, 1.0))
    width = oi[O_SQUARE_CHANNELS]
    entries = seat * 2 * _CODES * width
    value = oi[O_VALUE] * area
    bonus = s[BONUS]
    for square in range(SQUARES):
        code = s[BOARD + square]
        if code != 0:
            # A piece scores for its owner, one more if it is blocked (captured); the bonus
            # square adds the bonus points.
            pair = seat * 2 + (code - 1) % 2
            points = 1 + (p[P_BONUS_POINTS] if square == bonus else 0)
            out[oi[O_SCORES + pair] * area] += points
            if code >= 3:
                out[oi[O_CAPTURED + pair] * area] += 1.0
        if square == bonus:
            code += _CODES
        place = oi[O_PLACES + square]
        at = entries + code * width
        for k in range(width):
            channel = oi[O_SET + at + k]
            if channel < 0:
                break
            out[channel * area + place] = of[oi[O_TABLES] + at + k]
        out[value + place] = s[VALUES + square]
    for owner in range(2):
        pair = seat * 2 + owner
        for slot in range(3):
            group = s[GROUPS + 3 * owner + slot]
            if group:
                out[oi[O_GROUPS + pair * 6 + group - 1] * area] += 1.0
    for at in range(block, block_end, area):
        if out[at] != 0.0:
            _broadcast(out, at // area, area, out[at])
