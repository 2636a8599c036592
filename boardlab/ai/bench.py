"""Bot speed for ``boardlab bench``: MCTS simulations and alpha-beta nodes per second.

Both are measured on one core from a position a few random decisions into the game (so the
figures reflect play, not the opening alone), with a fixed seed.
"""

from __future__ import annotations

import random

from boardlab.ai.alphabeta import AlphaBetaBot
from boardlab.ai.mcts import MctsBot
from boardlab.core.game import Game
from boardlab.core.state import State


def bench_position(game: Game, decisions: int = 6, seed: int = 0) -> State:
    """A position ``decisions`` random decisions in (fewer if the game ends sooner)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(decisions):
        actions = state.legal_actions()
        if not actions:
            break
        child = state.child(rng.choice(actions))
        if child.is_terminal():
            break
        state = child
    return state


def bot_speed(game: Game, seconds: float = 2.0) -> dict[str, float]:
    """``mcts_sims_per_s`` and (two-player games) ``alphabeta_nodes_per_s`` over ``seconds``."""
    state = bench_position(game)
    view = state.view_state(state.current_player)
    share = seconds / 2 if game.num_players == 2 else seconds
    # A short search first, so that loading the compiled engine's drivers is not timed.
    MctsBot(seed=0, iters=2, reuse=False).choose(view)
    mcts = MctsBot(seed=0, iters=None, time=share, reuse=False)
    mcts.choose(view)
    stats = mcts.stats()
    result = {"mcts_sims_per_s": stats.get("simulations", 0.0) / max(stats["seconds"], 1e-9)}
    if game.num_players == 2:
        alphabeta = AlphaBetaBot(seed=0, depth=None, time=share)
        alphabeta.choose(view)
        stats = alphabeta.stats()
        result["alphabeta_nodes_per_s"] = stats.get("nodes", 0.0) / max(stats["seconds"], 1e-9)
    return result
