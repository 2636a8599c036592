"""The compiled Cyvasse engine: parameters, encode/decode and ``make_kernel`` (issue 20).

The rules themselves, and the layouts of the arrays, are in :mod:`kernel_rules` (Numba). A
kernel state ``s`` holds:

* the 91 board cells (the reference's cell codes), the side to move, the deployment flag and
  placement counter, the cavalry turn in progress (first jump's hexes and whether it removed a
  unit, ``-1`` at a turn start), the forced-pass flag, the no-capture and ply counters;
* the view fields: ``veiled``, the side whose deployment a view hides (``-1`` for a real
  state), and the hidden zones (for drawing a decoded view only);
* the outcome (over, winner or ``-1`` for a draw, termination), the Zobrist key;
* the repetition history: the keys of the turn starts (normal play) since the last removal.

**Zobrist key.** XOR of one number per (hex, cell), one for North to move, one for the
forced-pass flag, one while deploying, and one per first-jump hex (plus one if it removed a
unit) inside a cavalry turn. At a turn start of normal play it covers exactly what the
reference's repetition compares (board, side, pass flag), so equal positions have equal keys.

**Repetition history bound.** The reference counts every turn-start position since the game
began; the kernel keeps only those since the last turn that removed a unit. That is exact:
units are never added in normal play, so a position with more units can never recur. Between
removals each turn adds one entry and one to the no-capture counter, and the game ends at a
turn start once that counter reaches ``no_capture_plies`` (after recording it) or the ply
counter ``max_plies`` (normal play starts at ply 2); so at most ``min(no_capture_plies + 1,
max_plies)`` entries are live (101 with the default options), which the state holds up to
``INLINE_LIMIT``. With both caps off nothing bounds a stretch without a removal: the state
holds ``INLINE_LIMIT`` entries and the older ones move to the store of
:mod:`boardlab.core.kernel_history`, exact for any length. With ``repetition_draw=0`` it holds
none.

**Hidden deployment.** ``encode`` accepts a seat's view (``state.view_state(seat)``): the
hidden zone is empty on its board and ``veiled`` names the hidden side. The kernel then plays
exactly what the reference plays from that view: placements only ever look at the mover's own
zone, and when North's deployment completes in a state with ``veiled >= 0``, the veiled zone is
cleared and refilled with the point reflection of the other side's army (its units turned to
the veiled side, Mountains as Mountains), as ``CyvasseState._assume_mirror_army`` does. The
view never holds, and the kernel never guesses, what the hidden side really placed.

**decode** rebuilds a reference state (board, counters, step, view fields, outcome) through the
state's constructor. The repetition history cannot be rebuilt from keys: the decoded state
counts repetitions from itself on, like a state from ``state_from_text``.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import cast

import numpy as np

from boardlab.core.engine import Kernel, KernelArray
from boardlab.core.kernel_history import INLINE_LIMIT, lay_out
from boardlab.core.outcome import Outcome, Termination
from boardlab.games.cyvasse import kernel_rules as rules
from boardlab.games.cyvasse.board import (
    NEIGHBOURS,
    NUM_HEXES,
    RANGE_TARGETS,
    RANK_OF,
    RAYS,
    ZONES,
    reflect,
)
from boardlab.games.cyvasse.game import Cyvasse
from boardlab.games.cyvasse.kernel_rules import (
    CELLS,
    MAX_ITEMS,
    MAX_RAY,
    MAX_TARGETS,
    P_DRAGON_BLOCK,
    P_HISTORY_CAP,
    P_IN_RANGE,
    P_MAX_PLIES,
    P_MOVEMENT,
    P_NEIGHBOUR_SETS,
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
    PARAMS_SIZE,
    S_BOARD,
    S_DEPLOYING,
    S_HIDDEN,
    S_HISTORY,
    S_HISTORY_LEN,
    S_JUMP_CAPTURED,
    S_JUMP_FROM,
    S_JUMP_TO,
    S_KEY,
    S_NO_CAPTURE,
    S_NODE,
    S_PASSED,
    S_PLACED,
    S_PLY,
    S_SIDE,
    S_STATUS,
    S_TERMINATION,
    S_VEILED,
    S_WINNER,
    TARGET_FIELDS,
)
from boardlab.games.cyvasse.state import CyvasseState
from boardlab.games.cyvasse.units import MOVEMENT, RANGE, WINS

TERMINATIONS = (
    Termination.KING_CAPTURED,
    Termination.FORCED_PASSES,
    Termination.REPETITION,
    Termination.NO_CAPTURE,
    Termination.PLY_CAP,
)
"""Termination codes of the state's ``S_TERMINATION`` slot (``kernel_rules.T_*``)."""

