"""The compiled Cyvasse rules: the layouts of the parameter and state arrays, and the Numba
functions over them.

Each function mirrors a part of :class:`~boardlab.games.cyvasse.state.CyvasseState` (named in
its docstring); :mod:`kernel` documents the state as a whole and fills the arrays. Board cells
use the reference's codes (``units.py``): 0 empty, 1 Mountain, ``2 + 10*side + kind`` a unit.
Every slot of both arrays is one ``int64``.

The layouts live in this file, beside the functions that read them (Numba freezes module
constants into the compiled code).
"""

from __future__ import annotations

import numpy as np

from boardlab.core.jit import numba, trailing_zeros
from boardlab.core.kernel_history import record

# Reference constants (units.py, state.py) repeated as plain ints so Numba folds them.
N = 91
MOVE_BASE = N
END = N + N * N
PASS = END + 1
EMPTY = 0
MOUNTAIN = 1
KING = 0
DRAGON = 1
HEAVY = 3
LIGHT = 4
CROSSBOW = 7
MOUNTAIN_ITEM = 10
SECOND_JUMP = 2
WORD = 63
"""Hexes per word of a two-word hex set (63, so the sign bit is never set)."""

# -- array layouts ----------------------------------------------------------------------------
CELLS = 22
"""Cell codes 0..21: empty, Mountain, South units 2..11, North units 12..21 (units.py)."""
MAX_RAY = 10
"""The longest straight line from a hex to the board's edge (11 hexes a rank, minus one)."""
MAX_TARGETS = 36
"""Hexes within distance 3 of a hex: 6 + 12 + 18."""
TARGET_FIELDS = 6
"""Per shot target: hex, distance, two line+ hexes, two line- hexes (-1 where none)."""
MAX_ITEMS = 40

# -- parameters ------------------------------------------------------------------------------
P_NEIGHBOUR_SETS = 0  # 91 x 2 words (WORD)
P_RAY_LEN = P_NEIGHBOUR_SETS + N * 2  # 91 x 6
P_RAYS = P_RAY_LEN + N * 6  # 91 x 6 x MAX_RAY
P_TARGET_COUNT = P_RAYS + N * 6 * MAX_RAY  # 91
P_TARGETS = P_TARGET_COUNT + N  # 91 x MAX_TARGETS x TARGET_FIELDS
P_IN_RANGE = P_TARGETS + N * MAX_TARGETS * TARGET_FIELDS  # 91 x 3 ranges x 2 words
P_ZONES = P_IN_RANGE + N * 3 * 2  # 2 x 40
P_REFLECT = P_ZONES + 2 * MAX_ITEMS  # 91
P_RANK = P_REFLECT + N  # 91
P_ORDER = P_RANK + N  # MAX_ITEMS
P_WINS = P_ORDER + MAX_ITEMS  # 10 x 10
P_MOVEMENT = P_WINS + 100  # 10
P_RANGE = P_MOVEMENT + 10  # 10
P_ZOBRIST = P_RANGE + 10  # 91 x CELLS
P_Z_JUMP_FROM = P_ZOBRIST + N * CELLS  # 91
P_Z_JUMP_TO = P_Z_JUMP_FROM + N  # 91
P_Z_SIDE = P_Z_JUMP_TO + N
P_Z_PASSED = P_Z_SIDE + 1
P_Z_DEPLOYING = P_Z_PASSED + 1
P_Z_JUMP_CAPTURED = P_Z_DEPLOYING + 1
P_ORDER_LEN = P_Z_JUMP_CAPTURED + 1
P_OPTIONAL_SECOND = P_ORDER_LEN + 1
P_SUICIDE = P_OPTIONAL_SECOND + 1
P_DRAGON_BLOCK = P_SUICIDE + 1
P_TIE_FIRST = P_DRAGON_BLOCK + 1  # the side moving first on a King tie (coin already tossed)
P_NO_CAPTURE_CAP = P_TIE_FIRST + 1
P_MAX_PLIES = P_NO_CAPTURE_CAP + 1
P_REPETITION = P_MAX_PLIES + 1
P_HISTORY_CAP = P_REPETITION + 1
PARAMS_SIZE = P_HISTORY_CAP + 1

