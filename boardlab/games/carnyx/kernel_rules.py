"""The compiled Carnyx rules (Numba): the reference rules of ``state.py`` on an int64 array.

State ``s`` (offsets below): per square the stack height and a colour mask (bit ``i`` is the
colour of the ``i``-th piece from the bottom, 0 Dark, 1 Light), the no-return memory as the
*from* square of each *to* square (-1 when none), the side to move, the six pools, the hunker
bitmask, the last-ply marker (0 none, 1 ``x``, 2 ``p``), the ply, the outcome (status,
winner or -1 for a draw, termination code), the incremental Zobrist key of position-text
fields 1-6, bitmasks of the squares each colour controls and of the remembered squares (so
that the end check and the no-return clean-up need no scan), and the repetition history:
96 numbers plus the history (148 keys a side under the default ``max_plies=300``, 3.1 KB in
all; the history is what the repetition rule needs, the position itself is 768 bytes).

Bounds. Stacks hold at most 26 pieces and a pool at most 26: with ``conversion=supply`` each
colour's pieces on the board and in its pools never exceed 13 (a piece only leaves play), and
with ``token`` both colours together never exceed 26 (a removed piece becomes the captor's
token); the parser enforces these totals. The Zobrist tables cover 32 levels and pool values.

Repetition history: the keys of the turn starts since the last *irreversible* ply. The total
supply never grows, and with ``conversion=supply`` neither does the total of pieces on the
board and in the pools; so after a ply that lowers either, no earlier position can recur and
the history restarts there (exactly). Between restarts there is one entry per ply, kept per
side to move, so with a ply cap each side's history holds at most ``(max_plies - 4) // 2``
entries (play starts at ply 6, a side moves every other ply, and the position at the cap is
still counted; the parser admits no position of normal play before ply 6 or of the wrong
parity); the capacity is that, at most ``INLINE_LIMIT``. Nothing else bounds a stretch without
an irreversible ply: with no ply cap (or a larger one) each side's older keys move to the store
of :mod:`boardlab.core.kernel_history` (``NODE + side`` names them), exact for any length.

``legal`` writes at most ``MAX_LEGAL`` ids: per square 3 moves, except that a single on the
far rank has 2 sideways moves and an exit with up to 5 re-entry squares (20 x 3 + 5 x 7), plus
5 deployments and ``H`` = 101; ``pass`` comes alone.
"""

from __future__ import annotations

import numpy as np

from boardlab.core.jit import njit
from boardlab.core.kernel_history import record
from boardlab.games.carnyx.board import (
    CENTRE,
    DEPLOY_BASE,
    EXIT_BASE,
    HUNKER,
    MOVE_BASE,
    PASS,
    SETUP_BASE,
    SQUARES,
)

MAX_LEGAL = 101
LEVELS = 32
"""Zobrist rows per square (stack levels) and per pool (values)."""

# Parameter offsets.
P_MERGE, P_JUMP, P_IMMEDIATE, P_TOKEN, P_REENTRY, P_REPEAT, P_CAP, P_HISTORY = range(8)
P_STEP1 = 8
P_STEP2 = P_STEP1 + 4 * SQUARES
P_TARGET = P_STEP2 + 4 * SQUARES
Z_PIECE = P_TARGET + 8 * SQUARES
"""Z_PIECE + 2 * (LEVELS * square + level) + colour."""
Z_SIDE = Z_PIECE + 2 * LEVELS * SQUARES
Z_POOL = Z_SIDE + 1
"""Z_POOL + LEVELS * pool + value."""
Z_HUNKER = Z_POOL + 6 * LEVELS
Z_MEMORY = Z_HUNKER + 2
"""Z_MEMORY + SQUARES * to + from."""
Z_MARKER = Z_MEMORY + SQUARES * SQUARES
PARAMS_SIZE = Z_MARKER + 3

# State offsets.
HEIGHT = 0
MASK = HEIGHT + SQUARES
MEMORY = MASK + SQUARES
SIDE = MEMORY + SQUARES
POOLS = SIDE + 1
"""POOLS + 3 * seat + (0 unplaced, 1 supply, 2 reserve)."""
HUNKERED = POOLS + 6
MARKER = HUNKERED + 1
PLY = MARKER + 1
STATUS = PLY + 1
WINNER = STATUS + 1
TERMINATION = WINNER + 1
KEY = TERMINATION + 1
CONTROL = KEY + 1
"""CONTROL + colour: the squares that colour controls, one bit each."""
REMEMBERED = CONTROL + 2
"""The squares with a memory entry, one bit each."""
HISTORY_LENGTH = REMEMBERED + 1
NODE = HISTORY_LENGTH + 2
"""Dark's and Light's nodes in the store of :mod:`boardlab.core.kernel_history` (0: none)."""
HISTORY = NODE + 2
"""Dark's history, then Light's: ``P_HISTORY`` entries each."""

