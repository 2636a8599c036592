"""A Gymnasium single-agent environment: one seat of a game against Boardlab bots.

The learner plays ``seat``; every other seat is played by a bot made from a player spec
(``random``, ``level:easy``, ``mcts:iters=200``…), which moves inside :meth:`step` until the
learner is on turn again or the game ends. Observations are the planes of
:class:`~boardlab.rl.observation.ObservationEncoder` from the learner's view; the legal mask is
``info["action_mask"]`` and :meth:`BoardlabGymEnv.action_masks` (the method MaskablePPO
calls). The reward is the learner's ``returns()`` entry when the game ends; the ply cap ends it
by truncation. An illegal action ends the game with reward -1.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from boardlab.ai.base import Bot
from boardlab.ai.players import make_bot
from boardlab.core.errors import OptionError
from boardlab.core.game import Game
from boardlab.core.options import SEED
from boardlab.core.outcome import Termination
from boardlab.core.registry import game_ids, make
from boardlab.core.state import State
from boardlab.rl.compiled import compiled_observer
from boardlab.rl.fast import observation_encoder
from boardlab.rl.observation import Planes
from boardlab.rl.pettingzoo_env import RENDER_MODES, render_view

Info = dict[str, Any]


class BoardlabGymEnv(gymnasium.Env[Planes, np.int64]):
    """One seat of a Boardlab game, the others played by bots (see :func:`gymnasium_env`)."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES)}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        opponent: str = "random",
        seat: int = 0,
        render_mode: str | None = None,
        **options: object,
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r}; allowed: {', '.join(RENDER_MODES)}")
        self.render_mode = render_mode
        self._options = dict(options)
        self.game: Game = make(game_id, **options)
        if not 0 <= seat < self.game.num_players:
            raise OptionError(f"seat {seat}: {game_id} has seats 0 to {self.game.num_players - 1}")
        self.seat = seat
        self.opponent = opponent
        make_bot(opponent, self.game)  # refuse a bad spec now, not at the first reset
        if opponent.strip() == "human":
            raise OptionError("the opponent must be a bot, not 'human'")
        self.encoder = observation_encoder(self.game)
        self.compiled = compiled_observer(self.game, self.encoder)
        """The observations' maker on the compiled engine (None: ``encoder`` makes them)."""
        self.observation_space = gymnasium.spaces.Box(0.0, np.inf, self.encoder.shape, np.float32)
        self.action_space = gymnasium.spaces.Discrete(self.game.num_actions)
        self.state: State = self.game.new_initial_state()
        self._bots: dict[int, Bot] = {}
        self._legal: list[int] = []

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Planes, Info]:
        """Start a new game, let the bots move up to the learner's first turn."""
        super().reset(seed=seed)
        rng = self.np_random
        if SEED in self.game.options and (seed is not None or SEED not in self._options):
            self.game = make(self.game.id, **{**self._options, SEED: int(rng.integers(2**31))})
        self._bots = {}
        for other in range(self.game.num_players):
            if other != self.seat:
                bot = make_bot(self.opponent, self.game, int(rng.integers(2**31)))
                assert bot is not None
                self._bots[other] = bot
        self.state = self.game.new_initial_state()
        if self.compiled is not None:
            self.compiled.start(self.game, self.state)
        self._play_bots()
        return self._observe(), self._info()

    def step(self, action: int | np.int64) -> tuple[Planes, float, bool, bool, Info]:
        """Play the learner's ``action``, then the bots' moves until the learner is on turn."""
        if int(action) not in self._legal:
            self._legal = []
            return self._observe(), -1.0, True, False, {**self._info(), "illegal_action": True}
        self._play(int(action))
        self._play_bots()
        outcome = self.state.outcome
        reward = self.state.returns()[self.seat]
        truncated = outcome is not None and outcome.termination is Termination.PLY_CAP
        terminated = outcome is not None and not truncated
        return self._observe(), reward, terminated, truncated, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal mask of the learner now (all False once the game is over)."""
        mask = np.zeros(self.game.num_actions, dtype=np.bool_)
        if self._legal:
            mask[self._legal] = True
        return mask

    def render(self) -> str | None:
        """What the learner's seat may see, drawn as :func:`render_view` says."""
        return render_view(self.state, self.seat, self.render_mode)

    def _play_bots(self) -> None:
        """Bots move, each from its own view, until the learner is on turn or the game ends."""
        state = self.state
        while not state.is_terminal() and state.current_player != self.seat:
            player = state.current_player
            self._play(self._bots[player].choose(state.view_state(player)))
        self._legal = state.legal_actions()

    def _play(self, action: int) -> None:
        """Play a legal ``action`` on the state (and the compiled observer's kernel state)."""
        self.state.apply_action(action)
        if self.compiled is not None:
            self.compiled.apply(action)

    def _observe(self) -> Planes:
        if self.compiled is not None:
            return self.compiled.observe(self.seat)
        return self.encoder.encode(self.state, self.seat)

    def _info(self) -> Info:
        return {"action_mask": self.action_masks()}


def gymnasium_env(
    game_id: str,
    opponent: str = "random",
    seat: int = 0,
    *,
    render_mode: str | None = None,
    **options: object,
) -> BoardlabGymEnv:
    """A Gymnasium environment of ``game_id``: the learner plays ``seat`` against ``opponent``."""
    return BoardlabGymEnv(game_id, opponent, seat, render_mode, **options)


NAMESPACE = "boardlab"
"""Gymnasium's namespace of the games' ids: ``boardlab/<game id>-v0``."""


def gymnasium_id(game_id: str) -> str:
    """The Gymnasium id of ``game_id`` (``gymnasium.make(gymnasium_id("carnyx"))``)."""
    return f"{NAMESPACE}/{game_id}-v0"


def register_gymnasium_ids() -> None:
    """Register every game with Gymnasium (done on importing :mod:`boardlab.rl`):
    ``gymnasium.make("boardlab/cyvasse-v0", opponent="level:easy")`` makes this module's
    environment, ``gymnasium.make_vec("boardlab/cyvasse-v0", num_envs=64, opponent="greedy")``
    the compiled :class:`boardlab.rl.vector.VectorEnv`; keywords are theirs (seat, opponent,
    the game's options)."""
    for game_id in game_ids():
        env_id = gymnasium_id(game_id)
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id,
                entry_point="boardlab.rl.gymnasium_env:BoardlabGymEnv",
                vector_entry_point="boardlab.rl.vector:VectorEnv",
                kwargs={"game_id": game_id},
            )
