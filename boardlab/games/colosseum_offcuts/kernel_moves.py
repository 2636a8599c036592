"""Legal decisions of the Colosseum Offcuts kernel: setup placements (§4) and actions (§6).

The same generation as :mod:`rules`, on arrays: each call lays the counters of ``s`` out on a
scratch grid of the padded window (heights, bottom and top counters), labels connected groups
by flood fill and grows the exterior as one bit mask per column (24 rows fit an int64).

Action ids are the reference's (see :mod:`rules`); ``max_legal = 64n + 4`` bounds them: each
of the mover's at most four counters gives one flip and either four Attack moves or at most
``4 * (4n - 1)`` Mobile destinations (empty cells touching the other counters); a placement
goes next to one of at most ``4n`` counters (``4 * 4n`` cells); ``pass`` comes alone.
"""

from __future__ import annotations

import numpy as np

from boardlab.core.engine import KernelArray as Array
from boardlab.games.colosseum_offcuts.kernel_layout import (
    MAX_COUNTERS,
    P_LIFT,
    P_LIFTED,
    P_P2A,
    P_PLAYERS,
    P_SLIDE,
    P_W,
    PC,
    PW,
    S_AX,
    S_AY,
    S_CELL,
    S_LEVEL,
    S_MODE,
    S_SETUP,
    S_SIDE,
    S_STATUS,
    compiled,
)

# Scratch grids (uint8, one block of PC cells each) and the int64 work array's parts.
G_HEIGHT = 0
G_BOTTOM = PC
G_TOP = 2 * PC
G_MARK = 3 * PC
G_LABEL = 4 * PC
GRID_SIZE = 5 * PC
W_CELLS = PC
"""The occupied cells (one per stack) follow the flood stack in the work array."""
W_DESTS = W_CELLS + MAX_COUNTERS
W_OCCUPIED = W_DESTS + 4 * MAX_COUNTERS
"""One bit mask per padded column: bit ``y`` set where the cell is occupied."""
W_EXTERIOR = W_OCCUPIED + PW
"""The same for the exterior (§2), ring included."""
W_SAVED = W_EXTERIOR + PW
"""The footprint's exterior while a lifted counter's is in use."""
WORK_SIZE = W_SAVED + PW

STEPS = (PW, 1, -PW, -1)
"""Padded-index step of each direction of :data:`board.DIRECTIONS`: east, north, west, south."""


@compiled
def legal(p: Array, s: Array, out: Array) -> int:
    """Write the legal action ids of ``s`` into ``out``; return their number (0 when over)."""
    if s[S_STATUS]:
        return 0
    grid = np.zeros(GRID_SIZE, np.uint8)
    work = np.empty(WORK_SIZE, np.int64)
    count = _lay_out(p, s, grid, work)
    if s[S_SETUP]:
        return _placements(p, s, grid, work, count, out)
    found = _play_actions(p, s, grid, work, count, out)
    if found == 0:
        cells = p[P_W] * p[P_W]
        out[0] = 6 * cells + cells * cells
        found = 1
    return found