MARK_CAPTURE, MARK_PASS = 1, 2
(
    END_ALL_CAPTURED,
    END_EXHAUSTION,
    END_FORCED_PASSES,
    END_REPETITION,
    END_PLY_CAP,
) = range(1, 6)


@njit(cache=True)
def _top(s, square):  # type: ignore[no-untyped-def]
    """The colour controlling ``square``, or -1 when it is empty."""
    height = s[HEIGHT + square]
    if height == 0:
        return -1
    return (s[MASK + square] >> (height - 1)) & 1


@njit(cache=True)
def _set_pool(p, s, pool, value):  # type: ignore[no-untyped-def]
    s[KEY] ^= p[Z_POOL + LEVELS * pool + s[POOLS + pool]] ^ p[Z_POOL + LEVELS * pool + value]
    s[POOLS + pool] = value


@njit(cache=True)
def _forget(p, s, to):  # type: ignore[no-untyped-def]
    """Delete the memory entry of ``to``, if any."""
    origin = s[MEMORY + to]
    if origin >= 0:
        s[KEY] ^= p[Z_MEMORY + SQUARES * to + origin]
        s[MEMORY + to] = -1
        s[REMEMBERED] &= ~(1 << to)


@njit(cache=True)
def _push(p, s, square, colour):  # type: ignore[no-untyped-def]
    """Put one piece of ``colour`` on top of ``square``."""
    height = s[HEIGHT + square]
    s[MASK + square] |= colour << height
    s[HEIGHT + square] = height + 1
    s[KEY] ^= p[Z_PIECE + 2 * (LEVELS * square + height) + colour]
    s[CONTROL + 1 - colour] &= ~(1 << square)
    s[CONTROL + colour] |= 1 << square


@njit(cache=True)
def _lift(p, s, square):  # type: ignore[no-untyped-def]
    """Empty ``square``; returns its stack's height and colour mask."""
    height = s[HEIGHT + square]
    mask = s[MASK + square]
    for level in range(height):
        s[KEY] ^= p[Z_PIECE + 2 * (LEVELS * square + level) + ((mask >> level) & 1)]
    s[HEIGHT + square] = 0
    s[MASK + square] = 0
    s[CONTROL + (mask >> (height - 1) & 1)] &= ~(1 << square)
    return height, mask


@njit(cache=True)
def _candidates(p, s, out):  # type: ignore[no-untyped-def]
    """Write every candidate decision (spec §5 step 3) into ``out``; returns (count, captures)."""
    side = s[SIDE]
    other = 1 - side
    protected = (s[HUNKERED] >> other) & 1
    home = 0 if side == 0 else SQUARES - 5
    n = 0
    captures = 0
    own = s[CONTROL + side]
    for x in range(SQUARES):
        if not (own >> x) & 1:
            if own >> x == 0:
                break
            continue
        height = s[HEIGHT + x]
        back = s[MEMORY + x]
        for k in range(3):
            # Forward is north (0) for Dark and south (1) for Light; then west (2), east (3).
            d = side if k == 0 else k + 1
            if height == 1:
                y = p[P_STEP1 + 4 * x + d]
                distance = 1
            else:
                middle = p[P_STEP1 + 4 * x + d]
                y = -1
                if middle >= 0:
                    if p[P_JUMP] == 0 and _top(s, middle) == side:
                        continue
                    y = p[P_STEP2 + 4 * x + d]
                distance = 2
            if y < 0:
                if k != 0:
                    continue
                exit_id = EXIT_BASE + 6 * x
                named = 0
                if height == 1 and p[P_REENTRY]:
                    for r in range(5):
                        top = _top(s, home + r)
                        if top == -1 or top == side:
                            out[n] = exit_id + 1 + r
                            n += 1
                            named += 1
                if named == 0:
                    out[n] = exit_id
                    n += 1
                continue
            if y == back:
                continue
            top = _top(s, y)
            action = MOVE_BASE + 8 * x + 2 * d + distance - 1
            if top == -1:
                out[n] = action
                n += 1
            elif top == other:
                if not protected:
                    out[n] = action
                    n += 1
                    captures += 1
            elif p[P_MERGE]:
                out[n] = action
                n += 1
    if s[POOLS + 3 * side + 2] > 0:
        for r in range(5):
            top = _top(s, home + r)
            if top == -1 or top == side:
                out[n] = DEPLOY_BASE + home + r
                n += 1
    if not (s[HUNKERED] >> side) & 1:
        out[n] = HUNKER
        n += 1
    return n, captures


