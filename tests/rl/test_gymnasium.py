"""The Gymnasium single-seat environment: Gymnasium's checker, bots inside step, masks."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from boardlab.core.errors import OptionError
from boardlab.rl import BoardlabGymEnv, gymnasium_env
from boardlab.rl.gymnasium_env import gymnasium_id
from tests.rl.cases import CASES, IDS, SMALL_ARMY


@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_gymnasium_check_env_passes(game: str, options: dict[str, Any]) -> None:
    check_env(gymnasium_env(game, "random", seat=1, **options), skip_render_check=True)


def test_the_opponent_moves_inside_step_until_the_learner_is_on_turn() -> None:
    env = gymnasium_env("colosseum-offcuts", "level:easy", seat=2, players=4)
    _, info = env.reset(seed=3)
    assert env.state.current_player == 2
    assert (info["action_mask"] == env.action_masks()).all()
    rng = np.random.default_rng(0)
    reward, done = 0.0, False
    while not done:
        assert env.state.current_player == 2
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        _, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    assert env.state.is_terminal()
    assert reward == env.state.returns()[2]
    assert not env.action_masks().any()


def test_same_seed_same_game() -> None:
    env = gymnasium_env("anacund", "random", seat=1)
    first, _ = env.reset(seed=9)
    text = env.state.position_text()
    again, _ = env.reset(seed=9)
    assert (first == again).all()
    assert env.state.position_text() == text


def test_an_illegal_action_loses() -> None:
    env = gymnasium_env("murus-gallicus")
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(OptionError, match="unknown player"):
        gymnasium_env("carnyx", "nobody")
    with pytest.raises(OptionError, match="not 'human'"):
        gymnasium_env("carnyx", "human")
    with pytest.raises(OptionError, match="seats 0 to 1"):
        gymnasium_env("carnyx", seat=2)


@pytest.mark.parametrize("mode", ["ansi", "svg"])
def test_render_shows_north_only_what_north_may_see(mode: str) -> None:
    # The learner is North (seat 1): at its first decision South has deployed, hidden from it.
    drawn, truths = set(), set()
    for seed in range(3):
        env = gymnasium_env("cyvasse", "random", seat=1, render_mode=mode, army=SMALL_ARMY, seed=0)
        env.reset(seed=seed)
        assert env.state.current_player == 1
        picture = env.render()
        assert isinstance(picture, str)
        drawn.add(picture)
        truths.add(env.state.render())
    assert len(truths) == 3  # the bots deployed South differently in each game...
    assert len(drawn) == 1  # ...and North's picture is the same: it shows none of it


@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_observations_are_the_learner_s_reference_planes(
    game: str, options: dict[str, Any]
) -> None:
    # On the compiled engine the planes come from a kernel state that follows every move,
    # the bots' included, and shows the learner's seat only what it may see.
    pytest.importorskip("numba")
    env = gymnasium_env(game, "random", seat=1, **options)
    assert env.compiled is not None
    rng = np.random.default_rng(5)
    for seed in (5, 6):
        observation, _ = env.reset(seed=seed)
        done = False
        while not done:
            assert np.array_equal(observation, env.encoder.reference(env.state, 1))
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            observation, _, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
        assert np.array_equal(observation, env.encoder.reference(env.state, 1))


@pytest.mark.parametrize("game", sorted({game for game, _ in CASES}))
def test_every_game_has_a_gymnasium_id(game: str) -> None:
    env = gymnasium.make(gymnasium_id(game), opponent="greedy", seat=1)
    assert isinstance(env.unwrapped, BoardlabGymEnv)
    assert env.unwrapped.game.id == game
    observation, info = env.reset(seed=2)
    assert observation.shape == env.observation_space.shape
    assert info["action_mask"].any()


def test_make_vec_gives_the_compiled_vector_environment() -> None:
    pytest.importorskip("numba")
    from boardlab.rl.vector import VectorEnv

    env = gymnasium.make_vec(gymnasium_id("murus-gallicus"), num_envs=3, seat=1)
    assert isinstance(env, VectorEnv)
    assert env.seat == 1
    assert env.reset(seed=0)[0].shape == (3, *env.batched.observation_shape)