# -- state -------------------------------------------------------------------------------------
S_BOARD = 0  # 91 cells
S_SIDE = N
S_DEPLOYING = S_SIDE + 1
S_PLACED = S_DEPLOYING + 1
S_JUMP_FROM = S_PLACED + 1  # -1 at a turn start
S_JUMP_TO = S_JUMP_FROM + 1
S_JUMP_CAPTURED = S_JUMP_TO + 1
S_PASSED = S_JUMP_CAPTURED + 1
S_NO_CAPTURE = S_PASSED + 1
S_PLY = S_NO_CAPTURE + 1
S_VEILED = S_PLY + 1  # the side whose deployment a view hides, -1 for a real state
S_HIDDEN = S_VEILED + 1  # bit z set: zone z is hidden from the view (drawing only)
S_STATUS = S_HIDDEN + 1  # 0 playing, 1 over
S_WINNER = S_STATUS + 1  # -1 for a draw
S_TERMINATION = S_WINNER + 1  # index into kernel.TERMINATIONS
S_KEY = S_TERMINATION + 1
S_HISTORY_LEN = S_KEY + 1
S_NODE = S_HISTORY_LEN + 1  # the history's node in core.kernel_history's store (0: none)
S_HISTORY = S_NODE + 1  # P_HISTORY_CAP keys of turn starts since the last capture

T_KING_CAPTURED, T_FORCED_PASSES, T_REPETITION, T_NO_CAPTURE, T_PLY_CAP = range(5)


jit = numba.njit(cache=True)
inlined = numba.njit(cache=True, inline="always")
"""For the helpers of ``legal`` called once per unit: a compiled call passing arrays costs Numba
a reference count on each, both ways (inlined, ``legal`` ran 6% faster)."""


@jit
def _set_cell(p: np.ndarray, s: np.ndarray, h: int, value: int) -> None:
    """Write a board cell, keeping the Zobrist key current."""
    s[S_KEY] ^= p[P_ZOBRIST + h * CELLS + s[h]] ^ p[P_ZOBRIST + h * CELLS + value]
    s[h] = value


@inlined
def _enemy_unit(cell: int, enemy: int) -> bool:
    return enemy <= cell < enemy + 10


@inlined
def _lowest(x: int | np.int64) -> int:
    """The index of the lowest set bit of a nonzero word."""
    return trailing_zeros(x)  # type: ignore[no-any-return]


@inlined
def _hex_sets(s: np.ndarray) -> tuple[int, int, int, int]:
    """The empty hexes and the hexes of the units of the side not to move, as two-word sets:
    (empty low, empty high, enemy low, enemy high), hexes 0..62 in a low word and 63..90 in a
    high one (63 bits a word, so no sign bit is ever set)."""
    low = np.int64(0)
    high = np.int64(0)
    enemy_low = np.int64(0)
    enemy_high = np.int64(0)
    enemy = 2 + 10 * (1 - s[S_SIDE])
    for h in range(WORD):
        cell = s[h]
        low |= np.int64(cell == EMPTY) << h
        enemy_low |= np.int64(_enemy_unit(cell, enemy)) << h
    for h in range(WORD, N):
        cell = s[h]
        high |= np.int64(cell == EMPTY) << (h - WORD)
        enemy_high |= np.int64(_enemy_unit(cell, enemy)) << (h - WORD)
    return int(low), int(high), int(enemy_low), int(enemy_high)


