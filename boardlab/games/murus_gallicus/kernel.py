"""The compiled Murus Gallicus kernel: the rules of ``state.py`` over int64 bitboards (Numba).

Boards are 8 columns wide and at most 8 rows high, so one int64 holds a whole board with 8
bits per row (cell ``row * 8 + column``), every option included. Moves are generated for all
towers of one direction at once by shifting the free-cell board (the Pgx and chess-engine
way); the reference's 9-bit rows survive only in the action ids, which are the reference's:
``(kind * 8 + direction) * cells + origin`` with ``origin = row * 9 + column``.

State ``s`` (``HISTORY`` + :func:`history_capacity` int64: 3.3 KB with the default options):

* ``s[0:4]``: Roman towers, Roman walls, Gaul towers, Gaul walls (bitboards);
* ``s[4]`` side to move, ``s[5]`` ply, ``s[6]`` 1 when over, ``s[7]`` winner (-1 draw),
  ``s[8]`` termination (the ``_TERMINATIONS`` index), ``s[9]`` Zobrist key, ``s[10]`` the
  number of keys in the history, ``s[11]`` its node in :mod:`boardlab.core.kernel_history`;
* ``s[HISTORY:]``: the keys of the positions that began a turn since the last sacrifice, the
  current one included, for the repetition rule.

Why the history is exact: a tower move keeps every stone and a sacrifice removes two, so a
position from before a sacrifice can never occur again and the history restarts there. Its
bound: a game from a position at ply ``p0`` has its turn starts at plies ``p0`` to
``max_plies`` (the position at the cap is counted before the cap ends the game), so at most
``max_plies + 1`` of them, which the state holds (up to ``INLINE_LIMIT``). Nothing else bounds a
stretch without a sacrifice: with ``max_plies=0`` (or above ``INLINE_LIMIT``) the older keys
move to the store of :mod:`boardlab.core.kernel_history`, exact for any length. Keys are 64-bit
Zobrist keys, so two different positions are taken for a repetition only on a key collision
(one chance in 2^64 per pair of positions), as in chess engines.

``max_legal``: at most 8 tower moves and 8 sacrifices per tower, and a side has at most 16
towers (32 stones, with ``8x8_two_rows``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import cast

import numpy as np

from boardlab.core.engine import Kernel, KernelArray
from boardlab.core.game import Game
from boardlab.core.jit import numba, trailing_zeros
from boardlab.core.kernel_history import INLINE_LIMIT, lay_out, record
from boardlab.core.outcome import Outcome, Termination
from boardlab.core.state import State
from boardlab.games.murus_gallicus.board import STRIDE
from boardlab.games.murus_gallicus.game import MurusGallicus
from boardlab.games.murus_gallicus.state import MurusGallicusState

# Parameter slots.
P_CELLS = 0  # bit positions of the reference's 9-bit rows (its action-id stride)
P_REPETITION = 1
P_MAX_PLIES = 2
P_MASK = 3  # every cell on the board
P_GOALS = 4  # the rows the Romans and the Gauls must reach (two slots)
P_ZOBRIST = 6  # 4 kinds x 64 cells, then the side-to-move key
P_CAPACITY = P_ZOBRIST + 4 * 64 + 1  # the history's slots in the state
P_DECODE = P_CAPACITY + 1  # per action id: (kind * 8 + direction) * 64 + cell, no division
PARAMS_SIZE = P_DECODE + 16 * 8 * STRIDE

# State slots.
S_SIDE, S_PLY, S_OVER, S_WINNER, S_TERMINATION, S_KEY, S_COUNT, S_NODE = range(4, 12)
HISTORY = 16
MAX_LEGAL = 16 * 16

_TERMINATIONS = (
    None,
    Termination.HOME_ROW,
    Termination.STALEMATE,
    Termination.REPETITION,
    Termination.PLY_CAP,
)
_HOME_ROW, _STALEMATE, _REPETITION, _PLY_CAP = 1, 2, 3, 4

_NOT_A = 0xFEFEFEFEFEFEFEFE - (1 << 64)  # every cell but column a, as a signed int64
_NOT_H = 0x7F7F7F7F7F7F7F7F
# Per direction (N, NE, E, SE, S, SW, W, NW, as board.SHIFTS): the bit shift, and the cells a
# one-step shift may land on (a step east never lands on column a, nor west on column h).
_SHIFT = np.array([8, 9, 1, -7, -8, -9, -1, 7], dtype=np.int64)
_LAND = np.array([-1, _NOT_A, _NOT_A, _NOT_A, -1, _NOT_H, _NOT_H, _NOT_H], dtype=np.int64)
# Right shifts of an int64 copy its sign bit: these masks make them logical.
_LOW = np.array([-1] + [(1 << (64 - k)) - 1 for k in range(1, 64)], dtype=np.int64)


# LLVM's count of trailing zeros: the index of a single set bit in one instruction.
_bit_index = cast(Callable[[int], int], trailing_zeros)


@numba.njit(cache=True)
def _step(x: int, direction: int) -> int:
    """Every cell of ``x`` moved one step in ``direction``; steps off the board vanish."""
    shift = _SHIFT[direction]
    if shift > 0:
        return int((x << shift) & _LAND[direction])
    return int((x >> -shift) & _LOW[-shift] & _LAND[direction])


@numba.njit(cache=True)
def legal(p: KernelArray, s: KernelArray, out: KernelArray) -> int:
    """Tower moves (near and far cell empty or own wall), then sacrifices (spec §6)."""
    if s[S_OVER]:
        return 0
    own = 2 * s[S_SIDE]
    towers = s[own]
    enemy_walls = s[3 - own]
    free = p[P_MASK] & ~(towers | s[2 - own] | enemy_walls)
    cells = p[P_CELLS]
    n = 0
    for direction in range(8):
        back = direction ^ 4  # the opposite direction
        near_free = free & _step(free, back)  # free cells whose next cell is free too
        origins = towers & _step(near_free, back)
        base = direction * cells
        while origins:
            low = origins & -origins
            cell = _bit_index(low)
            out[n] = base + cell + (cell >> 3)
            n += 1
            origins ^= low
    if enemy_walls:
        for direction in range(8):
            origins = towers & _step(enemy_walls, direction ^ 4)
            base = (8 + direction) * cells
            while origins:
                low = origins & -origins
                cell = _bit_index(low)
                out[n] = base + cell + (cell >> 3)
                n += 1
                origins ^= low
    return n


@numba.njit(cache=True)
def _can_move(towers: int, enemy_walls: int, free: int) -> bool:
    """Whether ``towers`` have any tower move (over ``free`` cells) or sacrifice.

    Takes bitboards, not the state: a compiled call passing an array costs Numba a reference
    count on it, both ways, and these calls leave ``apply`` none to make.
    """
    for direction in range(8):
        back = direction ^ 4
        if towers & (_step(free & _step(free, back), back) | _step(enemy_walls, back)):
            return True
    return False


@numba.njit(cache=True)
def apply(p: KernelArray, s: KernelArray, action: int) -> None:
    """Play ``action`` (spec §7), then breakthrough, stalemate (§8), repetition, ply cap (§9)
    (the last two as ``State._check_shared_rules``)."""
    code = p[P_DECODE + action]
    cell = code & 63
    step = _SHIFT[code >> 6 & 7]
    mover = s[S_SIDE]
    own = 2 * mover
    zobrist = P_ZOBRIST + own * 64  # the mover's towers' keys; its walls' follow
    towers = s[own] ^ (1 << cell)  # the tower leaves its cell either way
    walls = s[own + 1]
    key = s[S_KEY] ^ p[P_ZOBRIST + 256] ^ p[zobrist + cell]
    sacrifice = code >= 8 << 6
    if not sacrifice:  # tower move: the near and far cells each gain a stone
        near = cell + step
        far = near + step
        targets = (1 << near) | (1 << far)
        # An empty cell gains a wall; an own wall loses its wall key and gains a tower's.
        key ^= p[zobrist + 64 + near] ^ p[zobrist + 64 + far]
        if walls >> near & 1:
            key ^= p[zobrist + near]
        if walls >> far & 1:
            key ^= p[zobrist + far]
        towers |= walls & targets
        walls ^= targets
    else:  # sacrifice: the enemy wall goes, the tower becomes a wall
        wall = cell + step
        s[3 - own] ^= 1 << wall
        walls |= 1 << cell
        key ^= p[P_ZOBRIST + (3 - own) * 64 + wall] ^ p[zobrist + 64 + cell]
    s[own] = towers
    s[own + 1] = walls
    s[S_KEY] = key
    s[S_SIDE] = 1 - mover
    ply = s[S_PLY] + 1
    s[S_PLY] = ply
    enemy_towers = s[2 - own]
    winner = mover
    termination = 0
    if (towers | walls) & p[P_GOALS + mover]:
        termination = _HOME_ROW
    elif not _can_move(enemy_towers, walls, p[P_MASK] & ~(enemy_towers | towers | walls)):
        termination = _STALEMATE
    else:
        winner = -1
        limit = p[P_REPETITION]
        if limit:
            if sacrifice:  # no earlier position can come back
                s[S_COUNT] = 0
                s[S_NODE] = 0
            if record(s, HISTORY, p[P_CAPACITY], S_COUNT, S_NODE, key) >= limit:
                termination = _REPETITION
        cap = p[P_MAX_PLIES]
        if not termination and cap and ply >= cap:
            termination = _PLY_CAP
    if termination:
        s[S_OVER] = 1
        s[S_WINNER] = winner
        s[S_TERMINATION] = termination


@numba.njit(cache=True)
def is_over(p: KernelArray, s: KernelArray) -> bool:
    """True when the game has ended."""
    return bool(s[S_OVER] != 0)


@numba.njit(cache=True)
def returns(p: KernelArray, s: KernelArray, out: KernelArray) -> None:
    """+1 to the winner and -1 to the loser; zeros for a draw or a game still going on."""
    out[0] = 0.0
    out[1] = 0.0
    if s[S_OVER] and s[S_WINNER] >= 0:
        out[s[S_WINNER]] = 1.0
        out[1 - s[S_WINNER]] = -1.0


@numba.njit(cache=True)
def truncated(p: KernelArray, s: KernelArray) -> bool:
    """True when the game ended by its ply cap."""
    return bool(s[S_OVER] != 0 and s[S_TERMINATION] == _PLY_CAP)


@numba.njit(cache=True)
def player(p: KernelArray, s: KernelArray) -> int:
    """The seat to move."""
    return int(s[S_SIDE])


@numba.njit(cache=True)
def key(p: KernelArray, s: KernelArray) -> int:
    """The incremental Zobrist key of the board and the side to move."""
    return int(s[S_KEY])


def _to_cells(bits: int) -> int:
    """A reference bitboard (9-bit rows) as a kernel bitboard (8-bit rows), as an int64."""
    out = 0
    while bits:
        low = bits & -bits
        index = low.bit_length() - 1
        out |= 1 << (index - index // STRIDE)
        bits ^= low
    return out - (1 << 64) if out >> 63 else out


def _from_cells(bits: int) -> int:
    """A kernel bitboard as the reference's (9-bit rows)."""
    bits &= (1 << 64) - 1
    out = 0
    while bits:
        low = bits & -bits
        index = low.bit_length() - 1
        out |= 1 << (index + index // 8)
        bits ^= low
    return out


def history_capacity(game: MurusGallicus) -> int:
    """The keys of turn starts the state holds (see the module docstring): every one a game can
    have since the last sacrifice when a ply cap bounds them, else ``INLINE_LIMIT``."""
    if not game.repetition_draw:
        return 0
    return min(game.max_plies + 1, INLINE_LIMIT) if game.max_plies else INLINE_LIMIT


def _params(game: MurusGallicus, capacity: int) -> KernelArray:
    board = game.board
    p = np.zeros(PARAMS_SIZE, dtype=np.int64)
    p[P_CELLS] = board.cells
    p[P_REPETITION] = game.repetition_draw
    p[P_MAX_PLIES] = game.max_plies
    p[P_MASK] = _to_cells(board.mask)
    p[P_GOALS] = _to_cells(board.goals[0])
    p[P_GOALS + 1] = _to_cells(board.goals[1])
    # A fixed seed: equal positions get equal keys in every process.
    rng = np.random.default_rng(20_2026)
    p[P_ZOBRIST:P_CAPACITY] = rng.integers(
        -(1 << 63), (1 << 63) - 1, size=4 * 64 + 1, dtype=np.int64
    )
    p[P_CAPACITY] = capacity
    for action in range(16 * board.cells):
        kind_direction, origin = divmod(action, board.cells)
        p[P_DECODE + action] = kind_direction * 64 + origin - origin // STRIDE
    return p


def _zobrist(p: KernelArray, boards: list[int], side: int) -> int:
    """The key of a position computed from scratch (as an int64)."""
    value = int(p[P_ZOBRIST + 256]) if side else 0
    for kind, bits in enumerate(boards):
        bits &= (1 << 64) - 1
        while bits:
            low = bits & -bits
            value ^= int(p[P_ZOBRIST + kind * 64 + low.bit_length() - 1])
            bits ^= low
    return value


def make_kernel(game: Game, history: int | None = None) -> Kernel:
    """The compiled twin of ``game`` with its options (board, repetition_draw, max_plies).

    ``history`` overrides the history's slots in the state (tests use a few, so that most of a
    game's keys go to the store); by default :func:`history_capacity`.
    """
    assert isinstance(game, MurusGallicus)
    capacity = history_capacity(game) if history is None else history
    p = _params(game, capacity)

    # Keyed by the reference's repetition key: a game's history is encoded again and again.
    @lru_cache(maxsize=1 << 16)
    def key_of(seen: tuple[int, ...]) -> int:
        return _zobrist(p, [_to_cells(bits) for bits in seen[:4]], seen[4])

    def encode(state: State) -> KernelArray:
        """The kernel state of a reference state, its outcome and repetition history."""
        assert isinstance(state, MurusGallicusState)
        s = np.zeros(HISTORY + capacity, dtype=np.int64)
        s[0:4] = [_to_cells(bits) for bits in state.bits]
        s[S_SIDE] = state.side
        s[S_PLY] = state.ply
        s[S_KEY] = key_of((*state.bits, state.side))
        stones = _stones(state.bits)
        history = [
            key_of(seen)
            for seen, count in state._seen.items()
            if isinstance(seen, tuple) and _stones(seen[:4]) == stones
            for _ in range(count)
        ]
        s[S_COUNT], s[S_NODE] = lay_out(history, capacity, s, HISTORY)
        outcome = state.outcome
        if outcome is not None:
            winners = [seat for seat, reward in enumerate(outcome.rewards()) if reward > 0]
            s[S_OVER] = 1
            s[S_WINNER] = winners[0] if winners else -1
            s[S_TERMINATION] = _TERMINATIONS.index(outcome.termination)
        return s

    def decode(s: KernelArray) -> MurusGallicusState:
        """The reference position (its repetition history is not rebuilt)."""
        bits = [_from_cells(int(b)) for b in s[0:4]]
        state = MurusGallicusState(game, bits, int(s[S_SIDE]), int(s[S_PLY]))
        if s[S_OVER] and s[S_WINNER] < 0:
            termination = _TERMINATIONS[int(s[S_TERMINATION])]
            assert termination is not None
            state._outcome = Outcome.draw(2, termination)
        return state

    return Kernel(
        game=game,
        params=p,
        state_size=HISTORY + capacity,
        max_legal=MAX_LEGAL,
        legal=legal,
        apply=apply,
        is_over=is_over,
        returns=returns,
        player=player,
        key=key,
        encode=encode,
        decode=decode,
        truncated=truncated,
    )


def _stones(bits: Sequence[int]) -> int:
    """Stones on the board: a sacrifice lowers it, nothing raises it."""
    return sum((2 - index % 2) * b.bit_count() for index, b in enumerate(bits))
