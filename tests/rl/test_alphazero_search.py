"""The PUCT search of the AlphaZero example (``examples/az_search.py``), run without a network.

With uniform priors it is a plain PUCT search over the batched environment: these tests check
that its trees follow the rules and that it finds a win in one in every game searched together.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from boardlab.core.registry import make
from boardlab.core.state import State
from boardlab.rl.fast import observation_encoder
from boardlab.rl.vector import BatchedGame

GAME = "murus-gallicus"


def _module() -> ModuleType:
    path = Path(__file__).parents[2] / "examples" / "az_search.py"
    spec = importlib.util.spec_from_file_location("az_search", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["az_search"] = module
    spec.loader.exec_module(module)
    return module


az = _module()


def _wins_in_one(state: State) -> set[int]:
    """The moves that end the game with a win for the seat to move."""
    seat = state.current_player
    wins = set()
    for action in state.legal_actions():
        child = state.child(action)
        if child.is_terminal() and child.returns()[seat] > 0:
            wins.add(action)
    return wins


def _positions_with_a_win(count: int) -> list[State]:
    """Positions of seeded random games where the seat to move can win at once, with at most a
    quarter of its moves winning (late in a random game every move often wins)."""
    found: list[State] = []
    game = make(GAME)
    for seed in range(1000):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            wins = len(_wins_in_one(state))
            if 0 < wins <= len(state.legal_actions()) // 4:
                found.append(state)
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if len(found) == count:
            return found
    raise AssertionError("no positions found")


def _root(kernel: Any, state: State) -> Any:
    """An unexpanded search node for ``state``."""
    legal = np.array(state.legal_actions(), dtype=np.int64)
    return az.Node(kernel.encode(state), state.current_player, legal)


@pytest.mark.parametrize("dense", [True, False])
def test_the_search_of_every_game_finds_its_win_in_one(dense: bool) -> None:
    # The search sets its scratch rows' positions (``set_states``) before each batched step,
    # so the step reads legality from them whatever the mask mode (issue 37: with the dense
    # mask, writing ``states`` alone left the old mask rows, and only 3 of 24 wins were found).
    states = _positions_with_a_win(24)
    env = BatchedGame(GAME, len(states), dense_mask=dense)
    search = az.BatchedPuct(env, az.uniform_evaluator, 150)
    encoder = observation_encoder(env.game)
    roots = [_root(env.kernel, state) for state in states]
    planes = np.stack([encoder.encode(s, s.current_player) for s in states])
    search.expand(roots, planes)
    visits = search.search(roots)
    for state, root, counts in zip(states, roots, visits, strict=True):
        assert counts.sum() == 150
        assert int(root.actions[int(np.argmax(counts))]) in _wins_in_one(state)


def test_the_trees_follow_the_rules() -> None:
    game = make(GAME)
    rng = random.Random(3)
    states = []
    for plies in (0, 5, 17):
        state = game.new_initial_state()
        for _ in range(plies):
            state.apply_action(rng.choice(state.legal_actions()))
        states.append(state)
    env = BatchedGame(GAME, len(states), dense_mask=False)
    search = az.BatchedPuct(env, az.uniform_evaluator, 60)
    encoder = observation_encoder(env.game)
    roots = [_root(env.kernel, state) for state in states]
    search.expand(roots, np.stack([encoder.encode(s, s.current_player) for s in states]))
    search.search(roots)
    checked = 0
    pending = list(zip(states, roots, strict=True))
    while pending:
        state, node = pending.pop()
        assert sorted(node.actions.tolist()) == sorted(state.legal_actions())
        assert node.player == state.current_player
        for action, child in zip(node.actions.tolist(), node.children, strict=True):
            if child is None:
                continue
            after = state.child(action)
            if child.returns is not None:
                assert after.is_terminal()
                assert list(child.returns) == list(after.returns())
            else:
                assert np.array_equal(child.state, env.kernel.encode(after))
                pending.append((after, child))
            checked += 1
    assert checked >= 150
