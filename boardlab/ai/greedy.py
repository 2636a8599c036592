"""The greedy bot: one decision ahead, scored by the game's own evaluation.

It takes a winning decision when one exists, avoids decisions that lose at once, and otherwise
picks the decision whose resulting position has the best ``heuristic`` for the acting player.
``noise`` adds seeded random jitter to the scores so that a weak level varies its play.
"""

from __future__ import annotations

import random

from boardlab.ai.base import Bot
from boardlab.core.state import State


def terminal_value(state: State, player: int) -> float:
    """The reward of a finished game for ``player``: +1 win, 0 draw, -1 loss."""
    return state.returns()[player]


def evaluate(state: State, player: int) -> float:
    """A score for ``player``: terminal reward (scaled beyond any heuristic) or the heuristic."""
    if state.is_terminal():
        return 2.0 * terminal_value(state, player)
    return state.heuristic(player)


class GreedyBot(Bot):
    """Plays the decision with the best one-ply evaluation; ties broken by the seeded RNG."""

    def __init__(self, seed: int | None = None, noise: float = 0.0, spec: str = "greedy") -> None:
        super().__init__(seed, spec)
        self._rng = random.Random(seed)
        self._noise = noise

    def _choose(self, state: State) -> int:
        """The legal action with the highest (jittered) evaluation for the player to move."""
        player = state.current_player
        actions = state.legal_actions()
        self._rng.shuffle(actions)
        best_action, best_score = actions[0], float("-inf")
        for action in actions:
            score = evaluate(state.child(action), player)
            if self._noise:
                score += self._rng.uniform(-self._noise, self._noise)
            if score > best_score:
                best_action, best_score = action, score
        return best_action
