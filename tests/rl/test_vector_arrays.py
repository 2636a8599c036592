"""Who owns the batched environments' arrays (issue 37): what a step returns, what it reads.

``VectorEnv`` returns arrays of the caller's own by default (a replay buffer keeping ``obs``
and ``next_obs`` keeps two observations), the batch's own with ``copy=False``; a position set
with ``BatchedGame.set_states`` is stepped from correctly whatever the mask mode, and the
arrays it is made into cannot be written behind the step's back.
"""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from boardlab.core.registry import make
from boardlab.rl.vector import BatchedGame, VectorEnv, VectorError, seeded_generators
from tests.rl.test_vector import _check_game

GAME = "murus-gallicus"


def _step(env: VectorEnv, seed: int) -> Any:
    batch = env._batch
    assert batch is not None
    return env.step(env.batched.random_actions(batch, seeded_generators(seed, env.num_envs)))


def test_vector_env_returns_arrays_of_the_caller_s_own() -> None:
    env = VectorEnv(GAME, 4, max_plies=6)  # games end often: final observations too
    first, info = env.reset(seed=1)
    kept = [(first.copy(), first), *((value.copy(), value) for value in info.values())]
    finals = 0
    for k in range(12):
        returned = _step(env, k)
        observation, _, _, _, info = returned
        assert observation.flags.writeable
        batch = env._batch
        assert batch is not None
        for array in [*returned[:4], *info.values(), env.action_masks()]:
            for owned in (batch.planes, batch.rewards, batch.terminated, batch.action_mask):
                assert not np.shares_memory(array, owned)
        kept += [(value.copy(), value) for value in (*returned[:4], *info.values())]
        finals += "final_obs" in info
    assert finals
    for saved, returned_then in kept:  # nothing returned was written by a later step
        assert np.array_equal(saved, returned_then)


def test_vector_env_without_copies_returns_the_batch_s_own_arrays() -> None:
    env = VectorEnv(GAME, 4, copy=False)
    first, _ = env.reset(seed=1)
    observation, rewards, terminated, _, info = _step(env, 0)
    batch = env._batch
    assert batch is not None
    assert observation is first is batch.observation
    assert not observation.flags.writeable
    assert np.shares_memory(rewards, batch.rewards)
    assert terminated is batch.terminated
    assert info["action_mask"] is batch.action_mask is env.action_masks()


@pytest.mark.parametrize("dense", [True, False])
def test_a_position_set_in_a_row_is_stepped_from_whatever_the_mask_mode(dense: bool) -> None:
    batched = BatchedGame(GAME, 3, dense_mask=dense)
    batch = batched.init(seed=0)
    rng = random.Random(2)
    game = make(GAME)
    states = []
    for plies in (9, 14):  # positions of random games, put into rows 2 and 0
        state = game.new_initial_state()
        for _ in range(plies):
            state.apply_action(rng.choice(state.legal_actions()))
        states.append(state)
    batched.set_states(batch, np.stack([batched.kernel.encode(s) for s in states]), [2, 0])
    for row, state in zip((2, 0), states, strict=True):
        _check_game(batched, batch, row, state)
    # Every legal move of row 2's position is legal in the step (none lost to the mask row of
    # the position it held), and plays as in the rules.
    for action in sorted(states[0].legal_actions()):
        trial = copy.deepcopy(batch)
        assert np.shares_memory(trial.states, trial.kernel_states)
        batched.step(trial, [int(trial.legal_ids[0, 0]), int(trial.legal_ids[1, 0]), action])
        after = states[0].child(action)
        assert not trial.terminated[2] or after.is_terminal()
        if not after.is_terminal():
            _check_game(batched, trial, 2, after)


def test_states_are_written_only_through_set_states() -> None:
    batched = BatchedGame(GAME, 2)
    batch = batched.init(seed=0)
    with pytest.raises(ValueError, match="read-only"):
        batch.states[0, 0] = 1
    copied = pickle.loads(pickle.dumps(batch))
    with pytest.raises(ValueError, match="read-only"):
        copied.states[1] = 0
    assert np.shares_memory(copied.observation, copied.planes)
    with pytest.raises(VectorError, match="shape"):
        batched.set_states(batch, batch.states[:1])
    with pytest.raises(VectorError, match="rows"):
        batched.set_states(batch, batch.states[:1], [2])
    state = make(GAME).new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(VectorError, match="over"):
        batched.set_states(batch, batched.kernel.encode(state)[None, :], [1])