@compiled
def _lay_out(p: Array, s: Array, grid: Array, work: Array) -> int:
    """Heights, bottom and top counters of every cell; the occupied cells into the work array."""
    counters = 4 * p[P_PLAYERS]
    count = 0
    work[W_OCCUPIED : W_OCCUPIED + PW] = 0
    for k in range(counters):
        c = s[S_CELL + k]
        if c >= 0:
            grid[G_HEIGHT + c] += 1
            if s[S_LEVEL + k] == 0:
                grid[G_BOTTOM + c] = k
                work[W_CELLS + count] = c
                work[W_OCCUPIED + c // PW] |= 1 << (c % PW)
                count += 1
    for k in range(counters):
        c = s[S_CELL + k]
        if c >= 0 and s[S_LEVEL + k] == grid[G_HEIGHT + c] - 1:
            grid[G_TOP + c] = k
    return count


@compiled
def _placements(p: Array, s: Array, grid: Array, work: Array, count: int, out: Array) -> int:
    """Placement cells of the setup step for the side to move, fallback included (§4)."""
    width = p[P_W]
    if count == 0:
        out[0] = -s[S_AX] * width - s[S_AY]  # the cell 0,0 (step S1)
        return 1
    side = s[S_SIDE]
    step = s[S_SETUP]
    candidates = 0
    for i in range(count):
        c = work[W_CELLS + i]
        for step_to in STEPS:
            u = c + step_to
            if grid[G_HEIGHT + u] == 0 and grid[G_MARK + u] == 0:
                grid[G_MARK + u] = 1
                work[W_DESTS + candidates] = u
                candidates += 1
    found = 0
    for j in range(candidates):
        u = work[W_DESTS + j]
        near = 0
        own_piece = False
        foreign_piece = False
        foreign = False
        for step_to in STEPS:
            v = u + step_to
            if grid[G_HEIGHT + v]:
                k = grid[G_BOTTOM + v]
                near += 1
                mine = k >> 2 == side
                if not k & 2:
                    if mine:
                        own_piece = True
                    else:
                        foreign_piece = True
                if not mine:
                    foreign = True
        if step == 2:
            ok = near == 1
        elif step <= 4:
            ok = own_piece and not foreign_piece
        else:
            ok = not foreign
        if ok:
            out[found] = p[P_P2A + u]
            found += 1
    if found == 0:
        # The fallback: next to one of the placer's own counters, else anywhere next to one.
        for j in range(candidates):
            u = work[W_DESTS + j]
            for step_to in STEPS:
                v = u + step_to
                if grid[G_HEIGHT + v] and grid[G_BOTTOM + v] >> 2 == side:
                    out[found] = p[P_P2A + u]
                    found += 1
                    break
    if found == 0:
        for j in range(candidates):
            out[j] = p[P_P2A + work[W_DESTS + j]]
        found = candidates
    return found


@compiled
def _play_actions(p: Array, s: Array, grid: Array, work: Array, count: int, out: Array) -> int:
    """Flips, Attack moves and Mobile moves of the side to move (§6)."""
    side = s[S_SIDE]
    cells = p[P_W] * p[P_W]
    right = 0
    up = 0
    for i in range(count):
        c = work[W_CELLS + i]
        right = max(right, c // PW)
        up = max(up, c % PW)
    found = 0
    outside = False
    for k in range(4 * side, 4 * side + 4):
        o = s[S_CELL + k]
        if o < 0:
            continue
        height = grid[G_HEIGHT + o]
        if s[S_LEVEL + k] == height - 1:
            if height == 1:
                out[found] = cells + p[P_P2A + o]
                found += 1
            if s[S_MODE + k]:
                found = _attack_moves(p, grid, work, count, o, out, found)
        if s[S_LEVEL + k] == 0 and not s[S_MODE + k]:
            if not outside:
                # The exterior of the whole footprint, once; each origin then opens its cell.
                _exterior(work, right, up)
                outside = True
            found = _mobile_moves(p, grid, work, count, o, right, up, out, found)
    return found


@compiled
def _label(grid: Array, work: Array, count: int, gone: int) -> int:
    """Label the 4-connected groups of the occupied cells other than ``gone``; their number."""
    parts = 0
    for i in range(count):
        start = work[W_CELLS + i]
        if start == gone or grid[G_LABEL + start]:
            continue
        parts += 1
        grid[G_LABEL + start] = parts
        work[0] = start
        todo = 1
        while todo:
            todo -= 1
            c = work[todo]
            for step_to in STEPS:
                u = c + step_to
                if grid[G_HEIGHT + u] and u != gone and grid[G_LABEL + u] == 0:
                    grid[G_LABEL + u] = parts
                    work[todo] = u
                    todo += 1
    return parts


@compiled
def _unlabel(grid: Array, work: Array, count: int) -> None:
    for i in range(count):
        grid[G_LABEL + work[W_CELLS + i]] = 0


@compiled
def _touches_every_part(grid: Array, u: int, parts: int) -> bool:
    """True when the empty cell ``u`` touches every labelled group (``connectivity=final``)."""
    seen = 0
    for step_to in STEPS:
        seen |= 1 << grid[G_LABEL + u + step_to]
    return seen | 1 == (1 << (parts + 1)) - 1


@compiled
def _exterior(work: Array, right: int, up: int) -> None:
    """The exterior of the occupied cells (§2), as column bit masks in the work array.

    The footprint's bounding box spans padded columns ``2..right`` and rows ``2..up``; the ring
    around it is exterior, and the exterior grows inward through empty cells, as the
    reference's flood does.
    """
    ring = (1 << 1) | (1 << (up + 1))
    full = ((1 << (up + 2)) - 1) & ~1
    work[W_EXTERIOR + 1] = full
    work[W_EXTERIOR + right + 1] = full
    for x in range(2, right + 1):
        work[W_EXTERIOR + x] = ring
    _grow(work, right, up)


@compiled
def _grow(work: Array, right: int, up: int) -> None:
    """Grow the exterior masks through empty cells to their fixed point."""
    inner = ((1 << (up + 1)) - 1) & ~3
    changed = True
    while changed:
        changed = False
        for sweep in range(2 * right - 2):
            # Columns left to right, then right to left, so one round carries both ways.
            x = 2 + sweep if sweep < right - 1 else 2 * right - 1 - sweep
            free = inner & ~work[W_OCCUPIED + x]
            old = work[W_EXTERIOR + x]
            side = work[W_EXTERIOR + x - 1] | work[W_EXTERIOR + x + 1]
            new = old | ((old << 1) | (old >> 1) | side) & free
            if new != old:
                while True:
                    more = new | ((new << 1) | (new >> 1)) & free
                    if more == new:
                        break
                    new = more
                work[W_EXTERIOR + x] = new
                changed = True


@compiled
def _outside(work: Array, u: int) -> int:
    """1 when cell ``u`` (in the bounding box or its ring) is exterior."""
    return int((work[W_EXTERIOR + u // PW] >> (u % PW)) & 1)


@compiled
def _lift(grid: Array, work: Array, right: int, up: int, o: int) -> int:
    """Turn the footprint's exterior into the exterior without the counter on ``o``.

    Lifting ``o`` changes the exterior only if ``o`` touches it: then ``o`` joins it, and so
    does every hole next to ``o`` (grown to the fixed point again, the rare case). Returns
    what :func:`_restore` must undo: 0 nothing, 1 the bit of ``o``, 2 every column.
    """
    touches = False
    hole_next = False
    for step_to in STEPS:
        u = o + step_to
        if _outside(work, u):
            touches = True
        elif grid[G_HEIGHT + u] == 0:
            hole_next = True
    if not touches:
        return 0
    if hole_next:
        for x in range(1, right + 2):
            work[W_SAVED + x] = work[W_EXTERIOR + x]
    work[W_EXTERIOR + o // PW] |= 1 << (o % PW)
    if not hole_next:
        return 1
    _grow(work, right, up)
    return 2


@compiled
def _restore(work: Array, right: int, o: int, lifted: int) -> None:
    """Undo :func:`_lift`."""
    if lifted == 1:
        work[W_EXTERIOR + o // PW] &= ~(1 << (o % PW))
    elif lifted == 2:
        for x in range(1, right + 2):
            work[W_EXTERIOR + x] = work[W_SAVED + x]


@compiled
def _attack_moves(
    p: Array, grid: Array, work: Array, count: int, o: int, out: Array, found: int
) -> int:
    """Attack moves of the top counter on ``o`` (§6.2)."""
    alone = grid[G_HEIGHT + o] == 1
    parts = 1
    if alone:
        parts = _label(grid, work, count, o)
        if parts > 1 and p[P_LIFT]:
            _unlabel(grid, work, count)
            return found
    base = 2 * p[P_W] * p[P_W] + 4 * p[P_P2A + o]
    for direction in range(4):
        u = o + STEPS[direction]
        ok = False
        if grid[G_HEIGHT + u]:
            ok = parts == 1
        elif parts > 1:
            ok = _touches_every_part(grid, u, parts)
        else:
            for step_to in STEPS:
                v = u + step_to
                if grid[G_HEIGHT + v] and not (alone and v == o):
                    ok = True
        if ok:
            out[found] = base + direction
            found += 1
    if alone:
        _unlabel(grid, work, count)
    return found


@compiled
def _mobile_moves(
    p: Array,
    grid: Array,
    work: Array,
    count: int,
    o: int,
    right: int,
    up: int,
    out: Array,
    found: int,
) -> int:
    """Mobile moves of the stack on ``o`` (§6.1); the work array holds the footprint's exterior."""
    parts = _label(grid, work, count, o)
    if parts > 1 and p[P_LIFT]:
        _unlabel(grid, work, count)
        return found
    lifted = p[P_LIFTED]
    slide = p[P_SLIDE]
    hole = o if lifted else -1
    # Targets are measured on the exterior without o (lifted) or with it (before); the slide
    # condition always uses the exterior without o.
    undo = _lift(grid, work, right, up, o) if lifted else 0
    dests = 0
    for i in range(count):
        t = work[W_CELLS + i]
        if t == o:
            continue
        exposed = 0
        open_edge = False
        for step_to in STEPS:
            u = t + step_to
            if grid[G_HEIGHT + u] == 0 or u == hole:
                exposed += 1
                if _outside(work, u):
                    open_edge = True
        if exposed >= 2 and open_edge:
            for step_to in STEPS:
                u = t + step_to
                if grid[G_HEIGHT + u] == 0 and grid[G_MARK + u] == 0:
                    grid[G_MARK + u] = 1
                    work[W_DESTS + dests] = u
                    dests += 1
    if slide and not lifted:
        undo = _lift(grid, work, right, up, o)
    cells = p[P_W] * p[P_W]
    base = 6 * cells + cells * p[P_P2A + o]
    start = not slide or _outside(work, o)
    for j in range(dests):
        d = work[W_DESTS + j]
        grid[G_MARK + d] = 0
        if not start or (slide and not _outside(work, d)):
            continue
        if parts > 1 and not _touches_every_part(grid, d, parts):
            continue
        out[found] = base + p[P_P2A + d]
        found += 1
    _restore(work, right, o, undo)
    _unlabel(grid, work, count)
    return found
