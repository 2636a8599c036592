"""The Cyvasse observation planes in compiled code, read from a kernel state.

The same planes as :class:`~boardlab.rl.fast.cyvasse.CyvasseEncoder`, bit for bit
(``tests/rl/test_vector.py`` compares them at every position of seeded games), for the batched
environments of :mod:`boardlab.rl.vector`. The kernel state holds the whole truth; during a
hidden deployment the zones the observing seat may not see (``view_hidden_zones``: South's
zone from North's first decision on, North's from its own first placement) are read as empty
and their pools as one unknown item, so nothing of the other side's placements reaches the
planes.
"""

from __future__ import annotations

import numpy as np

from boardlab.core.engine import Kernel, KernelArray
from boardlab.core.jit import numba
from boardlab.games.cyvasse.board import HEX_NAMES, NUM_HEXES, ZONE_OF
from boardlab.games.cyvasse.kernel_rules import (
    CELLS,
    S_BOARD,
    S_DEPLOYING,
    S_HIDDEN,
    S_JUMP_FROM,
    S_PLACED,
    S_PLY,
    S_SIDE,
    S_STATUS,
)
from boardlab.games.cyvasse.units import ITEM_LETTERS, SIDE_BASE, UNIT_LETTERS
from boardlab.rl.fast.cyvasse import CyvasseEncoder
from boardlab.rl.fast.kernel_planes import VALID, begin, fill, finish, key_space, settle
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

USES_RECORD = True
""":func:`observe` writes through its record (:mod:`~boardlab.rl.fast.kernel_planes`): given
one with a log, it rewrites only what changed in the array it wrote before."""

_PHASES = ("deployment", "play", "over")
_UNITS = len(UNIT_LETTERS)
_ITEMS = len(ITEM_LETTERS)
"""The pool channels of a side: one per item kind (units and Mountain), then ``item``."""
_SOUTH, _NORTH = SIDE_BASE
_BITS = 6
"""Bits per unit kind of a side's count of units on the board (an army has at most 40 items)."""
_KIND_MASK = (1 << _BITS) - 1
assert _BITS * _UNITS < 63, "a side's counts fit in one int64"
# Integer slots after the header: the entries per cell code (below), the float offsets of
# their values and of the items-left table, the hidden_setup option, the deployment's length,
# where the templates' lists are (:func:`sparse_templates`, at the end); each hex's grid
# place and zone (-1 for none); per (observing seat, zone) the zone and hidden channels; per
# (observing seat, side) its first pool channel; the army's count of each unit kind; then per
# (observing seat, cell code) the stack channels that code sets, ``O_STACK`` entries padded
# with -1 (a unit or Mountain sets three of the 24: its piece, top and height).
O_STACK, O_TABLES, O_LEFT, O_HIDDEN_SETUP, O_ORDER, O_TEMPLATES = range(HEADER, HEADER + 6)
O_PLACES = HEADER + 6
O_ZONE_OF = O_PLACES + NUM_HEXES
O_ZONE_CHANNELS = O_ZONE_OF + NUM_HEXES
O_POOLS = O_ZONE_CHANNELS + 8
O_COUNTS = O_POOLS + 4
O_SET = O_COUNTS + _UNITS


