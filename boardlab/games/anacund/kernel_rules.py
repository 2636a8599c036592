"""The compiled Anacund rules (Numba): the reference rules of ``rules.py`` on an int64 array.

State ``s`` (offsets below): the 36 square codes of ``rules.py`` (free, A piece, B piece,
blocked beside by A, blocked beside by B), the layout (36 values and the bonus square: a
position text carries its own layout, so the state does too), the side to move, the sub-step,
both players' group sizes in descending order, the ply (completed turns), the outcome (status,
winner or -1 for a draw, both scores), the incremental Zobrist key of the position text, and
bitmasks of the free squares and of the squares of each value (so that ``legal`` visits only
its targets). 94 numbers, 752 bytes.

No repetition history: every placement fills a square, so no position recurs, and the game
always ends after 36 placements (spec §7, §9); Anacund has no ``repetition_draw`` or
``max_plies`` option. ``legal`` writes at most 3 x 36 = 108 ids (each distinct group size
targets at most every square).
"""

from __future__ import annotations

from boardlab.core.jit import njit

SQUARES = 36
MAX_LEGAL = 3 * SQUARES
FREE = 0
CODES = 5
"""Square codes: FREE, A piece, B piece, blocked by A, blocked by B (see ``rules.py``)."""

# Parameter offsets.
P_BONUS_POINTS = 0
P_TIE_B = 1
P_NEXT = 2
P_PREVIOUS = P_NEXT + SQUARES
"""Neighbour tables along the ring, -1 past the ends of an open track."""
Z_SQUARE = P_PREVIOUS + SQUARES
"""Z_SQUARE + CODES * square + code."""
Z_SIDE = Z_SQUARE + CODES * SQUARES
Z_SUB = Z_SIDE + 1
Z_GROUP = Z_SUB + 3
"""Z_GROUP + 7 * (3 * seat + slot) + size."""
Z_VALUE = Z_GROUP + 7 * 6
"""Z_VALUE + 7 * square + value."""
Z_BONUS = Z_VALUE + 7 * SQUARES
P_BIT_INDEX = Z_BONUS + SQUARES
"""P_BIT_INDEX + (((bit * DE_BRUIJN) >> 58) & 63): the index of a one-bit number."""
PARAMS_SIZE = P_BIT_INDEX + 64
DE_BRUIJN = 0x03F79D71B4CB0A89

# State offsets.
BOARD = 0
VALUES = BOARD + SQUARES
BONUS = VALUES + SQUARES
"""The bonus square's index (0-based)."""
SIDE = BONUS + 1
SUB = SIDE + 1
GROUPS = SUB + 1
"""GROUPS + 3 * seat + slot, sizes in descending order."""
PLY = GROUPS + 6
STATUS = PLY + 1
WINNER = STATUS + 1
SCORES = WINNER + 1
KEY = SCORES + 2
FREE_SQUARES = KEY + 1
"""The free squares, one bit each."""
VALUE_SQUARES = FREE_SQUARES + 1
"""VALUE_SQUARES + value - 1: the squares of that value, one bit each."""
STATE_SIZE = VALUE_SQUARES + 6


@njit(cache=True)
def legal(p, s, out):  # type: ignore[no-untyped-def]
    """Every legal placement (spec §6): per distinct group size, the free squares of that
    value, or every free square when none of that value is left."""
    if s[STATUS]:
        return 0
    groups = GROUPS + 3 * s[SIDE]
    free = s[FREE_SQUARES]
    n = 0
    for slot in range(3):
        size = s[groups + slot]
        if size == 0 or (slot > 0 and size == s[groups + slot - 1]):
            continue
        base = (size - 1) * SQUARES
        targets = free & s[VALUE_SQUARES + size - 1]
        if targets == 0:
            targets = free
        while targets:
            bit = targets & -targets
            out[n] = base + p[P_BIT_INDEX + (((bit * DE_BRUIJN) >> 58) & 63)]
            n += 1
            targets ^= bit
    return n


@njit(cache=True)
def _set(p, s, square, code):  # type: ignore[no-untyped-def]
    s[KEY] ^= p[Z_SQUARE + CODES * square + s[BOARD + square]] ^ p[Z_SQUARE + CODES * square + code]
    s[BOARD + square] = code


@njit(cache=True)
def _flanked_run(p, s, start, step, theirs, mine, placed):  # type: ignore[no-untyped-def]
    """Length of the ``theirs`` run from ``start`` along table ``step`` if a ``mine`` piece
    closes it on a square other than ``placed``, else 0."""
    length = 0
    j = start
    while j >= 0 and s[BOARD + j] == theirs:
        length += 1
        j = p[step + j]
    if j >= 0 and j != placed and s[BOARD + j] == mine:
        return length
    return 0


@njit(cache=True)
def _block(p, s, start, step, length, code):  # type: ignore[no-untyped-def]
    j = start
    for _ in range(length):
        _set(p, s, j, code)
        j = p[step + j]