ZOBRIST = np.random.default_rng(20_2015).integers(
    -(2**63), 2**63 - 1, size=NUM_HEXES * (CELLS + 2) + 4, dtype=np.int64
)
"""The Zobrist numbers, the same in every process and for every option: one per (hex, cell)
(0 for an empty hex), per first-jump hex (from, to), then side, pass, deploying, jump capture."""
ZOBRIST[: NUM_HEXES * CELLS : CELLS] = 0
_CELL_KEYS = [[int(x) for x in ZOBRIST[h * CELLS : (h + 1) * CELLS]] for h in range(NUM_HEXES)]
_SIDE_KEY, _PASSED_KEY = (int(x) for x in ZOBRIST[-4:-2])


def history_capacity(game: Cyvasse) -> int:
    """The repetition-history entries the state holds: all a game can need, at most
    ``INLINE_LIMIT`` (see the module docstring)."""
    if not game.repetition_draw:
        return 0
    bounds = [game.no_capture_plies + 1] if game.no_capture_plies else []
    if game.max_plies:
        bounds.append(game.max_plies)
    return min([*bounds, INLINE_LIMIT])


def make_params(game: Cyvasse, history: int | None = None) -> KernelArray:
    """The parameter array of a game: board tables, unit stats, options, Zobrist numbers;
    ``history`` keys in the state (by default :func:`history_capacity`)."""
    p = np.full(PARAMS_SIZE, -1, dtype=np.int64)
    p[P_NEIGHBOUR_SETS : P_NEIGHBOUR_SETS + NUM_HEXES * 2] = 0
    p[P_IN_RANGE : P_IN_RANGE + NUM_HEXES * 6] = 0
    for h in range(NUM_HEXES):
        for n in NEIGHBOURS[h]:
            p[P_NEIGHBOUR_SETS + h * 2 + n // rules.WORD] |= 1 << n % rules.WORD
        for d, ray in enumerate(RAYS[h]):
            p[P_RAY_LEN + h * 6 + d] = len(ray)
            p[P_RAYS + (h * 6 + d) * MAX_RAY : P_RAYS + (h * 6 + d) * MAX_RAY + len(ray)] = ray
        p[P_TARGET_COUNT + h] = len(RANGE_TARGETS[h])
        for i, (to, dist, plus, minus) in enumerate(RANGE_TARGETS[h]):
            at = P_TARGETS + (h * MAX_TARGETS + i) * TARGET_FIELDS
            p[at : at + TARGET_FIELDS] = [to, dist, *_two(plus), *_two(minus)]
            for reach in range(dist, 4):  # within ranges dist..3, two words each
                word = P_IN_RANGE + (h * 3 + reach - 1) * 2 + to // rules.WORD
                p[word] |= 1 << to % rules.WORD
        p[P_REFLECT + h] = reflect(h)
        p[P_RANK + h] = RANK_OF[h]
    for side in (0, 1):
        p[P_ZONES + side * MAX_ITEMS : P_ZONES + (side + 1) * MAX_ITEMS] = ZONES[side]
    p[P_ORDER : P_ORDER + len(game.order)] = game.order
    p[P_ORDER_LEN] = len(game.order)
    p[P_WINS : P_WINS + 100] = [int(win) for row in WINS for win in row]
    p[P_MOVEMENT : P_MOVEMENT + 10] = MOVEMENT
    p[P_RANGE : P_RANGE + 10] = RANGE
    p[P_OPTIONAL_SECOND] = game.optional_second
    p[P_SUICIDE] = game.suicide
    p[P_DRAGON_BLOCK] = game.dragon_block
    p[P_TIE_FIRST] = _tie_first(game)
    p[P_NO_CAPTURE_CAP] = game.no_capture_plies
    p[P_MAX_PLIES] = game.max_plies
    p[P_REPETITION] = game.repetition_draw
    p[P_HISTORY_CAP] = history_capacity(game) if history is None else history
    p[P_ZOBRIST : P_ZOBRIST + NUM_HEXES * CELLS] = ZOBRIST[: NUM_HEXES * CELLS]
    rest = ZOBRIST[NUM_HEXES * CELLS :]
    p[P_Z_JUMP_FROM : P_Z_JUMP_FROM + NUM_HEXES] = rest[:NUM_HEXES]
    p[P_Z_JUMP_TO : P_Z_JUMP_TO + NUM_HEXES] = rest[NUM_HEXES : 2 * NUM_HEXES]
    p[[P_Z_SIDE, P_Z_PASSED, P_Z_DEPLOYING, P_Z_JUMP_CAPTURED]] = rest[2 * NUM_HEXES :]
    return p


def _two(hexes: tuple[int, ...]) -> list[int]:
    """A sight line (at most two hexes at range 3) padded with -1."""
    assert len(hexes) <= 2
    return [*hexes, *[-1] * (2 - len(hexes))]


def _tie_first(game: Cyvasse) -> int:
    """Who moves first when the Kings tie (the reference's coin toss, done once here)."""
    return tie_first(game.first_tie, game.seed)


def tie_first(first_tie: str, seed: int | None) -> int:
    """Who moves first when the Kings tie in a game with these ``first_tie`` and ``seed``
    options (the reference's coin toss for ``random``)."""
    if first_tie == "south":
        return 0
    if first_tie == "north":
        return 1
    return 0 if random.Random(seed).random() < 0.5 else 1


@lru_cache(maxsize=1 << 16)
def _board_key(board: bytes, side: int, passed: bool) -> int:
    """The Zobrist key of a turn start in normal play (what repetition compares)."""
    key = 0
    for h, cell in enumerate(board):
        key ^= _CELL_KEYS[h][cell]
    return key ^ (_SIDE_KEY if side else 0) ^ (_PASSED_KEY if passed else 0)


def encode(p: KernelArray, state: CyvasseState) -> KernelArray:
    """The kernel state of a reference state or view state, its key computed afresh."""
    capacity = int(p[P_HISTORY_CAP])
    s = np.zeros(S_HISTORY + capacity, dtype=np.int64)
    s[S_BOARD : S_BOARD + NUM_HEXES] = list(state.board)
    s[S_SIDE] = state.side
    s[S_DEPLOYING] = state.deploying
    s[S_PLACED] = state.placed
    s[[S_JUMP_FROM, S_JUMP_TO, S_JUMP_CAPTURED]] = state.jump or (-1, -1, 0)
    s[S_PASSED] = state.passed
    s[S_NO_CAPTURE] = state.no_capture
    s[S_PLY] = state.ply
    s[S_VEILED] = state.veiled
    s[S_HIDDEN] = sum(1 << zone for zone in state.hidden_zones if zone >= 0)
    outcome = state.outcome
    if outcome is not None:
        s[S_STATUS] = 1
        s[S_WINNER] = outcome.winners[0] if outcome.winners else -1
        s[S_TERMINATION] = TERMINATIONS.index(outcome.termination)
    key = _board_key(bytes(state.board), state.side, state.passed)
    if state.deploying:
        key ^= int(p[P_Z_DEPLOYING])
    if state.jump is not None:
        frm, to, captured = state.jump
        key ^= int(p[P_Z_JUMP_FROM + frm] ^ p[P_Z_JUMP_TO + to])
        if captured:
            key ^= int(p[P_Z_JUMP_CAPTURED])
    s[S_KEY] = key
    empty = state.board.count(0)
    history: list[int] = []
    for seen, count in state._seen.items():
        board, side, passed = cast(tuple[bytes, int, bool], seen)
        if board.count(0) == empty:
            history += [_board_key(board, side, passed)] * count
    if capacity:
        s[S_HISTORY_LEN], s[S_NODE] = lay_out(history, capacity, s, S_HISTORY)
    return s


def decode(game: Cyvasse, s: KernelArray) -> CyvasseState:
    """A reference state with the kernel state's position, view fields and outcome."""
    jump = None
    if s[S_JUMP_FROM] >= 0:
        jump = (int(s[S_JUMP_FROM]), int(s[S_JUMP_TO]), bool(s[S_JUMP_CAPTURED]))
    state = CyvasseState(
        game,
        bytearray(int(cell) for cell in s[S_BOARD : S_BOARD + NUM_HEXES]),
        int(s[S_SIDE]),
        bool(s[S_DEPLOYING]),
        int(s[S_PLACED]),
        jump,
        bool(s[S_PASSED]),
        int(s[S_NO_CAPTURE]),
        int(s[S_PLY]),
        int(s[S_VEILED]),
    )
    state.hidden_zones = tuple(zone for zone in (0, 1) if int(s[S_HIDDEN]) >> zone & 1)
    state._outcome = None
    if s[S_STATUS]:
        termination = TERMINATIONS[int(s[S_TERMINATION])]
        winner = int(s[S_WINNER])
        state._outcome = (
            Outcome.win_for(winner, 2, termination) if winner >= 0 else Outcome.draw(2, termination)
        )
    return state


def max_legal(game: Cyvasse) -> int:
    """A true bound on the decisions of a position: each unit (at most the army's, Mountains
    left out) reaches or shoots at most the 36 hexes within distance 3, and a Dragon's six
    lines hold at most 30 hexes; pass or end adds one; a deployment offers at most 40."""
    units = len(game.order) - game.counts[-1]
    return max(MAX_ITEMS, units * MAX_TARGETS + 1)


def make_kernel(game: Cyvasse, history: int | None = None) -> Kernel:
    """The compiled kernel of a Cyvasse game with its options; ``history`` overrides the keys
    the state holds (tests use a few, so that most go to the store)."""
    p = make_params(game, history)
    return Kernel(
        game=game,
        params=p,
        state_size=S_HISTORY + int(p[P_HISTORY_CAP]),
        max_legal=max_legal(game),
        legal=rules.legal,
        apply=rules.apply,
        is_over=rules.is_over,
        returns=rules.returns,
        player=rules.player,
        key=rules.key,
        encode=lambda state: encode(p, _cyvasse_state(state)),
        decode=lambda s: decode(game, s),
        truncated=rules.truncated,
    )


def _cyvasse_state(state: object) -> CyvasseState:
    if not isinstance(state, CyvasseState):
        raise TypeError(f"a Cyvasse kernel encodes Cyvasse states, not {type(state).__name__}")
    return state