@inlined
def _steps(
    p: np.ndarray,
    s: np.ndarray,
    h: int,
    kind: int,
    reach: int,
    sets: tuple[int, int, int, int],
    out: np.ndarray,
    n: int,
) -> int:
    """``CyvasseState._steps``: moves through empty hexes up to ``reach`` steps, and melee
    attacks as a last step (none for range units). Appends to ``out`` from ``n``; returns the
    new count. The breadth-first search runs on two-word hex sets (``sets`` from
    :func:`_hex_sets`): each layer is the neighbours of the last layer's empty hexes."""
    if reach == 0:
        return n
    seen_low = np.int64(0)
    seen_high = np.int64(0)
    if h < WORD:
        seen_low = np.int64(1) << h
    else:
        seen_high = np.int64(1) << (h - WORD)
    front_low = seen_low
    front_high = seen_high
    for _ in range(reach):
        next_low = np.int64(0)
        next_high = np.int64(0)
        x = front_low
        while x:
            b = _lowest(x)
            x &= x - 1
            next_low |= p[P_NEIGHBOUR_SETS + 2 * b]
            next_high |= p[P_NEIGHBOUR_SETS + 2 * b + 1]
        x = front_high
        while x:
            b = _lowest(x) + WORD
            x &= x - 1
            next_low |= p[P_NEIGHBOUR_SETS + 2 * b]
            next_high |= p[P_NEIGHBOUR_SETS + 2 * b + 1]
        next_low &= ~seen_low
        next_high &= ~seen_high
        seen_low |= next_low
        seen_high |= next_high
        front_low = next_low & sets[0]
        front_high = next_high & sets[1]
    if h < WORD:
        seen_low ^= np.int64(1) << h
    else:
        seen_high ^= np.int64(1) << (h - WORD)
    enemy = 2 + 10 * (1 - s[S_SIDE])
    melee = p[P_RANGE + kind] == 0
    suicide = p[P_SUICIDE] != 0
    wins = P_WINS + kind * 10
    base = MOVE_BASE + h * N
    # The hexes reached: empty ones, and (melee) enemy units this unit may attack. Read from
    # the sets, not the board cell by cell (12% of the legal moves' time).
    for word in range(2):
        free = sets[word]
        x = (seen_low if word == 0 else seen_high) & (free | sets[2 + word] if melee else free)
        while x:
            b = _lowest(x)
            x &= x - 1
            y = b + WORD * word
            if (free >> b) & 1 or suicide or p[wins + s[y] - enemy]:
                out[n] = base + y
                n += 1
    return n


@inlined
def _dragon(p: np.ndarray, s: np.ndarray, h: int, out: np.ndarray, n: int) -> int:
    """``CyvasseState._dragon`` (spec §6.6): straight flights over everything but enemy range
    units (and, as an option, the enemy Dragon), landing on empty hexes or attackable units."""
    enemy = 2 + 10 * (1 - s[S_SIDE])
    suicide = p[P_SUICIDE] != 0
    blocked_by_dragon = p[P_DRAGON_BLOCK] != 0
    base = MOVE_BASE + h * N
    for d in range(6):
        ray = P_RAYS + (h * 6 + d) * MAX_RAY
        for i in range(p[P_RAY_LEN + h * 6 + d]):
            x = p[ray + i]
            cell = s[x]
            if cell == EMPTY:
                out[n] = base + x
                n += 1
            elif _enemy_unit(cell, enemy):
                kind = cell - enemy
                if suicide or p[P_WINS + DRAGON * 10 + kind]:
                    out[n] = base + x
                    n += 1
                if kind >= CROSSBOW or (kind == DRAGON and blocked_by_dragon):
                    break
    return n


