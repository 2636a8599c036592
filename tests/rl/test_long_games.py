"""The RL environments play long games to their end (issue 37).

A learning agent soon plays Murus Gallicus games of more than 112 turns without a sacrifice;
the kernel's history once held 112 turn starts, and the whole batch died with ``SystemError``.
Here every seat plays the stalling policy of :mod:`tests.games.long_games` against the
reference rules played alongside, to the ply cap.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from boardlab.core.game import Game
from boardlab.core.outcome import Termination
from boardlab.core.registry import make
from boardlab.games.murus_gallicus.kernel import make_kernel
from boardlab.rl import BoardlabAECEnv, vector
from boardlab.rl.vector import BatchedGame, VectorEnv, seeded_generators
from tests.games.murus_gallicus.test_long_games import STALLING
from tests.rl.cases import ALL_CORES

SEED = 4
"""A seed of the stalling policy whose game (default options) reaches the ply cap."""


def test_batched_games_without_a_sacrifice_run_to_the_ply_cap() -> None:
    """Each game of the batch is the stalling game of ``SEED + i``, played to ply 400."""
    batched = BatchedGame("murus-gallicus", 2)
    batch = batched.init(seed=0)
    states = [batched.game.new_initial_state() for _ in range(2)]
    rngs = [random.Random(SEED), random.Random(SEED)]
    for _ in range(batched.game.max_plies):
        actions = np.array([STALLING(s, r) for s, r in zip(states, rngs, strict=True)])
        batched.step(batch, actions)
        for i, state in enumerate(states):
            state.apply_action(int(actions[i]))
            assert batch.truncated[i] == state.is_terminal()
            assert not batch.terminated[i] and not batch.rewards[i].any()
            if not state.is_terminal():
                ids = batch.legal_ids[i, : batch.legal_count[i]]
                assert sorted(ids.tolist()) == sorted(state.legal_actions())
                assert batch.current_player[i] == state.current_player
    for state in states:
        assert state.outcome is not None and state.outcome.termination is Termination.PLY_CAP
    assert batch.truncated.all()


def test_batched_games_past_a_tiny_history_on_all_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """With room for 2 keys in each state (the rest in the store) and the batch stepped on all
    cores, random games (without a cap, counted by repetition) are the games of a batch with
    the whole history in its states, stepped on one."""
    n = ALL_CORES
    monkeypatch.setattr(vector, "PARALLEL_FROM", n)
    options: dict[str, Any] = {"max_plies": 0, "repetition_draw": 2}
    exact = BatchedGame("murus-gallicus", n, **options)
    monkeypatch.setattr(vector, "kernel_for", lambda game: make_kernel(game, 2))
    tiny = BatchedGame("murus-gallicus", n, **options)
    monkeypatch.setattr(vector, "PARALLEL_FROM", n + 1)
    assert tiny.kernel.state_size < exact.kernel.state_size
    batches = [tiny.init(seed=5), exact.init(seed=5)]
    policy = seeded_generators(7, n)
    ended = 0
    for _ in range(150):
        actions = tiny.random_actions(batches[0], policy)
        tiny.step(batches[0], actions)
        exact.step(batches[1], actions)
        for name in ("observation", "legal_ids", "rewards", "terminated", "truncated"):
            assert (getattr(batches[0], name) == getattr(batches[1], name)).all(), name
        ended += int(batches[0].terminated.sum())
    assert ended >= n


def test_the_vector_env_past_a_tiny_history_on_all_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """The learner against the compiled bots, with room for 2 keys in each state (the rest in
    the store, written by the bots' turns too): what the learner sees is what it sees with the
    whole history in the states."""
    n = ALL_CORES
    monkeypatch.setattr(vector, "PARALLEL_FROM", n)
    options: dict[str, Any] = {"max_plies": 0, "repetition_draw": 2}
    exact = VectorEnv("murus-gallicus", n, seat=1, **options)
    monkeypatch.setattr(vector, "kernel_for", lambda game: make_kernel(game, 2))
    tiny = VectorEnv("murus-gallicus", n, seat=1, **options)
    seen = [env.reset(seed=9)[0] for env in (tiny, exact)]
    assert (seen[0] == seen[1]).all()
    policy = seeded_generators(3, n)
    ends = 0
    for _ in range(100):
        batch = tiny._batch
        assert batch is not None
        actions = tiny.batched.random_actions(batch, policy)
        (obs, rewards, terminated, truncated, _), theirs = (
            env.step(actions) for env in (tiny, exact)
        )
        assert np.array_equal(obs, theirs[0]) and np.array_equal(rewards, theirs[1])
        assert np.array_equal(terminated, theirs[2]) and np.array_equal(truncated, theirs[3])
        ends += int((terminated | truncated).sum())
    assert ends >= n


def test_the_pettingzoo_environment_runs_a_game_without_a_sacrifice_to_the_ply_cap() -> None:
    """On the kernel, both agents stalling, checked against the reference at every step."""
    env = BoardlabAECEnv("murus-gallicus")
    assert env.compiled is not None
    env.reset(seed=0)
    game: Game = make("murus-gallicus")
    state = game.new_initial_state()
    rng = random.Random(SEED)
    final: dict[str, float] = {}
    steps = 0
    while env.agents:
        agent = env.agent_selection
        _, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated
            final[agent] = reward
            env.step(None)
            continue
        assert env.legal_actions() == sorted(state.legal_actions())
        action = STALLING(state, rng)
        env.step(action)
        state.apply_action(action)
        steps += 1
    assert steps == game.max_plies
    assert state.outcome is not None and state.outcome.termination is Termination.PLY_CAP
    assert final == {"player_0": 0.0, "player_1": 0.0}
    assert env.state_.position_text() == state.position_text()
