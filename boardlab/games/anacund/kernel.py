"""The Anacund kernel: parameters from the options, and conversion to and from reference states.

The compiled rules and the array layout are in ``kernel_rules.py``. The layout option
(``random`` is drawn from the seed when the Game is made) reaches the kernel through the
state: ``encode`` copies the values and bonus square of the reference state, so a position
text with its own layout is served too, and no chance remains inside the kernel.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np

from boardlab.core.engine import Kernel, KernelArray
from boardlab.core.game import Game
from boardlab.core.state import State
from boardlab.games.anacund.board import SQUARES, make_layout
from boardlab.games.anacund.game import Anacund
from boardlab.games.anacund.kernel_rules import (
    BOARD,
    BONUS,
    CODES,
    DE_BRUIJN,
    FREE,
    FREE_SQUARES,
    GROUPS,
    KEY,
    MAX_LEGAL,
    P_BIT_INDEX,
    P_BONUS_POINTS,
    P_NEXT,
    P_PREVIOUS,
    P_TIE_B,
    PARAMS_SIZE,
    PLY,
    SCORES,
    SIDE,
    STATE_SIZE,
    STATUS,
    SUB,
    VALUE_SQUARES,
    VALUES,
    WINNER,
    Z_BONUS,
    Z_GROUP,
    Z_SIDE,
    Z_SQUARE,
    Z_SUB,
    Z_VALUE,
    apply,
    is_over,
    key,
    legal,
    player,
    returns,
    truncated,
)
from boardlab.games.anacund.state import AnacundState


def make_params(game: Anacund) -> KernelArray:
    """The parameter array of ``game``: scoring options, neighbour tables, Zobrist numbers."""
    return _params(game.bonus_points, game.tie == "b", game.neighbours)


@lru_cache(maxsize=16)
def _params(
    bonus_points: int, tie_b: bool, neighbours: tuple[tuple[int, ...], tuple[int, ...]]
) -> KernelArray:
    """The parameters of these options, made once: games differing only in their layout or seed
    (the lab makes one per game) share them, as the layout reaches the kernel by the state."""
    p = np.zeros(PARAMS_SIZE, dtype=np.int64)
    p[P_BONUS_POINTS] = bonus_points
    p[P_TIE_B] = int(tie_b)
    nxt, prv = neighbours
    p[P_NEXT:P_PREVIOUS] = nxt
    p[P_PREVIOUS:Z_SQUARE] = prv
    rng = np.random.default_rng(0xA2AC)
    p[Z_SQUARE:P_BIT_INDEX] = rng.integers(
        -(2**63), 2**63 - 1, size=P_BIT_INDEX - Z_SQUARE, dtype=np.int64
    )
    for i in range(64):
        p[P_BIT_INDEX + ((1 << i) * DE_BRUIJN % 2**64 >> 58)] = i
    return p


def encoder(p: KernelArray) -> Callable[[State], KernelArray]:
    """The function building a kernel state from a reference state, its key from scratch."""
    z = p.tolist()  # Python ints: indexing them is much faster than indexing NumPy
    return lambda state: _encode(z, state)


def _encode(z: list[int], state: State) -> KernelArray:
    """The kernel state of ``state`` (``z``: the parameters as Python ints)."""
    if not isinstance(state, AnacundState):
        raise TypeError(f"not an Anacund state: {state!r}")
    # Filled as a list and converted once: writing NumPy elements one by one is slow.
    s = [0] * STATE_SIZE
    s[BOARD : BOARD + SQUARES] = state.squares
    s[VALUES : VALUES + SQUARES] = state.layout.value_of
    s[BONUS] = state.layout.bonus - 1
    s[SIDE], s[SUB], s[PLY] = state.side, state.sub, state.ply
    s[GROUPS : GROUPS + 6] = [*state.groups[0], *state.groups[1]]
    key = 0
    for i in range(SQUARES):
        key ^= z[Z_SQUARE + CODES * i + s[BOARD + i]] ^ z[Z_VALUE + 7 * i + s[VALUES + i]]
    key ^= z[Z_BONUS + s[BONUS]] ^ z[Z_SUB + state.sub]
    key ^= z[Z_SIDE] if state.side else 0
    for slot in range(6):
        key ^= z[Z_GROUP + 7 * slot + s[GROUPS + slot]]
    s[KEY] = key
    s[FREE_SQUARES] = sum(1 << i for i, code in enumerate(state.squares) if code == FREE)
    for value in range(1, 7):
        s[VALUE_SQUARES + value - 1] = sum(1 << i for i in state.layout.by_value[value])
    outcome = state.outcome
    if outcome is not None:
        s[STATUS] = 1
        s[WINNER] = outcome.winners[0] if outcome.winners else -1
        s[SCORES : SCORES + 2] = outcome.scores or (0, 0)
    return np.array(s, dtype=np.int64)


def decoder(game: Anacund) -> Callable[[KernelArray], State]:
    """The function giving the reference state of a kernel state."""

    def decode(s: KernelArray) -> State:
        v = s.tolist()
        layout = make_layout("".join(map(str, v[VALUES : VALUES + SQUARES])), v[BONUS] + 1)
        groups = (tuple(v[GROUPS : GROUPS + 3]), tuple(v[GROUPS + 3 : GROUPS + 6]))
        squares = bytearray(v[BOARD : BOARD + SQUARES])
        # The constructor scores a finished position itself, exactly as the reference does.
        return AnacundState(game, layout, squares, v[SIDE], v[SUB], groups)

    return decode


def make_kernel(game: Game) -> Kernel:
    """The compiled twin of ``game`` (its options resolved into the parameters)."""
    if not isinstance(game, Anacund):
        raise TypeError(f"not an Anacund game: {game!r}")
    params = make_params(game)
    return Kernel(
        game=game,
        params=params,
        state_size=STATE_SIZE,
        max_legal=MAX_LEGAL,
        legal=legal,
        apply=apply,
        is_over=is_over,
        returns=returns,
        player=player,
        key=key,
        encode=encoder(params),
        decode=decoder(game),
        truncated=truncated,
    )
