"""Playing decisions in the Colosseum Offcuts kernel: apply, the end of a turn, the end rules.

Mirrors ``ColosseumState._apply``, ``_end_turn``, ``_start_of_turn_checks``, ``_draw_outcome``
and the shared checks of ``State._check_shared_rules`` (repetition, then the no-capture cap;
Colosseum has no ply cap option). The Zobrist key is the XOR of one hash per counter (absolute
cell, level, code), of the side to move, of the setup step and of the first action of an open
turn: absolute coordinates make it independent of the window's anchor, so re-anchoring after a
move leaves it unchanged.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardlab.core.engine import KernelArray as Array
from boardlab.core.kernel_history import record
from boardlab.games.colosseum_offcuts.kernel_layout import (
    P_A2P,
    P_FORT_RANK,
    P_HISTORY,
    P_PLAYERS,
    P_REPETITION,
    P_ROUNDS,
    P_W,
    PW,
    S_AX,
    S_AY,
    S_CELL,
    S_FIRST,
    S_FIRST_CAPTURE,
    S_FIRST_KIND,
    S_FORCED_PASS,
    S_FORTS,
    S_HISTORY,
    S_HISTORY_LEN,
    S_KEY,
    S_LEVEL,
    S_MID,
    S_MODE,
    S_NO_CAPTURE,
    S_NODE,
    S_PLY,
    S_RESULT,
    S_SETUP,
    S_SIDE,
    S_STATUS,
    S_TERMINATION,
    T_FORCED_PASSES,
    T_LAST_FORTIFICATIONS,
    T_NO_CAPTURE,
    T_REPETITION,
    compiled,
)
from boardlab.games.colosseum_offcuts.kernel_moves import STEPS, legal

_MIX1 = -4658895280553007687  # 0xBF58476D1CE4E5B9 (splitmix64) as a signed 64-bit integer
_MIX2 = -7723592293110705685  # 0x94D049BB133111EB
_GOLDEN: Any = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15
"""A NumPy int64, so that :func:`hash3` wraps as int64 in plain Python too
(``NUMBA_DISABLE_JIT=1``), where Python ints would grow."""
_SIDE_SALT = 1 << 40
_SETUP_SALT = 2 << 40
_FIRST_SALT = 3 << 40


@compiled
def _mix(z: int) -> int:
    """The splitmix64 finaliser on wrapping int64 arithmetic (logical shifts by masking)."""
    z = (z ^ ((z >> 30) & 0x3FFFFFFFF)) * _MIX1
    z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * _MIX2
    return z ^ ((z >> 31) & 0x1FFFFFFFF)


@compiled
def hash3(a: int, b: int, c: int) -> int:
    """A 64-bit hash of three integers (any int64 values: coordinates are unbounded)."""
    return _mix(_mix(_mix(a + _GOLDEN) ^ b) ^ c)


@compiled
def counter_key(s: Array, k: int) -> int:
    """The key part of counter ``k`` where it stands: absolute cell, level and code."""
    c = s[S_CELL + k]
    code = (k & ~1) | s[S_MODE + k]
    return hash3(s[S_AX] + c // PW - 1, s[S_AY] + c % PW - 1, (s[S_LEVEL + k] << 8) | code)


@compiled
def side_key(side: int) -> int:
    return hash3(_SIDE_SALT, side, 0)


@compiled
def setup_key(step: int) -> int:
    return hash3(_SETUP_SALT, step, 0) if step else 0


@compiled
def first_key(s: Array) -> int:
    """The key part of the first action of an open turn (the position text's step field)."""
    if not s[S_MID]:
        return 0
    head = hash3(_FIRST_SALT + s[S_FIRST_KIND] * 2 + s[S_FIRST_CAPTURE], s[S_FIRST], s[S_FIRST + 1])
    return hash3(head, s[S_FIRST + 2], s[S_FIRST + 3])


@compiled
def fresh_key(p: Array, s: Array) -> int:
    """The key computed from scratch (``encode`` uses it; ``apply`` keeps it incrementally)."""
    key = side_key(s[S_SIDE]) ^ setup_key(s[S_SETUP]) ^ first_key(s)
    for k in range(4 * p[P_PLAYERS]):
        if s[S_CELL + k] >= 0:
            key ^= counter_key(s, k)
    return key


@compiled
def _set_side(s: Array, side: int) -> None:
    s[S_KEY] ^= side_key(s[S_SIDE]) ^ side_key(side)
    s[S_SIDE] = side


@compiled
def _move_counter(s: Array, k: int, cell: int, level: int) -> None:
    s[S_KEY] ^= counter_key(s, k)
    s[S_CELL + k] = cell
    s[S_LEVEL + k] = level
    s[S_KEY] ^= counter_key(s, k)


@compiled
def _top(p: Array, s: Array, cell: int) -> tuple[int, int]:
    """The top counter on ``cell`` (-1 if empty) and the stack's height."""
    height = 0
    for k in range(4 * p[P_PLAYERS]):
        if s[S_CELL + k] == cell:
            height += 1
    for k in range(4 * p[P_PLAYERS]):
        if s[S_CELL + k] == cell and s[S_LEVEL + k] == height - 1:
            return k, height
    return -1, 0


@compiled
def _seats_in_game(p: Array, s: Array) -> tuple[int, int]:
    """How many seats hold a Fortification, and the last of them."""
    count = 0
    last = -1
    for seat in range(p[P_PLAYERS]):
        if s[S_FORTS + seat]:
            count += 1
            last = seat
    return count, last


@compiled
def _reanchor(p: Array, s: Array) -> None:
    """Move the window so that its corner is one cell west and south of the counters."""
    low_x = low_y = PW
    high_x = high_y = 0
    for k in range(4 * p[P_PLAYERS]):
        c = s[S_CELL + k]
        if c >= 0:
            low_x = min(low_x, c // PW)
            low_y = min(low_y, c % PW)
            high_x = max(high_x, c // PW)
            high_y = max(high_y, c % PW)
    if high_x - low_x + 3 > p[P_W] or high_y - low_y + 3 > p[P_W]:
        raise RuntimeError("colosseum kernel: the footprint outgrew its window (a kernel bug)")
    shift = (low_x - 2) * PW + low_y - 2
    if shift:
        for k in range(4 * p[P_PLAYERS]):
            if s[S_CELL + k] >= 0:
                s[S_CELL + k] -= shift
        s[S_AX] += low_x - 2
        s[S_AY] += low_y - 2


@compiled
def apply(p: Array, s: Array, action: int) -> None:
    """Play a legal action in place (``ColosseumState.apply_action``)."""
    if s[S_SETUP]:
        _place(p, s, action)
        return
    cells = p[P_W] * p[P_W]
    if action == 6 * cells + cells * cells:
        _end_turn(p, s, s[S_FIRST_CAPTURE], s[S_MID] == 0)
        return
    capture = 0
    if action < 2 * cells:
        kind = 0
        origin = dest = p[P_A2P + action - cells]
        k, _ = _top(p, s, origin)
        s[S_KEY] ^= counter_key(s, k)
        s[S_MODE + k] ^= 1
        s[S_KEY] ^= counter_key(s, k)
    elif action < 6 * cells:
        kind = 1
        origin = p[P_A2P + (action - 2 * cells) // 4]
        dest = origin + STEPS[(action - 2 * cells) % 4]
        mover, _ = _top(p, s, origin)
        target, height = _top(p, s, dest)
        if target >= 0 and mover & 2 and target & 2 and target >> 2 != mover >> 2:
            capture = 1
            s[S_KEY] ^= counter_key(s, target)
            s[S_CELL + target] = -1
            s[S_FORTS + (target >> 2)] -= 1
            s[S_HISTORY_LEN] = 0  # no earlier position can recur with a counter fewer
            s[S_NODE] = 0
            height -= 1
        _move_counter(s, mover, dest, height)
    else:
        kind = 2
        origin = p[P_A2P + (action - 6 * cells) // cells]
        dest = p[P_A2P + (action - 6 * cells) % cells]
        for k in range(4 * p[P_PLAYERS]):
            if s[S_CELL + k] == origin:
                _move_counter(s, k, dest, s[S_LEVEL + k])
    if not s[S_MID] and _seats_in_game(p, s)[0] > 1:
        s[S_MID] = 1
        s[S_FIRST_CAPTURE] = capture
        s[S_FIRST_KIND] = kind
        s[S_FIRST] = s[S_AX] + origin // PW - 1
        s[S_FIRST + 1] = s[S_AY] + origin % PW - 1
        s[S_FIRST + 2] = s[S_AX] + dest // PW - 1 if kind else 0
        s[S_FIRST + 3] = s[S_AY] + dest % PW - 1 if kind else 0
        s[S_KEY] ^= first_key(s)
        _reanchor(p, s)
        return
    _reanchor(p, s)
    _end_turn(p, s, s[S_FIRST_CAPTURE] | capture, False)


@compiled
def _place(p: Array, s: Array, action: int) -> None:
    """A setup placement (§4): the next counter of the step's kind on the cell."""
    side = s[S_SIDE]
    fort = s[S_SETUP] >= 4
    k = 4 * side + (2 if fort else 0)
    if s[S_CELL + k] >= 0:
        k += 1
    s[S_CELL + k] = p[P_A2P + action]
    s[S_LEVEL + k] = 0
    s[S_MODE + k] = 0
    s[S_KEY] ^= counter_key(s, k)
    if fort:
        s[S_FORTS + side] += 1
    s[S_PLY] += 1
    placed = s[S_PLY]
    players = p[P_PLAYERS]
    s[S_KEY] ^= setup_key(s[S_SETUP])
    if placed == 4 * players:
        step, seat = 0, 0
    elif placed < players:
        step, seat = 2, placed
    else:
        step, seat = 3 + (placed - players) // players, (placed - players) % players
    s[S_SETUP] = step
    s[S_KEY] ^= setup_key(step)
    _set_side(s, seat)
    _reanchor(p, s)
    if step == 0:
        _turn_start(p, s)


@compiled
def _end_turn(p: Array, s: Array, capture: int, whole_pass: int) -> None:
    """Close the turn (§5, §7): counters, ply, next seat, then the start-of-turn rules."""
    s[S_PLY] += 1
    s[S_NO_CAPTURE] = 0 if capture else s[S_NO_CAPTURE] + 1
    s[S_FORCED_PASS] = s[S_FORCED_PASS] + 1 if whole_pass else 0
    s[S_KEY] ^= first_key(s)
    s[S_MID] = 0
    s[S_FIRST_CAPTURE] = 0
    players = p[P_PLAYERS]
    if _seats_in_game(p, s)[0] > 1:
        side = s[S_SIDE]
        for step in range(1, players + 1):
            if s[S_FORTS + (side + step) % players]:
                _set_side(s, (side + step) % players)
                break
    _turn_start(p, s)


@compiled
def _turn_start(p: Array, s: Array) -> None:
    """The win, the round of passes (§8-9), then repetition and the no-capture cap."""
    seats, last = _seats_in_game(p, s)
    if seats == 1:
        _set_side(s, last)
        s[S_STATUS] = 1
        s[S_TERMINATION] = T_LAST_FORTIFICATIONS
        for seat in range(p[P_PLAYERS]):
            s[S_RESULT + seat] = 1 if seat == last else -1
        return
    if s[S_FORCED_PASS] == seats - 1 and _only_pass(p, s):
        _draw(p, s, T_FORCED_PASSES)
        return
    limit = p[P_REPETITION]
    if limit:
        count = record(s, S_HISTORY, p[P_HISTORY], S_HISTORY_LEN, S_NODE, s[S_KEY])
        if count >= limit:
            _draw(p, s, T_REPETITION)
            return
    rounds = p[P_ROUNDS]
    if rounds and s[S_NO_CAPTURE] >= rounds * seats:
        _draw(p, s, T_NO_CAPTURE)


@compiled
def _only_pass(p: Array, s: Array) -> bool:
    """True when the side to move has no action but ``pass``."""
    out = np.empty(64 * 5 + 4, np.int64)
    cells = p[P_W] * p[P_W]
    return legal(p, s, out) == 1 and out[0] == 6 * cells + cells * cells


@compiled
def _draw(p: Array, s: Array, termination: int) -> None:
    """End the game by a draw rule, ranked by ``draw_ranking`` (``_draw_outcome``)."""
    players = p[P_PLAYERS]
    best = 0
    for seat in range(players):
        best = max(best, s[S_FORTS + seat])
    first = 0
    for seat in range(players):
        forts = s[S_FORTS + seat]
        if forts and (not p[P_FORT_RANK] or forts == best):
            s[S_RESULT + seat] = 1
            first += 1
        else:
            s[S_RESULT + seat] = -1
    if first > 1:
        for seat in range(players):
            if s[S_RESULT + seat] == 1:
                s[S_RESULT + seat] = 0
    s[S_STATUS] = 1
    s[S_TERMINATION] = termination


@compiled
def is_over(p: Array, s: Array) -> bool:
    return bool(s[S_STATUS] != 0)


@compiled
def truncated(p: Array, s: Array) -> bool:
    """Never: Colosseum Offcuts has no ply cap (its no-capture cap is a rule of the game, an
    end like any other, as the reference's ``Termination.NO_CAPTURE`` says)."""
    return False


@compiled
def returns(p: Array, s: Array, out: Array) -> None:
    for seat in range(p[P_PLAYERS]):
        out[seat] = s[S_RESULT + seat] if s[S_STATUS] else 0.0


@compiled
def player(p: Array, s: Array) -> int:
    return int(s[S_SIDE])


@compiled
def key(p: Array, s: Array) -> int:
    return int(s[S_KEY])
