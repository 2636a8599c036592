"""Carnyx evaluation for bots: control of stacks, buried material and reserve (spec §3, §8)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from boardlab.games.carnyx.board import COLOURS

if TYPE_CHECKING:
    from boardlab.games.carnyx.state import CarnyxState

STACK_WEIGHT = 1.0
"""Each controlled stack: losing the last one loses the game."""
HEIGHT_WEIGHT = 0.4
"""Each piece under a player's control, buried captives included: exiting it earns reserve."""
RESERVE_WEIGHT = 0.6
"""Each reserve piece: a future stack, but no protection against the loss by capture."""
SCALE = 5.0


def evaluate(state: CarnyxState, player: int) -> float:
    """Value in [-1, 1] for ``player``: +-1 for a decided game, else a squashed material count."""
    outcome = state.outcome
    if outcome is not None:
        return outcome.rewards()[player]
    score = [0.0, 0.0]
    for stack in state.board:
        if stack:
            seat = COLOURS.index(stack[-1])
            score[seat] += STACK_WEIGHT + HEIGHT_WEIGHT * len(stack)
    for seat in (0, 1):
        score[seat] += RESERVE_WEIGHT * state.pools[3 * seat + 2]
    return math.tanh((score[player] - score[1 - player]) / SCALE)