@inlined
def _shots(
    p: np.ndarray,
    s: np.ndarray,
    h: int,
    kind: int,
    sets: tuple[int, int, int, int],
    out: np.ndarray,
    n: int,
) -> int:
    """``CyvasseState._shots`` (spec §6.4): attackable enemy units within range whose line of
    sight is not blocked (a Mountain on line+ and a Mountain on line-). With no enemy unit
    within range (``sets``, :func:`_hex_sets`), none: the targets are not looked at."""
    reach = p[P_RANGE + kind]
    within = P_IN_RANGE + (h * 3 + reach - 1) * 2
    if not (p[within] & sets[2] or p[within + 1] & sets[3]):
        return n
    enemy = 2 + 10 * (1 - s[S_SIDE])
    base = MOVE_BASE + h * N
    for i in range(p[P_TARGET_COUNT + h]):
        t = P_TARGETS + (h * MAX_TARGETS + i) * TARGET_FIELDS
        if p[t + 1] > reach:
            break
        to = p[t]
        cell = s[to]
        if not (_enemy_unit(cell, enemy) and p[P_WINS + kind * 10 + cell - enemy]):
            continue
        plus = (p[t + 2] >= 0 and s[p[t + 2]] == MOUNTAIN) or (
            p[t + 3] >= 0 and s[p[t + 3]] == MOUNTAIN
        )
        minus = (p[t + 4] >= 0 and s[p[t + 4]] == MOUNTAIN) or (
            p[t + 5] >= 0 and s[p[t + 5]] == MOUNTAIN
        )
        if plus and minus:
            continue
        out[n] = base + to
        n += 1
    return n


@jit
def _turn_actions(p: np.ndarray, s: np.ndarray, out: np.ndarray) -> int:
    """``CyvasseState._turn_actions``: every move, attack and shot at the start of a turn."""
    low = 2 + 10 * s[S_SIDE]
    sets = _hex_sets(s)
    n = 0
    for h in range(N):
        cell = s[h]
        if low <= cell < low + 10:
            kind = cell - low
            if kind == DRAGON:
                n = _dragon(p, s, h, out, n)
            else:
                n = _steps(p, s, h, kind, p[P_MOVEMENT + kind], sets, out, n)
                if kind >= CROSSBOW:
                    n = _shots(p, s, h, kind, sets, out, n)
    return n


@jit
def legal(p: np.ndarray, s: np.ndarray, out: np.ndarray) -> int:
    """``State.legal_actions``: placements, a cavalry's second jumps (and ``end``), the turn's
    moves, or ``pass`` when there are none."""
    if s[S_STATUS]:
        return 0
    side = s[S_SIDE]
    if s[S_DEPLOYING]:
        n = 0
        for i in range(40):
            h = p[P_ZONES + side * 40 + i]
            if s[h] == EMPTY:
                out[n] = h
                n += 1
        return n
    if s[S_JUMP_FROM] >= 0:
        at = s[S_JUMP_TO]
        n = _steps(p, s, at, s[at] - 2 - 10 * side, SECOND_JUMP, _hex_sets(s), out, 0)
        if p[P_OPTIONAL_SECOND]:
            out[n] = END
            n += 1
        return n
    n = _turn_actions(p, s, out)
    if n == 0:
        out[0] = PASS
        n = 1
    return n


@jit
def _toggle_side(p: np.ndarray, s: np.ndarray) -> None:
    s[S_SIDE] ^= 1
    s[S_KEY] ^= p[P_Z_SIDE]


@jit
def _set_passed(p: np.ndarray, s: np.ndarray, passed: int) -> None:
    if s[S_PASSED] != passed:
        s[S_PASSED] = passed
        s[S_KEY] ^= p[P_Z_PASSED]


@jit
def _jump_key(p: np.ndarray, s: np.ndarray) -> int:
    """The key's share of a cavalry turn in progress (0 at a turn start)."""
    if s[S_JUMP_FROM] < 0:
        return 0
    key = p[P_Z_JUMP_FROM + s[S_JUMP_FROM]] ^ p[P_Z_JUMP_TO + s[S_JUMP_TO]]
    if s[S_JUMP_CAPTURED]:
        key ^= p[P_Z_JUMP_CAPTURED]
    return int(key)


