"""MCTS on the compiled engine: seeded searches repeat, and a position the kernel cannot hold
is searched on the reference engine instead."""

from __future__ import annotations

import pytest

import boardlab
from boardlab.ai.mcts import MctsBot
from boardlab.core.state import State

pytest.importorskip("numba")


def _cycled(plies: int) -> State:
    """A game with ``plies`` decisions and no sacrifice: a long repetition history."""
    game = boardlab.make("murus-gallicus", repetition_draw=1000, max_plies=0)
    state = game.state_from_text("GG6/8/8/8/8/8/RR6 R 0")
    moves = [m.replace("1", "7") if index % 2 else m for index, m in enumerate(_moves(plies))]
    for move in moves:
        state.play(move)
    return state


def _moves(plies: int) -> list[str]:
    romans = ["b1-d1", "a1-c1", "c1-a1", "b1-d1", "d1-b1", "c1-a1"]
    return [romans[(index // 2) % 6] for index in range(plies)]


def test_a_seeded_search_repeats() -> None:
    state = boardlab.make("murus-gallicus").state_from_text("GGGG1GGG/8/8/4g3/3R4/8/RRR1RRRR R 12")
    first = MctsBot(seed=5, iters=400).choose(state)
    assert MctsBot(seed=5, iters=400).choose(state) == first
    assert first in state.legal_actions()


@pytest.mark.parametrize("plies", [120, 108])
def test_a_history_too_long_for_the_kernel_falls_back(plies: int) -> None:
    """120 plies: the kernel cannot encode the game; 108: it overflows during the search."""
    state = _cycled(plies)
    bot = MctsBot(seed=1, iters=300, rollout=8)
    assert bot.choose(state) in state.legal_actions()
    assert bot.stats()["simulations"] == 300
