"""The Stable-Baselines3 ``VecEnv`` adapter: SB3's contract, checked without PyTorch.

The first tests check what SB3's trainers rely on (observations alone from ``reset``, rewards
and dones as arrays, ``terminal_observation`` and ``TimeLimit.truncated`` in the infos of
finished games, masks through ``env_method("action_masks")`` as sb3-contrib reads them). Where
the ``stable-baselines3`` wheel is on the path (``pip install --no-deps stable-baselines3``:
its ``VecEnv`` base needs no PyTorch, but importing the package does), the last test reads
SB3's own ``VecEnv`` class from its source and checks the adapter against it.
"""

from __future__ import annotations

import importlib.util
import inspect
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pytest.importorskip("numba")

from boardlab.rl.sb3 import Sb3VecEnv


def _random_actions(env: Sb3VecEnv, rng: np.random.Generator) -> np.ndarray:
    masks = np.stack(env.env_method("action_masks"))
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks])


def test_sb3_steps_and_ends_games_as_sb3_trainers_expect() -> None:
    env = Sb3VecEnv("murus-gallicus", 3, seat=1, opponent="level:medium", max_plies=8)
    assert env.seed(5) == [5, 6, 7]
    observations = env.reset()
    shape = env.env.batched.observation_shape
    assert observations.shape == (3, *shape)
    rng = np.random.default_rng(0)
    truncations = 0
    for _ in range(20):
        before = observations
        observations, rewards, dones, infos = env.step(_random_actions(env, rng))
        assert rewards.dtype == np.float32 and dones.dtype == np.bool_
        assert len(infos) == 3
        for i, info in enumerate(infos):
            assert ("terminal_observation" in info) == dones[i]
            if dones[i]:
                assert info["terminal_observation"].shape == shape
                truncations += info["TimeLimit.truncated"]
            else:
                assert rewards[i] == 0.0
        assert not np.shares_memory(before, observations)
    assert truncations  # an 8-ply cap ends games by truncation
    assert env.env_is_wrapped(object) == [False] * 3
    assert env.get_attr("render_mode", [0, 2]) == [None, None]
    assert len(env.get_images()) == 3
    assert env.unwrapped is env
    assert env.has_attr("action_masks") and not env.has_attr("no_such_thing")


def test_the_same_seed_gives_the_same_games() -> None:
    runs = []
    for _ in range(2):
        env = Sb3VecEnv("murus-gallicus", 2, opponent="level:medium")
        env.seed(11)
        seen = [env.reset()]
        rng = np.random.default_rng(1)
        for _ in range(10):
            seen.append(env.step(_random_actions(env, rng))[0])
        runs.append(np.stack(seen))
    assert np.array_equal(runs[0], runs[1])


def test_what_the_batch_cannot_do_is_refused() -> None:
    env = Sb3VecEnv("murus-gallicus", 2)
    with pytest.raises(AttributeError, match="only 'action_masks'"):
        env.env_method("render")
    with pytest.raises(ValueError, match="shared by all games"):
        env.set_attr("render_mode", "ansi", indices=[0])
    with pytest.raises(ValueError, match="no reset options"):
        env.set_options({"board": "8x8"})
    with pytest.raises(RuntimeError, match="step_async"):
        env.step_wait()


def _sb3_vec_env_base() -> ModuleType:
    """SB3's ``base_vec_env`` read from its source, without importing SB3 (and PyTorch)."""
    spec = importlib.util.find_spec("stable_baselines3")
    # scripts/test.sh installs it: pip install --no-deps stable-baselines3
    assert spec is not None and spec.origin is not None, "stable-baselines3 is not installed"
    path = Path(spec.origin).parent / "common" / "vec_env" / "base_vec_env.py"
    module_spec = importlib.util.spec_from_file_location("sb3_base_vec_env", path)
    assert module_spec is not None and module_spec.loader is not None
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module


def test_the_adapter_has_sb3_s_whole_vec_env_interface() -> None:
    base = _sb3_vec_env_base().VecEnv
    public = {name for name in dir(base) if not name.startswith("_")}
    assert public <= set(dir(Sb3VecEnv))
    for name in sorted(public - {"unwrapped"}):
        ours = inspect.signature(getattr(Sb3VecEnv, name))
        theirs = inspect.signature(getattr(base, name))
        assert list(ours.parameters) == list(theirs.parameters), name
    base.register(Sb3VecEnv)
    env = Sb3VecEnv("murus-gallicus", 2)
    assert isinstance(env, base)
    env.seed(3)
    env.reset()
    # SB3's own (concrete) ``step`` drives the adapter's step_async and step_wait.
    observations, rewards, dones, infos = base.step(env, env.action_masks().argmax(axis=1))
    assert observations.shape[0] == rewards.shape[0] == dones.shape[0] == len(infos) == 2