@jit
def _set_jump(p: np.ndarray, s: np.ndarray, frm: int, to: int, captured: int) -> None:
    s[S_KEY] ^= _jump_key(p, s)
    s[S_JUMP_FROM] = frm
    s[S_JUMP_TO] = to
    s[S_JUMP_CAPTURED] = captured
    s[S_KEY] ^= _jump_key(p, s)


@jit
def _finish(s: np.ndarray, winner: int, termination: int) -> None:
    s[S_STATUS] = 1
    s[S_WINNER] = winner
    s[S_TERMINATION] = termination


@jit
def _end_turn(p: np.ndarray, s: np.ndarray, captured: bool) -> None:
    """``CyvasseState._end_turn``. A removal also restarts the repetition history: the board
    now has fewer units than every position recorded, and units never come back."""
    _set_jump(p, s, -1, -1, 0)
    _set_passed(p, s, 0)
    if captured:
        s[S_NO_CAPTURE] = 0
        s[S_HISTORY_LEN] = 0
        s[S_NODE] = 0
    else:
        s[S_NO_CAPTURE] += 1
    s[S_PLY] += 1
    _toggle_side(p, s)


@jit
def _first_player(p: np.ndarray, s: np.ndarray) -> int:
    """``CyvasseState._first_player``: the King nearer rank 6; a tie as option first_tie."""
    south = -1
    north = -1
    for h in range(N):
        if s[h] == 2 + KING:
            south = abs(p[P_RANK + h] - 6)
        elif s[h] == 12 + KING:
            north = abs(p[P_RANK + h] - 6)
    if south < 0 or north < 0:
        # The reference fails here too (a spectator's view hides North's King for good).
        raise RuntimeError("cyvasse kernel: a King is missing after the deployment")
    if south != north:
        return 0 if south < north else 1
    return int(p[P_TIE_FIRST])


@jit
def _deploy(p: np.ndarray, s: np.ndarray, h: int) -> None:
    """``CyvasseState._deploy``, with ``_assume_mirror_army`` for a view that hides a side."""
    side = s[S_SIDE]
    item = p[P_ORDER + s[S_PLACED]]
    _set_cell(p, s, h, MOUNTAIN if item == MOUNTAIN_ITEM else 2 + 10 * side + item)
    s[S_PLACED] += 1
    if s[S_PLACED] < p[P_ORDER_LEN]:
        return
    s[S_PLACED] = 0
    s[S_PLY] += 1
    if side == 0:
        _toggle_side(p, s)
        return
    hidden = s[S_VEILED]
    if hidden >= 0:
        for i in range(40):
            _set_cell(p, s, p[P_ZONES + hidden * 40 + i], EMPTY)
        for i in range(40):
            x = p[P_ZONES + (1 - hidden) * 40 + i]
            cell = s[x]
            if cell == MOUNTAIN:
                _set_cell(p, s, p[P_REFLECT + x], MOUNTAIN)
            elif cell != EMPTY:
                _set_cell(p, s, p[P_REFLECT + x], 2 + 10 * hidden + (cell - 2) % 10)
        s[S_VEILED] = -1
    s[S_HIDDEN] = 0
    s[S_DEPLOYING] = 0
    s[S_KEY] ^= p[P_Z_DEPLOYING]
    if _first_player(p, s) != 1:
        _toggle_side(p, s)


