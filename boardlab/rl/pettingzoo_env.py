"""PettingZoo AEC environments of every Boardlab game (``boardlab.rl.pettingzoo_env``).

One agent per seat (``player_0`` … ``player_{n-1}``); the agent on turn is the seat whose
decision is next, so a compound turn (two Colosseum actions, three Anacund placements) is
several steps of the same agent. Observations are ``{"observation": planes, "action_mask":
mask}``: the planes of :class:`~boardlab.rl.observation.ObservationEncoder` from that agent's
own view, and the legal mask of the agent on turn (all zeros for the others). Rewards are the
game's ``returns()`` when it ends. The ply cap ends a game by truncation; every other end,
draws by repetition or a no-capture rule included, is a termination. An illegal action ends the
game with -1 for the agent that played it and 0 for the others (as PettingZoo's
``TerminateIllegalWrapper`` does).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from boardlab.core.game import Game
from boardlab.core.options import SEED
from boardlab.core.outcome import Termination
from boardlab.core.registry import make
from boardlab.core.state import State
from boardlab.rl.compiled import compiled_observer
from boardlab.rl.fast import observation_encoder

Observation = dict[str, npt.NDArray[Any]]
RENDER_MODES = ("human", "ansi", "svg")


def render_view(state: State, seat: int, mode: str | None) -> str | None:
    """What ``seat`` may see of ``state``, drawn in ``mode``.

    ``ansi``: the terminal drawing of the seat's view; ``svg``: the SVG picture of it;
    ``human``: the terminal drawing printed to standard output (returns None). The view hides
    what the seat may not see (the other seat's Cyvasse deployment), as observations do.
    """
    if mode in ("ansi", "human"):
        text = state.view_state(seat).render()
        if mode == "ansi":
            return text
        print(text)
        return None
    if mode == "svg":
        from boardlab.render.svg import render_svg

        return render_svg(state.render_model(view=seat))
    gymnasium.logger.warn("render() called without a render_mode")
    return None


class BoardlabAECEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """A Boardlab game as a PettingZoo AEC environment (make it with :func:`pettingzoo_env`)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it from the class
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, game_id: str, render_mode: str | None = None, **options: object) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r}; allowed: {', '.join(RENDER_MODES)}")
        self.render_mode = render_mode
        self._options = dict(options)
        self.game: Game = make(game_id, **options)
        self.metadata = {**self.metadata, "name": f"boardlab_{game_id.replace('-', '_')}_v0"}
        self.encoder = observation_encoder(self.game)
        self.compiled = compiled_observer(self.game, self.encoder)
        """The observations' maker on the compiled engine (None: ``encoder`` makes them)."""
        players = self.game.num_players
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        planes = gymnasium.spaces.Box(0.0, np.inf, self.encoder.shape, np.float32)
        mask = gymnasium.spaces.Box(0, 1, (self.game.num_actions,), np.int8)
        self.observation_spaces = {
            agent: gymnasium.spaces.Dict({"observation": planes, "action_mask": mask})
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: gymnasium.spaces.Discrete(self.game.num_actions)
            for agent in self.possible_agents
        }
        self._seeds = np.random.default_rng()
        self.state_: State = self.game.new_initial_state()
        self._legal: list[int] = []
        self._legal_mask: npt.NDArray[np.int8] | None = None
        self._no_actions = np.zeros(self.game.num_actions, dtype=np.int8)
        self._no_actions.flags.writeable = False  # handed to every agent off turn, never copied
        self._cache: dict[str, Observation] = {}

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The space of ``agent``'s observations."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """``Discrete(num_actions)``: the game's action ids."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` fixes the game's own randomness (chance, first tie)."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        if SEED in self.game.options and (seed is not None or SEED not in self._options):
            drawn = int(self._seeds.integers(2**31))
            self.game = make(self.game.id, **{**self._options, SEED: drawn})
        self.state_ = self.game.new_initial_state()
        if self.compiled is not None:
            self.compiled.start(self.game, self.state_)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._after_move()

    def step(self, action: int | None) -> None:
        """Play ``action`` for the agent on turn (None for an agent whose game has ended)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is on turn and must play an action id, not None")
        # Rewards are all 0 while the game goes on (they come only at its end, after which
        # every step is a dead step), so only the acting agent's running total is reset.
        self._cumulative_rewards[agent] = 0.0
        action = int(action)
        if self._is_legal(action):
            self.state_.apply_action(action)
            if self.compiled is not None:
                self.compiled.apply(action)
            self._after_move()
            return
        self.rewards[agent] = -1.0
        for other in self.agents:
            self.terminations[other] = True
            self.infos[other] = {"illegal_action": agent}
        self._legal = []
        self._legal_mask = self._no_actions
        self._cache.clear()
        self._accumulate_rewards()

    def _after_move(self) -> None:
        """Find the agent on turn, and at the end hand out returns and done flags."""
        state = self.state_
        self._cache.clear()
        self._legal_mask = None
        self._legal = state.legal_actions()
        outcome = state.outcome
        if outcome is None:
            self.agent_selection = self.possible_agents[state.current_player]
            return
        for agent, reward in zip(self.possible_agents, state.returns(), strict=True):
            self.rewards[agent] = reward
        done = self.truncations if outcome.termination is Termination.PLY_CAP else self.terminations
        for agent in self.agents:
            done[agent] = True
        if not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]
        self._accumulate_rewards()

    def _is_legal(self, action: int) -> bool:
        """Whether ``action`` is legal now: from the mask once an observation has made it,
        else from the list (cheaper than making a mask for one look-up)."""
        mask = self._legal_mask
        if mask is None:
            return action in self._legal
        return 0 <= action < len(mask) and bool(mask[action])

    def _mask(self) -> npt.NDArray[np.int8]:
        """The legal mask of the agent on turn, made once per position."""
        mask = self._legal_mask
        if mask is None:
            # Set in a bytearray one id at a time: a list index into NumPy costs twice as much.
            found = bytearray(self.game.num_actions)
            for action in self._legal:
                found[action] = 1
            mask = self._legal_mask = np.frombuffer(found, np.int8)
        return mask

    def observe(self, agent: str) -> Observation:
        """``agent``'s planes and, if it is on turn, its legal mask (else all zeros)."""
        found = self._cache.get(agent)
        if found is None:
            seat = self._seat[agent]
            on_turn = agent == self.agent_selection and self._legal
            compiled = self.compiled
            if compiled is None:
                mask = self._mask() if on_turn else self._no_actions
                planes = self.encoder.encode(self.state_, seat)
            elif on_turn and self._legal_mask is None:  # the mask made with the planes
                mask = self._legal_mask = np.zeros(self.game.num_actions, dtype=np.int8)
                planes = compiled.observe(seat, mask)
            else:
                mask = self._mask() if on_turn else self._no_actions
                planes = compiled.observe(seat)
            found = self._cache[agent] = {"observation": planes, "action_mask": mask}
        return found

    def legal_actions(self) -> list[int]:
        """The legal action ids of the agent on turn (empty once the game is over)."""
        return list(self._legal)

    def action_mask(self, agent: str) -> npt.NDArray[np.int8]:
        """The legal mask of ``agent`` (all zeros when it is not on turn)."""
        return self.observe(agent)["action_mask"]

    def render(self) -> str | None:
        """What the agent on turn (the last to act once the game is over) may see, drawn as
        :func:`render_view` says."""
        return render_view(self.state_, self._seat[self.agent_selection], self.render_mode)

    def close(self) -> None:
        """Nothing to release."""


def pettingzoo_env(game_id: str, *, render_mode: str | None = None, **options: object) -> Any:
    """A PettingZoo AEC environment of ``game_id`` with its options (e.g. ``players=4``).

    The environment is wrapped in PettingZoo's order-enforcing wrapper, as its own
    environments are; ``env.unwrapped`` is the :class:`BoardlabAECEnv`.
    """
    return wrappers.OrderEnforcingWrapper(BoardlabAECEnv(game_id, render_mode, **options))
