"""Carnyx evaluation for bots: control of stacks, buried material, advance and reserve (spec §3,
§6.3, §8)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from boardlab.games.carnyx.board import COLOURS, SIZE

if TYPE_CHECKING:
    from boardlab.games.carnyx.state import CarnyxState

STACK_WEIGHT = 1.0
"""Each controlled stack: losing the last one loses the game."""
HEIGHT_WEIGHT = 0.4
"""Each piece under a player's control, buried captives included: exiting it earns reserve."""
RESERVE_WEIGHT = 0.6
"""Each reserve piece: a future stack, but no protection against the loss by capture."""
ADVANCE_WEIGHT = 0.1
"""Each rank a controlled stack stands beyond its owner's home rank: stacks exit across the far
edge to earn reserve. Measured by a match (docs/bots.md, "Evaluations")."""
SCALE = 5.0


def evaluate(state: CarnyxState, player: int) -> float:
    """Value in [-1, 1] for ``player``: +-1 for a decided game, else a squashed material count."""
    outcome = state.outcome
    if outcome is not None:
        return outcome.rewards()[player]
    score = [0.0, 0.0]
    for square, stack in enumerate(state.board):
        if stack:
            seat = COLOURS.index(stack[-1])
            rank = square // SIZE
            advance = rank if seat == 0 else SIZE - 1 - rank
            score[seat] += STACK_WEIGHT + HEIGHT_WEIGHT * len(stack) + ADVANCE_WEIGHT * advance
    for seat in (0, 1):
        score[seat] += RESERVE_WEIGHT * state.pools[3 * seat + 2]
    return math.tanh((score[player] - score[1 - player]) / SCALE)
