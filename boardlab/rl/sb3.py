"""Stable-Baselines3's ``VecEnv`` interface over the batched environment, for SB3 and sb3-contrib.

:class:`Sb3VecEnv` is :class:`boardlab.rl.vector.VectorEnv` (the learner's seat, the others
played by compiled bots) spoken the way SB3's trainers speak: ``reset()`` gives the observations
alone, ``step_async``/``step_wait`` give observations, rewards, ``dones`` and one info dict per
game with SB3's keys for a finished game (``terminal_observation``, ``TimeLimit.truncated``), and
``env_method("action_masks")`` gives each game's legal mask, which is how
``sb3_contrib.MaskablePPO`` reads masks from a vectorised environment.

It implements the interface without importing SB3 (SB3 needs PyTorch, which no extra of
Boardlab installs). Where SB3 is installed, importing this module registers the class as a
virtual subclass of ``stable_baselines3.common.vec_env.VecEnv``, so that trainers take it as
the vectorised environment it is instead of wrapping it as a single one.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from boardlab.rl.vector import VectorEnv

Indices = int | Iterable[int] | None
"""SB3's ``VecEnvIndices``: one game, several, or all (None)."""
MASKS = "action_masks"
"""The one per-game method (sb3-contrib's ``EXPECTED_METHOD_NAME``)."""


class Sb3VecEnv:
    """``num_envs`` games of ``game_id``, the learner at ``seat`` against ``opponent`` (a
    player spec, as :class:`~boardlab.rl.vector.VectorEnv`), as an SB3 ``VecEnv``.

    ``seed(s)`` seeds the next ``reset``, game ``i`` with ``s + i`` (as SB3's own
    ``VecEnv.seed``); a reset without one draws a fresh seed. Games end and start again inside
    ``step_wait`` as in SB3's vectorised environments.
    """

    def __init__(
        self,
        game_id: str,
        num_envs: int,
        seat: int = 0,
        *,
        opponent: str = "random",
        **options: Any,
    ) -> None:
        self.env = VectorEnv(game_id, num_envs, seat, opponent=opponent, **options)
        self.num_envs = num_envs
        self.observation_space: gymnasium.spaces.Space[Any] = self.env.single_observation_space
        self.action_space: gymnasium.spaces.Space[Any] = self.env.single_action_space
        self.render_mode: str | None = None
        self.metadata: dict[str, Any] = {"render_modes": []}
        self.reset_infos: list[dict[str, Any]] = [{} for _ in range(num_envs)]
        self._seed: int | None = None
        self._actions: npt.NDArray[np.int64] | None = None

    def reset(self) -> npt.NDArray[np.float32]:
        """New games (seeded by the last :meth:`seed`, once); their observations."""
        observations, _ = self.env.reset(seed=self._seed)
        self._seed = None
        return observations

    def step_async(self, actions: npt.ArrayLike) -> None:
        """Take one action per game, played by :meth:`step_wait`."""
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(
        self,
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        list[dict[str, Any]],
    ]:
        """Play the actions of :meth:`step_async`: observations, rewards, dones, infos."""
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async()")
        observations, rewards, terminated, truncated, info = self.env.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = info["final_obs"][i]
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return observations, rewards.astype(np.float32), dones, infos

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        list[dict[str, Any]],
    ]:
        """:meth:`step_async` then :meth:`step_wait`."""
        self.step_async(actions)
        return self.step_wait()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal masks, ``(num_envs, num_actions)``."""
        return self.env.action_masks()

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seed the next reset; the seed of each game (``seed + i``)."""
        if seed is None:
            seed = int(np.random.default_rng().integers(2**31))
        self._seed = seed
        return [seed + i for i in range(self.num_envs)]

    def set_options(self, options: list[dict[str, Any]] | dict[str, Any] | None = None) -> None:
        """Reset options: the games take none (their options are given when made)."""
        given = options if isinstance(options, list) else [options or {}]
        if any(given):
            raise ValueError("the games take no reset options; give options when making them")

    def close(self) -> None:
        """Nothing to release: the games live in this process's arrays."""

    def get_attr(self, attr_name: str, indices: Indices = None) -> list[Any]:
        """An attribute of the environment, once per game of ``indices``."""
        value = getattr(self, attr_name)
        return [value for _ in self._indices(indices)]

    def has_attr(self, attr_name: str) -> bool:
        """Whether the environment has the attribute (sb3-contrib asks for ``action_masks``)."""
        return hasattr(self, attr_name)

    def set_attr(self, attr_name: str, value: Any, indices: Indices = None) -> None:
        """Set an attribute shared by all games (there is no per-game one)."""
        if len(self._indices(indices)) != self.num_envs:
            raise ValueError(f"{attr_name} is shared by all games: it cannot be set for some")
        setattr(self, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: Indices = None, **method_kwargs: Any
    ) -> list[Any]:
        """Each game's ``action_masks()`` (the one per-game method)."""
        if method_name != MASKS:
            raise AttributeError(f"the games have no method {method_name!r}; only {MASKS!r}")
        masks = self.action_masks()
        return [masks[i] for i in self._indices(indices)]

    def env_is_wrapped(self, wrapper_class: type[Any], indices: Indices = None) -> list[bool]:
        """No game is wrapped by a Gymnasium wrapper."""
        return [False for _ in self._indices(indices)]

    def render(self, mode: str | None = None) -> None:
        """No picture: the batched games are not drawn (see the one-game environments)."""

    def get_images(self) -> Sequence[npt.NDArray[Any] | None]:
        """No picture for any game."""
        return [None] * self.num_envs

    @property
    def unwrapped(self) -> Sb3VecEnv:
        """This environment (it wraps no other VecEnv)."""
        return self

    def getattr_depth_check(self, name: str, already_found: bool) -> str | None:
        """SB3's check of an attribute found at two levels of wrappers."""
        if hasattr(self, name) and already_found:
            return f"{type(self).__module__}.{type(self).__name__}"
        return None

    def _indices(self, indices: Indices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)


def _register() -> None:
    """Make :class:`Sb3VecEnv` a virtual subclass of SB3's ``VecEnv`` where SB3 imports."""
    try:
        vec_env = importlib.import_module("stable_baselines3.common.vec_env")
    except ImportError:  # SB3 or PyTorch not installed: nothing to register with
        return
    vec_env.VecEnv.register(Sb3VecEnv)


_register()