@njit(cache=True)
def legal(p, s, out):  # type: ignore[no-untyped-def]
    """The legal decisions (spec §5): setup placements, or the candidates after the filters."""
    if s[STATUS]:
        return 0
    side = s[SIDE]
    if s[POOLS] + s[POOLS + 3] > 0:
        home = 0 if side == 0 else SQUARES - 5
        for r in range(5):
            out[r] = SETUP_BASE + home + r
        return 5
    n, captures = _candidates(p, s, out)
    if captures and not (s[HUNKERED] >> side) & 1:
        # Forced capture: keep the captures (in place, in order), then H.
        kept = 0
        for i in range(n):
            action = out[i]
            if MOVE_BASE <= action < EXIT_BASE and _top(s, p[P_TARGET + action - MOVE_BASE]) == (
                1 - side
            ):
                out[kept] = action
                kept += 1
        out[kept] = HUNKER
        return kept + 1
    if n == 0:
        out[0] = PASS
        return 1
    return n


@njit(cache=True)
def _exit(p, s, action, side):  # type: ignore[no-untyped-def]
    """A piece or stack leaves the board (spec §7.5); returns the opponent pieces removed."""
    x = (action - EXIT_BASE) // 6
    slot = (action - EXIT_BASE) % 6
    height, mask = _lift(p, s, x)
    _forget(p, s, x)
    reserve = 3 * side + 2
    if height == 1:
        if slot:
            _push(p, s, (0 if side == 0 else SQUARES - 5) + slot - 1, side)
        else:
            _set_pool(p, s, reserve, s[POOLS + reserve] + 1)
        return 0
    mine = 0
    for level in range(height):
        if ((mask >> level) & 1) == side:
            mine += 1
    removed = height - mine
    gained = mine
    if p[P_TOKEN]:
        gained += removed
    else:
        converted = min(removed, s[POOLS + reserve - 1])
        _set_pool(p, s, reserve - 1, s[POOLS + reserve - 1] - converted)
        gained += converted
    _set_pool(p, s, reserve, s[POOLS + reserve] + gained)
    return removed


@njit(cache=True)
def _end(p, s, code, winner):  # type: ignore[no-untyped-def]
    s[STATUS] = 1
    s[WINNER] = winner
    s[TERMINATION] = code


@njit(cache=True)
def _check_end(p, s):  # type: ignore[no-untyped-def]
    """The game's own end checks at the start of a ply in normal play (spec §8, §9)."""
    side = s[SIDE]
    controls = s[CONTROL + side] != 0
    if not controls and s[MARKER] == MARK_CAPTURE:
        _end(p, s, END_ALL_CAPTURED, 1 - side)
    elif not controls and s[POOLS + 3 * side + 2] == 0:
        _end(p, s, END_EXHAUSTION, 1 - side)
    elif s[MARKER] == MARK_PASS and (s[HUNKERED] >> side) & 1:
        # Only a free player (who may not hunker) can be left with nothing but a pass.
        n, _ = _candidates(p, s, np.empty(MAX_LEGAL, np.int64))
        if n == 0:
            _end(p, s, END_FORCED_PASSES, -1)


@njit(cache=True)
def _check_shared(p, s, restart):  # type: ignore[no-untyped-def]
    """Repetition (counted in normal play only) and the ply cap (rules README §6.2)."""
    limit = p[P_REPEAT]
    if limit and s[POOLS] + s[POOLS + 3] == 0:
        if restart:
            s[HISTORY_LENGTH] = 0
            s[HISTORY_LENGTH + 1] = 0
            s[NODE] = 0
            s[NODE + 1] = 0
        # Each side's turn starts are kept apart: a key holds the side, so only they can match.
        side = s[SIDE]
        capacity = p[P_HISTORY]
        start = HISTORY + side * capacity
        count = record(s, start, capacity, HISTORY_LENGTH + side, NODE + side, s[KEY])
        if count >= limit:
            _end(p, s, END_REPETITION, -1)
            return
    if p[P_CAP] and s[PLY] >= p[P_CAP]:
        _end(p, s, END_PLY_CAP, -1)


