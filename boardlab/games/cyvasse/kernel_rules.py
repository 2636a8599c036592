"""The compiled Cyvasse rules: Numba functions over the arrays of :mod:`kernel_layout`.

Each function mirrors a part of :class:`~boardlab.games.cyvasse.state.CyvasseState` (named in
its docstring); :mod:`kernel` documents the state as a whole. Board cells use the reference's
codes (``units.py``): 0 empty, 1 Mountain, ``2 + 10*side + kind`` a unit.
"""

from __future__ import annotations

import numba
import numpy as np

from boardlab.games.cyvasse.kernel_layout import (
    MAX_RAY,
    MAX_TARGETS,
    P_DRAGON_BLOCK,
    P_HISTORY_CAP,
    P_MAX_PLIES,
    P_MOVEMENT,
    P_NEIGHBOURS,
    P_NO_CAPTURE_CAP,
    P_OPTIONAL_SECOND,
    P_ORDER,
    P_ORDER_LEN,
    P_RANGE,
    P_RANK,
    P_RAY_LEN,
    P_RAYS,
    P_REFLECT,
    P_REPETITION,
    P_SUICIDE,
    P_TARGET_COUNT,
    P_TARGETS,
    P_TIE_FIRST,
    P_WINS,
    P_Z_DEPLOYING,
    P_Z_JUMP_CAPTURED,
    P_Z_JUMP_FROM,
    P_Z_JUMP_TO,
    P_Z_PASSED,
    P_Z_SIDE,
    P_ZOBRIST,
    P_ZONES,
    S_DEPLOYING,
    S_HIDDEN,
    S_HISTORY,
    S_HISTORY_LEN,
    S_JUMP_CAPTURED,
    S_JUMP_FROM,
    S_JUMP_TO,
    S_KEY,
    S_NO_CAPTURE,
    S_PASSED,
    S_PLACED,
    S_PLY,
    S_SIDE,
    S_STATUS,
    S_TERMINATION,
    S_VEILED,
    S_WINNER,
    T_FORCED_PASSES,
    T_KING_CAPTURED,
    T_NO_CAPTURE,
    T_PLY_CAP,
    T_REPETITION,
    TARGET_FIELDS,
)

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
CELLS = 22

jit = numba.njit(cache=True)


@jit
def _set_cell(p: np.ndarray, s: np.ndarray, h: int, value: int) -> None:
    """Write a board cell, keeping the Zobrist key current."""
    s[S_KEY] ^= p[P_ZOBRIST + h * CELLS + s[h]] ^ p[P_ZOBRIST + h * CELLS + value]
    s[h] = value


@jit
def _enemy_unit(cell: int, enemy: int) -> bool:
    return enemy <= cell < enemy + 10


@jit
def _steps(
    p: np.ndarray, s: np.ndarray, h: int, kind: int, reach: int, out: np.ndarray, n: int
) -> int:
    """``CyvasseState._steps``: moves through empty hexes up to ``reach`` steps, and melee
    attacks as a last step (none for range units). Appends to ``out`` from ``n``; returns the
    new count. Breadth first, with the layer just found read back from ``out`` (its empty
    hexes), so nothing is allocated; ``seen`` is a 91-bit set in two words."""
    side = s[S_SIDE]
    enemy = 2 + 10 * (1 - side)
    melee = p[P_RANGE + kind] == 0
    suicide = p[P_SUICIDE] != 0
    wins = P_WINS + kind * 10
    base = MOVE_BASE + h * N
    seen_low = np.int64(0)
    seen_high = np.int64(0)
    if h < 64:
        seen_low |= np.int64(1) << h
    else:
        seen_high |= np.int64(1) << (h - 64)
    layer_start = n
    layer_end = n
    for depth in range(reach):
        found = n
        count = 1 if depth == 0 else layer_end - layer_start
        for j in range(count):
            if depth == 0:
                y = h
            else:
                y = out[layer_start + j] - base
                if s[y] != EMPTY:
                    continue
            for k in range(6):
                x = p[P_NEIGHBOURS + y * 6 + k]
                if x < 0:
                    break
                if x < 64:
                    bit = np.int64(1) << x
                    if seen_low & bit:
                        continue
                    seen_low |= bit
                else:
                    bit = np.int64(1) << (x - 64)
                    if seen_high & bit:
                        continue
                    seen_high |= bit
                cell = s[x]
                if cell == EMPTY or (
                    melee and _enemy_unit(cell, enemy) and (suicide or p[wins + cell - enemy])
                ):
                    out[n] = base + x
                    n += 1
        layer_start = found
        layer_end = n
    return n


@jit
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


@jit
def _shots(p: np.ndarray, s: np.ndarray, h: int, kind: int, out: np.ndarray, n: int) -> int:
    """``CyvasseState._shots`` (spec §6.4): attackable enemy units within range whose line of
    sight is not blocked (a Mountain on line+ and a Mountain on line-)."""
    enemy = 2 + 10 * (1 - s[S_SIDE])
    reach = p[P_RANGE + kind]
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
    n = 0
    for h in range(N):
        cell = s[h]
        if low <= cell < low + 10:
            kind = cell - low
            if kind == DRAGON:
                n = _dragon(p, s, h, out, n)
            else:
                n = _steps(p, s, h, kind, p[P_MOVEMENT + kind], out, n)
                if kind >= CROSSBOW:
                    n = _shots(p, s, h, kind, out, n)
    return n


@jit
def _has_second_jump(p: np.ndarray, s: np.ndarray, at: int) -> bool:
    """Whether the cavalry on ``at`` has a second jump. Every path starts with a neighbour, so
    this is exactly: an empty neighbour (a one-step move) or an attackable enemy neighbour."""
    enemy = 2 + 10 * (1 - s[S_SIDE])
    kind = s[at] - 2 - 10 * s[S_SIDE]
    suicide = p[P_SUICIDE] != 0
    for k in range(6):
        x = p[P_NEIGHBOURS + at * 6 + k]
        if x < 0:
            break
        cell = s[x]
        if cell == EMPTY:
            return True
        if _enemy_unit(cell, enemy) and (suicide or p[P_WINS + kind * 10 + cell - enemy]):
            return True
    return False


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
        n = _steps(p, s, at, s[at] - 2 - 10 * side, SECOND_JUMP, out, 0)
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
        _set_jump(p, s, frm, to, 1 if captured else 0)
        if _has_second_jump(p, s, to):
            return
    _end_turn(p, s, captured)


@jit
def _shared_rules(p: np.ndarray, s: np.ndarray) -> None:
    """``State._check_shared_rules`` at a turn start: repetition, no-capture cap, ply cap."""
    limit = p[P_REPETITION]
    if limit and not s[S_DEPLOYING]:
        key = s[S_KEY]
        length = s[S_HISTORY_LEN]
        count = 1
        for i in range(length):
            if s[S_HISTORY + i] == key:
                count += 1
        if length >= p[P_HISTORY_CAP]:
            raise RuntimeError("cyvasse kernel: repetition history full (see kernel.py)")
        s[S_HISTORY + length] = key
        s[S_HISTORY_LEN] = length + 1
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
