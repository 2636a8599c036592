"""The greedy bot: one decision ahead, scored by the game's own evaluation.

It takes a winning decision when one exists, avoids decisions that lose at once, and otherwise
picks the decision whose resulting position has the best ``heuristic`` for the acting player.
``noise`` adds seeded random jitter to the scores so that a weak level varies its play.

With the compiled engine (docs/engine.md) and a game's compiled evaluation, the children are
scored on the kernel in one compiled call (:mod:`boardlab.ai.greedy_template`); the candidates,
their order and the random draws are the reference's, and the scores equal, so the bot makes
the same decisions on either engine.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from boardlab.ai.base import Bot
from boardlab.core.engine import kernel_evaluation, kernel_for
from boardlab.core.state import State

if TYPE_CHECKING:
    from boardlab.core.game import Game

Scorer = Callable[[State, list[int], int], list[float]]
"""Scores ``actions`` of ``state`` for ``player`` as :func:`evaluate` scores their children."""


def terminal_value(state: State, player: int) -> float:
    """The reward of a finished game for ``player``: +1 win, 0 draw, -1 loss."""
    return state.returns()[player]


def evaluate(state: State, player: int) -> float:
    """A score for ``player``: terminal reward (scaled beyond any heuristic) or the heuristic."""
    if state.is_terminal():
        return 2.0 * terminal_value(state, player)
    return state.heuristic(player)


def reference_scores(state: State, actions: list[int], player: int) -> list[float]:
    """The score of each action's child on the reference engine."""
    return [evaluate(state.child(action), player) for action in actions]


class GreedyBot(Bot):
    """Plays the decision with the best one-ply evaluation; ties broken by the seeded RNG."""

    def __init__(self, seed: int | None = None, noise: float = 0.0, spec: str = "greedy") -> None:
        super().__init__(seed, spec)
        self._rng = random.Random(seed)
        self._noise = noise
        self._scorer: tuple[Game, Scorer | None] | None = None

    def _choose(self, state: State) -> int:
        """The legal action with the highest (jittered) evaluation for the player to move."""
        player = state.current_player
        actions = state.legal_actions()
        self._rng.shuffle(actions)
        if self._scorer is None or self._scorer[0] is not state.game:
            self._scorer = (state.game, compiled_scorer(state.game))
        scorer = self._scorer[1]
        # A kernel error is a bug (every kernel plays every legal game): it is raised, never
        # hidden behind the reference engine's scores.
        if scorer is not None:
            scores = scorer(state, actions, player)
        else:
            scores = reference_scores(state, actions, player)
        best_action, best_score = actions[0], float("-inf")
        for action, score in zip(actions, scores, strict=True):
            if self._noise:
                score += self._rng.uniform(-self._noise, self._noise)
            if score > best_score:
                best_action, best_score = action, score
        return best_action


def compiled_scorer(game: Game) -> Scorer | None:
    """The compiled scoring of ``game``'s decisions, or None when the game runs on the
    reference engine here or its kernel has no compiled evaluation."""
    kernel = kernel_for(game)
    evaluation = None if kernel is None else kernel_evaluation(game)
    if kernel is None or evaluation is None:
        return None
    # Imported here: NumPy and the drivers come with the compiled engine only.
    from pathlib import Path

    import numpy as np

    from boardlab.core.kernel_drivers import specialised

    template = Path(__file__).with_name("greedy_template.py")
    roles = {"apply": kernel.apply, "is_over": kernel.is_over, "returns": kernel.returns}
    module = specialised(template, {**roles, "evaluate": evaluation})
    rewards = np.zeros(game.num_players, dtype=np.float64)

    def scores(state: State, actions: list[int], player: int) -> list[float]:
        out = np.empty(len(actions), dtype=np.float64)
        ids = np.array(actions, dtype=np.int64)
        module.child_scores(kernel.params, kernel.encode(state), ids, player, rewards, out)
        values: list[float] = out.tolist()
        return values

    return scores
