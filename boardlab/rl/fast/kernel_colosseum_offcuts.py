"""The Colosseum Offcuts observation planes in compiled code, read from a kernel state.

The same planes as :class:`~boardlab.rl.fast.colosseum_offcuts.ColosseumEncoder`, bit for
bit (``tests/rl/test_vector.py`` compares them at every position of seeded games, for every
seat count), for the batched environments of :mod:`boardlab.rl.vector`. The kernel keeps each
counter's cell and level in the action window (anchored one cell south-west of the counters,
as the reference's frame), so the planes are written counter by counter.
"""

from __future__ import annotations

import numpy as np

from boardlab.core.engine import Kernel, KernelArray
from boardlab.core.jit import numba
from boardlab.games.colosseum_offcuts.board import ATTACK, FORT
from boardlab.games.colosseum_offcuts.kernel_layout import (
    P_P2A,
    P_PLAYERS,
    P_W,
    S_CELL,
    S_LEVEL,
    S_MID,
    S_MODE,
    S_PLY,
    S_SETUP,
    S_SIDE,
    S_STATUS,
)
from boardlab.games.colosseum_offcuts.picture import PER_KIND
from boardlab.rl.fast.colosseum_offcuts import ColosseumEncoder
from boardlab.rl.fast.kernel_planes import begin, cell, cell_add, fill, finish, settle
from boardlab.rl.fast.kernel_tables import (
    HEADER,
    O_AREA,
    O_CAP,
    O_PHASES,
    O_PLY,
    O_SIZE,
    common_tables,
    sparse_templates,
)

USES_RECORD = True
""":func:`observe` writes through its record (:mod:`~boardlab.rl.fast.kernel_planes`): given
one with a log, it rewrites only what changed in the array it wrote before."""

_PHASES = ("setup", "play", "over")
_POOLED = ("board-piece/light", "fortification/light", "fortification")
# Integer slots after the header: where the templates' lists are (:func:`sparse_templates`, at
# the end), the top and height channels, the first piece channel of each counter code's kind
# and face (code & 3), then per (observing seat, owner) the pool channels of _POOLED (-1 when
# the vocabulary has none).
O_TEMPLATES, O_TOP, O_HEIGHT = HEADER, HEADER + 1, HEADER + 2
O_PIECES = HEADER + 3
O_POOLS = O_PIECES + 4


def observer_tables(kernel: Kernel, encoder: ColosseumEncoder) -> tuple[KernelArray, ...]:
    """The integer and float32 tables :func:`observe` reads for ``kernel``'s game."""
    header, templates = common_tables(kernel, encoder, _PHASES)
    ints = [*header, 0, encoder.channel("top seat+0"), encoder.channel("height")]
    for code in range(4):
        kind = "fortification" if code & FORT else "board-piece"
        ints.append(encoder.channel(f"piece {kind}/{'dark' if code & ATTACK else 'light'} seat+0"))
    players = encoder.players
    names = set(encoder.channel_names())
    for seat in range(players):
        for owner in range(players):
            for key in _POOLED:
                name = f"pool pool seat+{encoder.relative(owner, seat)} {key}"
                ints.append(encoder.channel(name) if name in names else -1)
    lists, planes = sparse_templates(templates, header[O_SIZE], header[O_AREA], len(ints), 0)
    ints[O_TEMPLATES] = len(ints)
    ints += lists
    return np.array(ints, dtype=np.int64), planes


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
    """Write the planes of kernel state ``s`` seen by ``seat`` into ``out`` (flat float32),
    through record ``rec`` (:mod:`~boardlab.rl.fast.kernel_planes`)."""
    setup = s[S_SETUP] != 0
    over = s[S_STATUS] != 0
    phase = 0 if setup else 2 if over else 1
    mover = 1 if not over and s[S_SIDE] == seat else 0
    turn = 1 if setup or s[S_MID] == 0 else 0
    area = oi[O_AREA]
    begin(rec, oi, oi[oi[O_TEMPLATES] + ((seat * oi[O_PHASES] + phase) * 2 + mover) * 2 + turn])
    cap = oi[O_CAP]
    if cap:
        fill(rec, oi[O_PLY], min(s[S_PLY] / cap, 1.0))
    players = p[P_PLAYERS]
    # The pools: the board pieces and forts of each owner not yet on the board.
    for owner in range(players):
        pieces = forts = 0
        for k in range(4 * owner, 4 * owner + 4):
            if s[S_CELL + k] >= 0:
                if (k >> 1) & 1:
                    forts += 1
                else:
                    pieces += 1
        pools = O_POOLS + (seat * players + owner) * 3
        if setup:
            if pieces < PER_KIND and oi[pools] >= 0:
                fill(rec, oi[pools], PER_KIND - pieces)
            if forts < PER_KIND and oi[pools + 1] >= 0:
                fill(rec, oi[pools + 1], PER_KIND - forts)
        elif forts < PER_KIND and oi[pools + 2] >= 0:
            fill(rec, oi[pools + 2], PER_KIND - forts)
    log = settle(out, rec, of, area)
    width = p[P_W]
    height = oi[O_HEIGHT] * area
    top = oi[O_TOP]
    east = -1  # the largest window column and row of a counter
    north = -1
    for k in range(4 * players):
        at = s[S_CELL + k]
        if at < 0:
            continue
        place = p[P_P2A + at]
        east = max(east, place // width)
        north = max(north, place % width)
        code = (k & 2) | s[S_MODE + k]
        piece = (oi[O_PIECES + code] + ((k >> 2) - seat) % players) * area + place
        log = cell_add(out, rec, log, piece, 1.0)
        log = cell(out, rec, log, height + place, max(out[height + place], s[S_LEVEL + k] + 1))
    for k in range(4 * players):  # the top counter of each stack: its level is the height - 1
        at = s[S_CELL + k]
        if at >= 0:
            place = p[P_P2A + at]
            if s[S_LEVEL + k] + 1 == out[height + place]:
                log = cell(out, rec, log, (top + ((k >> 2) - seat) % players) * area + place, 1.0)
    # The drawn area: the counters' box grown by one cell (3 x 3 with no counter yet).
    rows = min(east + 2 if east >= 0 else 3, width)
    columns = min(north + 2 if north >= 0 else 3, width)
    for row in range(rows):
        for column in range(columns):
            log = cell(out, rec, log, row * width + column, 1.0)
    finish(rec, log)