@jit
def _play(p: np.ndarray, s: np.ndarray, action: int) -> None:
    """``CyvasseState._apply``: one decision, with the game's own end rules."""
    if s[S_DEPLOYING]:
        _deploy(p, s, action)
        return
    if action == PASS:
        _end_turn(p, s, False)
        _set_passed(p, s, 1)
        scratch = np.empty(max(p[P_ORDER_LEN], 1) * MAX_TARGETS, dtype=np.int64)
        if _turn_actions(p, s, scratch) == 0:
            _finish(s, -1, T_FORCED_PASSES)
        return
    if action == END:
        _end_turn(p, s, s[S_JUMP_CAPTURED] != 0)
        return
    frm = (action - MOVE_BASE) // N
    to = (action - MOVE_BASE) % N
    mover = s[frm]
    target = s[to]
    kind = (mover - 2) % 10
    captured = target != EMPTY
    alive = True
    if not captured:
        _set_cell(p, s, to, mover)
        _set_cell(p, s, frm, EMPTY)
    elif p[P_RANGE + kind]:
        _set_cell(p, s, to, EMPTY)
    elif p[P_WINS + kind * 10 + (target - 2) % 10]:
        _set_cell(p, s, to, mover)
        _set_cell(p, s, frm, EMPTY)
    else:
        _set_cell(p, s, frm, EMPTY)  # losing_attacks=suicide: the attacker dies
        alive = False
    mover_side = s[S_SIDE]
    if captured and alive and (target - 2) % 10 == KING:
        _end_turn(p, s, True)
        _finish(s, mover_side, T_KING_CAPTURED)
        return
    if s[S_JUMP_FROM] >= 0:
        _end_turn(p, s, captured or s[S_JUMP_CAPTURED] != 0)
        return
    if (kind == HEAVY or kind == LIGHT) and alive:  # noqa: SIM109 - Numba-friendly
        # The reference ends the turn when no second jump exists; one always does (spec
        # §6.5.3): the hex the unit entered its target from (its start or the last hex of
        # its path) is next to it and empty.
        _set_jump(p, s, frm, to, 1 if captured else 0)
        return
    _end_turn(p, s, captured)


@jit
def _shared_rules(p: np.ndarray, s: np.ndarray) -> None:
    """``State._check_shared_rules`` at a turn start: repetition, no-capture cap, ply cap."""
    limit = p[P_REPETITION]
    if limit and not s[S_DEPLOYING]:
        count = record(s, S_HISTORY, p[P_HISTORY_CAP], S_HISTORY_LEN, S_NODE, s[S_KEY])
        if count >= limit:
            _finish(s, -1, T_REPETITION)
            return
    cap = p[P_NO_CAPTURE_CAP]
    if cap and not s[S_DEPLOYING] and s[S_NO_CAPTURE] >= cap:
        _finish(s, -1, T_NO_CAPTURE)
        return
    cap = p[P_MAX_PLIES]
    if cap and s[S_PLY] >= cap:
        _finish(s, -1, T_PLY_CAP)


@jit
def apply(p: np.ndarray, s: np.ndarray, action: int) -> None:
    """``State.apply_action``: the decision, then the shared end rules at a turn start."""
    _play(p, s, action)
    if s[S_STATUS]:
        return
    turn_start = s[S_PLACED] == 0 if s[S_DEPLOYING] else s[S_JUMP_FROM] < 0
    if turn_start:
        _shared_rules(p, s)


@jit
def is_over(p: np.ndarray, s: np.ndarray) -> bool:
    """True when the game has ended."""
    return bool(s[S_STATUS] != 0)


@jit
def truncated(p: np.ndarray, s: np.ndarray) -> bool:
    """True when the game ended by its ply cap (``Termination.PLY_CAP``)."""
    return bool(s[S_STATUS] != 0 and s[S_TERMINATION] == T_PLY_CAP)


@jit
def returns(p: np.ndarray, s: np.ndarray, out: np.ndarray) -> None:
    """+1 to the winner and -1 to the loser; zeros for a draw or a game going on."""
    out[0] = 0.0
    out[1] = 0.0
    if s[S_STATUS] and s[S_WINNER] >= 0:
        out[s[S_WINNER]] = 1.0
        out[1 - s[S_WINNER]] = -1.0


@jit
def player(p: np.ndarray, s: np.ndarray) -> int:
    """The side to move: 0 South, 1 North."""
    return int(s[S_SIDE])


@jit
def key(p: np.ndarray, s: np.ndarray) -> int:
    """The incremental Zobrist key."""
    return int(s[S_KEY])