def observer_tables(kernel: Kernel, encoder: CyvasseEncoder) -> tuple[KernelArray, ...]:
    """The integer and float32 tables :func:`observe` reads for ``kernel``'s game."""
    game = kernel.game
    header, templates = common_tables(kernel, encoder, _PHASES)
    width, channels, values = nonzero_entries(encoder.stack_tables())
    left = encoder.items_left(game.order).reshape(-1)  # type: ignore[attr-defined]
    ints = [*header, width, 0, values.size]
    ints += [int(game.hidden_setup), len(game.order), 0]  # type: ignore[attr-defined]
    ints += [encoder.grid_place(HEX_NAMES[h]) for h in range(NUM_HEXES)]
    ints += list(ZONE_OF)
    ints += [
        encoder.channel(f"cell {kind} seat+{encoder.relative(zone, seat)}")
        for seat in range(2)
        for zone in range(2)
        for kind in ("zone", "hidden")
    ]
    ints += [
        encoder.channel(f"pool pool seat+{encoder.relative(side, seat)} king")
        for seat in range(2)
        for side in range(2)
    ]
    ints += list(game.counts[:_UNITS])  # type: ignore[attr-defined]
    ints += channels
    # observe() keys its cells: it clears a cell to zero, so every plane a cell lies on must
    # be zeros in every template (the planes it fills, the pools and the ply, are others).
    cell_channels = sorted({c for c in channels if c >= 0} | set(ints[O_ZONE_CHANNELS:O_POOLS]))
    if templates.reshape(-1, *encoder.shape)[:, cell_channels].any():
        raise ValueError("a Cyvasse cell lies on a plane whose base is not zeros")
    size, area = header[O_SIZE], header[O_AREA]
    lists, planes = sparse_templates(templates, size, area, len(ints), values.size + left.size)
    ints[O_TEMPLATES] = len(ints)
    ints += lists
    floats = np.concatenate([values, left, planes]).astype(np.float32)
    return np.array(ints, dtype=np.int64), floats


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
    over = s[S_STATUS] != 0
    deploying = s[S_DEPLOYING] != 0
    phase = 2 if over else 0 if deploying else 1
    mover = 1 if not over and s[S_SIDE] == seat else 0
    turn = 1 if (s[S_PLACED] == 0 if deploying else s[S_JUMP_FROM] < 0) else 0
    area = oi[O_AREA]
    template = ((seat * oi[O_PHASES] + phase) * 2 + mover) * 2 + turn
    begin(rec, oi, oi[oi[O_TEMPLATES] + template])
    cap = oi[O_CAP]
    if cap:
        fill(rec, oi[O_PLY], min(s[S_PLY] / cap, 1.0))
    side_to_move = s[S_SIDE]
    hidden = s[S_HIDDEN] if deploying else 0  # bit z: zone z is hidden
    if deploying and oi[O_HIDDEN_SETUP]:
        # South deploys first: its zone is secret all through the deployment; North's once
        # North deploys. A seat always sees its own.
        for zone in range(side_to_move + 1):
            if zone != seat:
                hidden |= 1 << zone
    # The pools: in play each side's units not lost (the army's counts less those on the
    # board), in the deployment the items left to place (one unknown item if hidden). The
    # units on the board are counted per side in one integer, _BITS bits a kind.
    on_board = (0, 0)
    if not deploying:
        south = north = 0
        for h in range(NUM_HEXES):
            code = s[S_BOARD + h]
            if code >= _NORTH:
                north += 1 << (_BITS * (code - _NORTH))
            elif code >= _SOUTH:
                south += 1 << (_BITS * (code - _SOUTH))
        on_board = (south, north)
    for side in range(2):
        first = oi[O_POOLS + seat * 2 + side]
        if not deploying:
            counted = on_board[side]
            for kind in range(_UNITS):
                standing = (counted >> (_BITS * kind)) & _KIND_MASK
                fill(rec, first + kind, oi[O_COUNTS + kind] - standing)
            for item in range(_UNITS, _ITEMS + 1):
                fill(rec, first + item, 0.0)
        elif (hidden >> side) & 1:
            for item in range(_ITEMS):
                fill(rec, first + item, 0.0)
            fill(rec, first + _ITEMS, 1.0)
        else:
            done = oi[O_ORDER]
            placed = s[S_PLACED] if side == side_to_move else 0 if side > side_to_move else done
            row = oi[O_LEFT] + placed * _ITEMS
            for item in range(_ITEMS):
                fill(rec, first + item, of[row + item])
            fill(rec, first + _ITEMS, 0.0)
    held = rec[VALID] != 0.0  # the row holds the cells keyed in the record
    log = settle(out, rec, of, area)
    # The cells, keyed (kernel_planes): per hex, the code whose stack cells it shows for this
    # seat (seat * CELLS + code, -1 for none) and its zone cell's channel (-1 for none); a hex
    # whose keys are unchanged keeps its cells, the others clear theirs and write the new.
    keys = key_space(rec, 2 * NUM_HEXES)
    width = oi[O_STACK]
    for h in range(NUM_HEXES):
        code = s[S_BOARD + h]
        zone_channel = -1
        if deploying:
            zone = oi[O_ZONE_OF + h]
            if zone >= 0:
                hides = (hidden >> zone) & 1
                if hides:
                    code = 0
                zone_channel = oi[O_ZONE_CHANNELS + (seat * 2 + zone) * 2 + hides]
        key = seat * CELLS + code if code else -1
        old_key = old_zone = -1
        if keys >= 0:
            if held:
                old_key, old_zone = int(rec[keys + 2 * h]), int(rec[keys + 2 * h + 1])
                if old_key == key and old_zone == zone_channel:
                    continue
            rec[keys + 2 * h] = key
            rec[keys + 2 * h + 1] = zone_channel
        place = oi[O_PLACES + h]
        if old_zone != zone_channel:
            if old_zone >= 0:
                out[old_zone * area + place] = 0.0
            if zone_channel >= 0:
                out[zone_channel * area + place] = 1.0
        if old_key != key:
            if old_key >= 0:
                for k in range(old_key * width, old_key * width + width):
                    channel = oi[O_SET + k]
                    if channel < 0:
                        break
                    out[channel * area + place] = 0.0
            if key >= 0:
                for k in range(key * width, key * width + width):
                    channel = oi[O_SET + k]
                    if channel < 0:
                        break
                    out[channel * area + place] = of[oi[O_TABLES] + k]
    finish(rec, log)