@njit(cache=True)
def _own_run_end(p, s, index, step, mine):  # type: ignore[no-untyped-def]
    """The square just past the ``mine`` run from ``index`` along ``step`` (-1 at a track
    end, ``index`` when the run goes all the way round) and the run's length past ``index``."""
    length = 0
    j = p[step + index]
    while j >= 0 and j != index and s[BOARD + j] == mine:
        length += 1
        j = p[step + j]
    return j, length


@njit(cache=True)
def _place(p, s, index, seat):  # type: ignore[no-untyped-def]
    """Put ``seat``'s piece on ``index`` and resolve captures (spec §7, ``rules.place``)."""
    mine = 1 + seat
    theirs = 2 - seat
    _set(p, s, index, mine)
    ahead = p[P_NEXT + index]
    behind = p[P_PREVIOUS + index]
    # Both directions are judged on the position before any capture, then applied together.
    forward = _flanked_run(p, s, ahead, P_NEXT, theirs, mine, index) if ahead >= 0 else 0
    backward = _flanked_run(p, s, behind, P_PREVIOUS, theirs, mine, index) if behind >= 0 else 0
    if forward or backward:
        _block(p, s, ahead, P_NEXT, forward, 3 + seat)
        _block(p, s, behind, P_PREVIOUS, backward, 3 + seat)
        return
    # Self-landlock: the placed piece's own run, flanked on two distinct squares (§7.3).
    end1, length1 = _own_run_end(p, s, index, P_NEXT, mine)
    if end1 < 0 or end1 == index or s[BOARD + end1] != theirs:
        return
    end2, length2 = _own_run_end(p, s, index, P_PREVIOUS, mine)
    if end2 < 0 or end2 == index or s[BOARD + end2] != theirs or end1 == end2:
        return
    _set(p, s, index, 4 - seat)
    _block(p, s, p[P_NEXT + index], P_NEXT, length1, 4 - seat)
    _block(p, s, p[P_PREVIOUS + index], P_PREVIOUS, length2, 4 - seat)


@njit(cache=True)
def scores(p, s):  # type: ignore[no-untyped-def]
    """The running scores of A and B (spec §8): pieces of each colour, plus the bonus."""
    a = 0
    b = 0
    for i in range(SQUARES):
        code = s[BOARD + i]
        if code == 1 or code == 3:
            a += 1
        elif code == 2 or code == 4:
            b += 1
    code = s[BOARD + s[BONUS]]
    if code == 1 or code == 3:
        a += p[P_BONUS_POINTS]
    elif code == 2 or code == 4:
        b += p[P_BONUS_POINTS]
    return a, b


@njit(cache=True)
def _finish(p, s):  # type: ignore[no-untyped-def]
    """Score the finished game (spec §8)."""
    a, b = scores(p, s)
    s[SCORES] = a
    s[SCORES + 1] = b
    s[STATUS] = 1
    if a > b:
        s[WINNER] = 0
    elif b > a or p[P_TIE_B]:
        s[WINNER] = 1
    else:
        s[WINNER] = -1


@njit(cache=True)
def apply(p, s, action):  # type: ignore[no-untyped-def]
    """One placement (spec §6, §7); the third of a turn passes the turn, B's last ends it."""
    size = action // SQUARES + 1
    side = s[SIDE]
    groups = GROUPS + 3 * side
    # Shrinking the last group of this size keeps the sizes in descending order.
    slot = 2 if s[groups + 2] == size else 1 if s[groups + 1] == size else 0
    zobrist = Z_GROUP + 7 * (3 * side + slot)
    s[KEY] ^= p[zobrist + size] ^ p[zobrist + size - 1]
    s[groups + slot] = size - 1
    index = action % SQUARES
    s[FREE_SQUARES] &= ~(1 << index)
    _place(p, s, index, side)
    sub = s[SUB]
    s[KEY] ^= p[Z_SUB + sub]
    if sub == 2:
        s[SUB] = 0
        s[SIDE] = 1 - side
        s[KEY] ^= p[Z_SUB] ^ p[Z_SIDE]
        s[PLY] += 1
        left = 0
        for i in range(GROUPS, GROUPS + 6):
            left += s[i]
        if side == 1 and left == 0:
            _finish(p, s)
    else:
        s[SUB] = sub + 1
        s[KEY] ^= p[Z_SUB + sub + 1]


@njit(cache=True)
def is_over(p, s):  # type: ignore[no-untyped-def]
    """True once all 36 pieces are placed."""
    return s[STATUS] != 0


@njit(cache=True)
def truncated(p, s):  # type: ignore[no-untyped-def]
    """Never: Anacund has no ply cap (every game ends when all pieces are placed)."""
    return False


@njit(cache=True)
def returns(p, s, out):  # type: ignore[no-untyped-def]
    """+1 for the higher score, -1 for the lower, 0 each for a draw or a game going on."""
    out[0] = 0.0
    out[1] = 0.0
    winner = s[WINNER]
    if s[STATUS] and winner >= 0:
        out[winner] = 1.0
        out[1 - winner] = -1.0


@njit(cache=True)
def player(p, s):  # type: ignore[no-untyped-def]
    """The seat placing next (the same for the three placements of a turn)."""
    return s[SIDE]


@njit(cache=True)
def key(p, s):  # type: ignore[no-untyped-def]
    """The Zobrist key of the position text."""
    return s[KEY]
