"""The batched environments: in lock-step with the reference rules and the fast encoders."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

from boardlab.core.engine import kernel_for
from boardlab.core.outcome import Termination
from boardlab.core.registry import game_ids, make
from boardlab.core.state import State
from boardlab.rl import observation_encoder, vector
from boardlab.rl.fast.base import FastEncoder
from boardlab.rl.vector import (
    COMPILED_OBSERVERS,
    BatchedGame,
    VectorEnv,
    VectorError,
    seeded_generators,
)

pytest.importorskip("numba")

LOCKSTEP_CASES: list[tuple[str, dict[str, Any], int, int]] = [
    ("murus-gallicus", {}, 6, 400),
    ("murus-gallicus", {"board": "8x8_two_rows", "max_plies": 60}, 6, 400),
    ("murus-gallicus", {"board": "8x8", "max_plies": 12}, 6, 400),  # many truncations
    ("murus-gallicus", {}, vector.PARALLEL_FROM, 50),  # the batch stepped on all cores
]
"""``(game, options, batch size, steps)``."""


def _check_game(batched: BatchedGame, batch: Any, i: int, state: State) -> None:
    """Row ``i`` of ``batch`` says what the reference ``state`` does (after a step)."""
    encoder = observation_encoder(batched.game)
    seat = state.current_player
    assert batch.current_player[i] == seat
    ids = batch.legal_ids[i, : batch.legal_count[i]]
    assert sorted(ids.tolist()) == sorted(state.legal_actions())
    assert np.flatnonzero(batch.action_mask[i]).tolist() == sorted(state.legal_actions())
    planes = encoder.encode(state, seat)
    assert batch.observation[i].tobytes() == planes.tobytes(), (state.position_text(), seat)


@pytest.mark.parametrize(("game", "options", "n", "steps"), LOCKSTEP_CASES)
def test_batched_games_step_as_the_reference_with_its_planes(
    game: str, options: dict[str, Any], n: int, steps: int
) -> None:
    batched = BatchedGame(game, n, **options)
    batch = batched.init(seed=3)
    made = make(game, **options)
    encoder = observation_encoder(made)
    states = [made.new_initial_state() for _ in range(n)]
    for i in range(n):
        _check_game(batched, batch, i, states[i])
    policy = seeded_generators(11, n)
    ended = truncations = 0
    for _ in range(steps):
        actions = batched.random_actions(batch, policy)
        acting = batch.current_player.copy()
        batched.step(batch, actions)
        for i, state in enumerate(states):
            state.apply_action(int(actions[i]))
            outcome = state.outcome
            if outcome is None:
                assert not batch.terminated[i] and not batch.truncated[i]
                assert not batch.rewards[i].any()
            else:
                ended += 1
                capped = outcome.termination is Termination.PLY_CAP
                truncations += capped
                assert (batch.truncated[i], batch.terminated[i]) == (capped, not capped)
                assert tuple(batch.rewards[i]) == state.returns()
                final = encoder.encode(state, int(acting[i]))
                assert batch.final_observation[i].tobytes() == final.tobytes()
                states[i] = state = made.new_initial_state()  # the automatic reset
            _check_game(batched, batch, i, state)
    assert ended >= n
    if options.get("max_plies") == 12:
        assert truncations == ended


def test_the_parallel_step_gives_what_the_serial_step_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    n = vector.PARALLEL_FROM
    parallel = BatchedGame("murus-gallicus", n, max_plies=20)
    monkeypatch.setattr(vector, "PARALLEL_FROM", n + 1)
    serial = BatchedGame("murus-gallicus", n, max_plies=20)
    batches = [parallel.init(seed=4), serial.init(seed=4)]
    policy = seeded_generators(3, n)
    for _ in range(100):
        actions = parallel.random_actions(batches[0], policy)
        parallel.step(batches[0], actions)
        serial.step(batches[1], actions)
        for name in ("states", "observation", "action_mask", "rewards", "terminated"):
            assert (getattr(batches[0], name) == getattr(batches[1], name)).all(), name


def test_an_illegal_action_ends_the_game_against_its_player() -> None:
    batched = BatchedGame("murus-gallicus", 2)
    batch = batched.init(seed=0)
    legal = int(batch.legal_ids[0, 0])
    illegal = int(np.flatnonzero(~batch.action_mask[1])[0])
    batched.step(batch, [legal, illegal])
    assert batch.terminated.tolist() == [False, True]
    assert batch.rewards.tolist() == [[0.0, 0.0], [-1.0, 0.0]]
    fresh = make("murus-gallicus").new_initial_state()
    assert batch.current_player[1] == fresh.current_player == 0
    assert sorted(batch.legal_ids[1, : batch.legal_count[1]]) == sorted(fresh.legal_actions())


def test_compact_masks_only() -> None:
    batched = BatchedGame("murus-gallicus", 3, dense_mask=False)
    batch = batched.init(seed=0)
    assert batch.action_mask.shape == (3, 0)
    fresh = sorted(make("murus-gallicus").new_initial_state().legal_actions())
    for i in range(3):
        assert sorted(batch.legal_ids[i, : batch.legal_count[i]]) == fresh


@pytest.mark.parametrize("seat", [0, 1])
def test_vector_env_plays_the_learner_against_random_bots(seat: int) -> None:
    env = VectorEnv("murus-gallicus", 4, seat=seat, max_plies=30)
    observation, info = env.reset(seed=5)
    assert observation.shape == (4, *env.batched.observation_shape)
    made = make("murus-gallicus", max_plies=30)
    encoder = observation_encoder(made)
    assert isinstance(encoder, FastEncoder)
    batch = env._batch
    assert batch is not None
    policy = seeded_generators(2, 4)
    rewards_seen: set[float] = set()
    ends = 0
    for _ in range(120):
        assert (batch.current_player == seat).all()
        for i in range(4):  # the learner's own view, on turn
            assert observation[i][encoder.channel("to move")].all()
            assert observation[i][encoder.channel(f"seat {seat}")].all()
        actions = env.batched.random_actions(batch, policy)
        observation, rewards, terminated, truncated, info = env.step(actions)
        done = terminated | truncated
        ends += int(done.sum())
        rewards_seen.update(rewards[done].tolist())
        assert not rewards[~done].any()
        if done.any():
            assert info["_final_obs"].tolist() == done.tolist()
    assert ends > 4
    assert rewards_seen <= {-1.0, 0.0, 1.0}
    assert {-1.0, 1.0} <= rewards_seen


def test_same_seed_same_games() -> None:
    runs = []
    for _ in range(2):
        env = VectorEnv("murus-gallicus", 3, seat=1)
        observation, _ = env.reset(seed=9)
        assert env._batch is not None
        policy = seeded_generators(4, 3)
        frames = [observation.copy()]
        for _ in range(30):
            observation, *_ = env.step(env.batched.random_actions(env._batch, policy))
            frames.append(observation.copy())
        runs.append(np.stack(frames))
    assert (runs[0] == runs[1]).all()


@pytest.mark.parametrize("game", game_ids())
def test_a_game_without_kernel_or_compiled_encoder_says_which(game: str) -> None:
    kernel = kernel_for(make(game))
    if kernel is not None and game in COMPILED_OBSERVERS:
        assert BatchedGame(game, 2).init().observation.shape[0] == 2
        return
    if kernel is None:
        missing = "compiled kernel"
    elif kernel.truncated is None:
        missing = "gives no truncated"
    else:
        missing = "compiled observation encoder"
    with pytest.raises(VectorError, match=missing) as error:
        BatchedGame(game, 2)
    assert game in str(error.value)


def test_gymnasium_episode_statistics_wrapper_counts_the_episodes() -> None:
    env = gymnasium.wrappers.vector.RecordEpisodeStatistics(VectorEnv("murus-gallicus", 8))
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    episodes = 0
    ended = 0
    for _ in range(150):
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in info["action_mask"]])
        _, _, terminated, truncated, info = env.step(actions)
        ended += int((terminated | truncated).sum())
        if "episode" in info:
            episodes += int(info["_episode"].sum())
    assert episodes == ended > 8
