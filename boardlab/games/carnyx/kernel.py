"""The Carnyx kernel: parameters from the options, and conversion to and from reference states.

The compiled rules and the array layout are in ``kernel_rules.py``; this module builds the
parameter array (option flags, board tables, Zobrist numbers) and converts states between the
engines (plain Python, not hot).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import lru_cache

import numpy as np

from boardlab.core.engine import Kernel, KernelArray
from boardlab.core.game import Game
from boardlab.core.kernel_history import INLINE_LIMIT, lay_out
from boardlab.core.outcome import Outcome, Termination
from boardlab.core.state import State
from boardlab.games.carnyx.board import COLOURS, MOVE_TARGET, SQUARES, STEP1, STEP2
from boardlab.games.carnyx.game import Carnyx
from boardlab.games.carnyx.kernel_rules import (
    CONTROL,
    HEIGHT,
    HISTORY,
    HISTORY_LENGTH,
    HUNKERED,
    KEY,
    LEVELS,
    MARKER,
    MASK,
    MAX_LEGAL,
    MEMORY,
    NODE,
    P_CAP,
    P_HISTORY,
    P_REPEAT,
    P_STEP1,
    P_STEP2,
    P_TARGET,
    PARAMS_SIZE,
    PLY,
    POOLS,
    REMEMBERED,
    SIDE,
    STATUS,
    TERMINATION,
    WINNER,
    Z_HUNKER,
    Z_MARKER,
    Z_MEMORY,
    Z_PIECE,
    Z_POOL,
    Z_SIDE,
    apply,
    is_over,
    key,
    legal,
    player,
    returns,
    truncated,
)
from boardlab.games.carnyx.position import MARKERS, Fields
from boardlab.games.carnyx.state import CarnyxState

TERMINATIONS = (
    None,
    Termination.ALL_CAPTURED,
    Termination.EXHAUSTION,
    Termination.FORCED_PASSES,
    Termination.REPETITION,
    Termination.PLY_CAP,
)
"""The termination of each code in ``s[TERMINATION]`` (0 while the game goes on)."""


def history_capacity(game: Carnyx) -> int:
    """The keys of turn starts each side's history holds in the state (see ``kernel_rules``):
    all a side can have when a ply cap bounds them, else ``INLINE_LIMIT``."""
    if not game.repetition_draw:
        return 0
    cap = game.max_plies
    return max(1, min((cap - 4) // 2, INLINE_LIMIT)) if cap else INLINE_LIMIT


def make_params(game: Carnyx, history: int) -> KernelArray:
    """The parameter array of ``game`` with ``history`` keys a side in the state: option
    flags, geometry and Zobrist tables."""
    p = np.zeros(PARAMS_SIZE, dtype=np.int64)
    cap = game.max_plies
    flags = (game.allow_merge, game.jump_own, game.immediate, game.token, game.reentry)
    p[: len(flags)] = [int(flag) for flag in flags]
    p[P_REPEAT], p[P_CAP], p[P_HISTORY] = game.repetition_draw, cap, history
    p[P_STEP1:P_STEP2] = [STEP1[x][d] for x in range(SQUARES) for d in range(4)]
    p[P_STEP2:P_TARGET] = [STEP2[x][d] for x in range(SQUARES) for d in range(4)]
    p[P_TARGET:Z_PIECE] = MOVE_TARGET
    rng = np.random.default_rng(0xCA27)
    p[Z_PIECE:] = rng.integers(-(2**63), 2**63 - 1, size=PARAMS_SIZE - Z_PIECE, dtype=np.int64)
    return p


def _zobrist(
    z: list[int],
    board: list[str],
    side: int,
    pools: tuple[int, ...],
    hunker: int,
    memory: tuple[tuple[int, int], ...],
    marker: str,
) -> int:
    """The key of position-text fields 1-6, computed from scratch (``z``: the parameters)."""
    if max(map(len, board)) > LEVELS or max(pools) >= LEVELS:
        raise ValueError("Carnyx kernel: a stack or pool is beyond the kernel's tables")
    key = 0
    for square, stack in enumerate(board):
        for level, colour in enumerate(stack):
            key ^= z[Z_PIECE + 2 * (LEVELS * square + level) + COLOURS.index(colour)]
    key ^= z[Z_SIDE] if side else 0
    for pool, value in enumerate(pools):
        key ^= z[Z_POOL + LEVELS * pool + value]
    for seat in (0, 1):
        key ^= z[Z_HUNKER + seat] if hunker >> seat & 1 else 0
    for to, origin in memory:
        key ^= z[Z_MEMORY + SQUARES * to + origin]
    return key ^ z[Z_MARKER + MARKERS.index(marker)]


def _irreversible(board: list[str], pools: tuple[int, ...]) -> tuple[int, int]:
    """Total supply and total pieces in play: neither ever grows (see ``kernel_rules``)."""
    return pools[1] + pools[4], sum(map(len, board)) + sum(pools)


def encoder(game: Carnyx, p: KernelArray) -> Callable[[State], KernelArray]:
    """The function building a kernel state from a reference state of ``game``."""
    capacity = int(p[P_HISTORY])
    size = HISTORY + 2 * capacity
    z = p.tolist()  # Python ints: indexing them is much faster than indexing NumPy

    @lru_cache(maxsize=4096)
    def seen_entry(seen: Hashable) -> tuple[int, tuple[int, int], int]:
        """The side, irreversible totals and key of a repetition key; encoding every ply of a
        game (as the lock-step check does) meets the same keys again and again."""
        board, side, pools, hunker, memory, marker = _unpack(seen)
        key = _zobrist(z, board, side, pools, hunker, memory, marker)
        return side, _irreversible(board, pools), key

    def encode(state: State) -> KernelArray:
        if not isinstance(state, CarnyxState):
            raise TypeError(f"not a Carnyx state: {state!r}")
        # Filled as a list and converted once: writing NumPy elements one by one is slow.
        s = [0] * size
        for square, stack in enumerate(state.board):
            s[HEIGHT + square] = len(stack)
            s[MASK + square] = sum(1 << i for i, c in enumerate(stack) if c == COLOURS[1])
            if stack:
                s[CONTROL + COLOURS.index(stack[-1])] |= 1 << square
        s[MEMORY : MEMORY + SQUARES] = [-1] * SQUARES
        for to, origin in state.memory.items():
            s[MEMORY + to] = origin
            s[REMEMBERED] |= 1 << to
        s[SIDE] = state.side
        s[POOLS : POOLS + 6] = state.pools
        s[HUNKERED] = state.hunker
        s[MARKER] = MARKERS.index(state.marker)
        s[PLY] = state.ply
        memory = tuple(sorted(state.memory.items()))
        s[KEY] = _zobrist(
            z, state.board, state.side, tuple(state.pools), state.hunker, memory, state.marker
        )
        outcome = state.outcome
        if outcome is not None:
            s[STATUS] = 1
            s[WINNER] = outcome.winners[0] if outcome.winners else -1
            s[TERMINATION] = TERMINATIONS.index(outcome.termination)
        # Positions seen before an irreversible ply can never recur: leave them out.
        now = _irreversible(state.board, tuple(state.pools))
        keys: tuple[list[int], list[int]] = ([], [])
        for seen, count in state._seen.items():
            side, totals, key = seen_entry(seen)
            if totals == now:
                keys[side].extend([key] * count)
        for side, history in enumerate(keys):
            start = HISTORY + side * capacity
            s[HISTORY_LENGTH + side], s[NODE + side] = lay_out(history, capacity, s, start)
        return np.array(s, dtype=np.int64)

    return encode


def _unpack(
    seen: Hashable,
) -> tuple[list[str], int, tuple[int, ...], int, tuple[tuple[int, int], ...], str]:
    """The fields of a reference repetition key (see ``CarnyxState._repetition_key``)."""
    assert isinstance(seen, tuple)
    board, side, pools, hunker, memory, marker = seen
    return board.split("|"), side, pools, hunker, memory, marker


def decoder(game: Carnyx) -> Callable[[KernelArray], State]:
    """The function giving the reference state of a kernel state (its outcome included)."""

    def decode(s: KernelArray) -> State:
        v = s.tolist()
        board = [
            "".join(COLOURS[v[MASK + q] >> i & 1] for i in range(v[HEIGHT + q]))
            for q in range(SQUARES)
        ]
        memory = {q: v[MEMORY + q] for q in range(SQUARES) if v[MEMORY + q] >= 0}
        pools = v[POOLS : POOLS + 6]
        fields = Fields(board, v[SIDE], pools, v[HUNKERED], memory, MARKERS[v[MARKER]], v[PLY])
        # The constructor takes the fields as they are and applies the end checks itself.
        state = CarnyxState(game, fields)
        termination = TERMINATIONS[int(s[TERMINATION])]
        if s[STATUS] and termination is not None:
            winner = int(s[WINNER])
            state._outcome = (
                Outcome.draw(2, termination)
                if winner < 0
                else Outcome.win_for(winner, 2, termination)
            )
        return state

    return decode


def make_kernel(game: Game, history: int | None = None) -> Kernel:
    """The compiled twin of ``game`` (its options resolved into the parameters).

    ``history`` overrides the keys a side's history holds in the state (tests use a few, so
    that most go to the store); by default :func:`history_capacity`.
    """
    if not isinstance(game, Carnyx):
        raise TypeError(f"not a Carnyx game: {game!r}")
    params = make_params(game, history_capacity(game) if history is None else history)
    return Kernel(
        game=game,
        params=params,
        state_size=HISTORY + 2 * int(params[P_HISTORY]),
        max_legal=MAX_LEGAL,
        legal=legal,
        apply=apply,
        is_over=is_over,
        returns=returns,
        player=player,
        key=key,
        encode=encoder(game, params),
        decode=decoder(game),
        truncated=truncated,
    )