@njit(cache=True)
def apply(p, s, action):  # type: ignore[no-untyped-def]
    """Play a legal decision in place (spec §4, §7), then the end checks (§8, §9)."""
    side = s[SIDE]
    if s[POOLS] + s[POOLS + 3] > 0:
        _push(p, s, action - SETUP_BASE, side)
        _set_pool(p, s, 3 * side, s[POOLS + 3 * side] - 1)
        s[PLY] += 1
        s[SIDE] = 1 - side
        s[KEY] ^= p[Z_SIDE]
        _check_shared(p, s, True)
        return
    if p[P_IMMEDIATE]:
        # §7.6 step 1: forget this player's previous move before playing the next one.
        stale = s[REMEMBERED] & s[CONTROL + side]
        for to in range(SQUARES):
            if stale >> to == 0:
                break
            if (stale >> to) & 1:
                _forget(p, s, to)
    supply = s[POOLS + 1] + s[POOLS + 4]
    removed = 0
    marker = 0
    reserve = 3 * side + 2
    if MOVE_BASE <= action < EXIT_BASE:
        x = (action - MOVE_BASE) >> 3
        y = p[P_TARGET + action - MOVE_BASE]
        if _top(s, y) == 1 - side:
            marker = MARK_CAPTURE
        height, mask = _lift(p, s, x)
        for level in range(height):
            _push(p, s, y, (mask >> level) & 1)
        _forget(p, s, x)
        _forget(p, s, y)
        s[MEMORY + y] = x
        s[REMEMBERED] |= 1 << y
        s[KEY] ^= p[Z_MEMORY + SQUARES * y + x]
        if y == CENTRE and s[POOLS + reserve - 1] > 0:
            _set_pool(p, s, reserve - 1, s[POOLS + reserve - 1] - 1)
            _set_pool(p, s, reserve, s[POOLS + reserve] + 1)
    elif EXIT_BASE <= action < HUNKER:
        removed = _exit(p, s, action, side)
    elif action == PASS:
        marker = MARK_PASS
    elif action != HUNKER:
        _push(p, s, action - DEPLOY_BASE, side)
        _set_pool(p, s, reserve, s[POOLS + reserve] - 1)
    hunkered = s[HUNKERED] | (1 << side) if action == HUNKER else s[HUNKERED] & ~(1 << side)
    s[KEY] ^= p[Z_HUNKER + side] if hunkered != s[HUNKERED] else 0
    s[HUNKERED] = hunkered
    s[KEY] ^= p[Z_MARKER + s[MARKER]] ^ p[Z_MARKER + marker]
    s[MARKER] = marker
    s[PLY] += 1
    s[SIDE] = 1 - side
    s[KEY] ^= p[Z_SIDE]
    _check_end(p, s)
    if not s[STATUS]:
        lost = removed > 0 and not p[P_TOKEN]
        _check_shared(p, s, lost or s[POOLS + 1] + s[POOLS + 4] < supply)


@njit(cache=True)
def is_over(p, s):  # type: ignore[no-untyped-def]
    """True once the game has ended."""
    return s[STATUS] != 0


@njit(cache=True)
def truncated(p, s):  # type: ignore[no-untyped-def]
    """True when the game ended by its ply cap (``Termination.PLY_CAP``)."""
    return s[STATUS] != 0 and s[TERMINATION] == END_PLY_CAP


@njit(cache=True)
def returns(p, s, out):  # type: ignore[no-untyped-def]
    """+1 for the winner, -1 for the loser, 0 each for a draw or a game still going."""
    out[0] = 0.0
    out[1] = 0.0
    winner = s[WINNER]
    if s[STATUS] and winner >= 0:
        out[winner] = 1.0
        out[1 - winner] = -1.0


@njit(cache=True)
def player(p, s):  # type: ignore[no-untyped-def]
    """The seat to move."""
    return s[SIDE]


@njit(cache=True)
def key(p, s):  # type: ignore[no-untyped-def]
    """The Zobrist key of position-text fields 1-6 (what repetition compares)."""
    return s[KEY]
