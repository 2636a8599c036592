"""PettingZoo AEC environments of every Boardlab game (``boardlab.rl.pettingzoo_env``).

One agent per seat (``player_0`` … ``player_{n-1}``); the agent on turn is the seat whose
decision is next, so a compound turn (two Colosseum actions, three Anacund placements) is
several steps of the same agent. Observations are ``{"observation": planes, "action_mask":
mask}``: the planes of :class:`~boardlab.rl.observation.ObservationEncoder` from that agent's
own view, and the legal mask of the agent on turn (all zeros for the others). Rewards are the
game's ``returns()`` when it ends. The ply cap ends a game by truncation; every other end,
draws by repetition or a no-capture rule included, is a termination. An illegal action ends the
game with -1 for the agent that played it and 0 for the others (as PettingZoo's
``TerminateIllegalWrapper`` does). ``legal_actions()`` lists the legal ids in ascending order.

Engines. Where the game runs on its compiled kernel (:func:`~boardlab.core.engine.kernel_for`)
the environment steps the kernel alone (:class:`~boardlab.rl.compiled.KernelGame`: one compiled
call a step, which also makes the next observation of the agent on turn once one has been
asked for), and keeps the reference ``State`` behind: ``state_`` (and ``render()``, which draws
it) replays the actions played since it was last read, and ``game`` is made from the drawn
``seed`` when first read. Otherwise the reference state is stepped and the fast NumPy encoder
observes. Both engines show the same agents, observations, rewards, flags, infos and legal ids.

Observations are safe to keep: no later step writes into an observation, or an array of one,
that anything outside the environment still refers to. On the compiled engine a step makes
the next observation in the arrays of the agent on turn's observation before last when the
environment holds the only references to them (``sys.getrefcount``, as NumPy's own in-place
reuse of temporaries decides), which no caller can tell from new arrays (short of a weak
reference or an ``id``); it saves allocating and zeroing a mask of up to 237,161 ids a step,
and where the planes are large (Cyvasse, Colosseum Offcuts) only what changed since is
rewritten (:mod:`boardlab.rl.fast.kernel_planes`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
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
from boardlab.rl.compiled import ILLEGAL, SEATS, SHIFT, TRUNCATED, kernel_game
from boardlab.rl.fast import observation_encoder
from boardlab.rl.observation import Planes

Observation = dict[str, npt.NDArray[Any]]

_refs = sys.getrefcount
assert SHIFT == 3, "step() unpacks the codes with literals"


class _Holder:
    """Holds a pair of arrays as the environment holds its spare ones."""

    spare: tuple[object, object] | None = None


def _free_count() -> int:
    """What ``_refs`` gives for an array of the environment's spare pair that nothing else
    holds, counted as :meth:`BoardlabAECEnv.step` counts: the pair's reference, the local
    variable's and the call's (measured here, not assumed, as interpreters count differently)."""
    holder = _Holder()
    holder.spare = (object(), object())
    spare = holder.spare
    return _refs(spare[0])


_FREE = _free_count()
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
    agent_selection: str

    def __init__(self, game_id: str, render_mode: str | None = None, **options: object) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r}; allowed: {', '.join(RENDER_MODES)}")
        self.render_mode = render_mode
        self._options = dict(options)
        game = make(game_id, **options)
        self._game: Game | None = game
        self._seeded = SEED in game.options
        self._drawn = 0
        """The ``seed`` option drawn at the last reset (the game is made from it when read)."""
        self.metadata = {**self.metadata, "name": f"boardlab_{game_id.replace('-', '_')}_v0"}
        self.encoder = observation_encoder(game)
        self.compiled = kernel_game(game, self.encoder)
        """The game on its compiled kernel, which then alone is stepped (None: the reference
        state is stepped and ``encoder`` observes)."""
        players = game.num_players
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._shape = self.encoder.shape
        self._num_actions = game.num_actions
        planes = gymnasium.spaces.Box(0.0, np.inf, self.encoder.shape, np.float32)
        mask = gymnasium.spaces.Box(0, 1, (game.num_actions,), np.int8)
        self.observation_spaces = {
            agent: gymnasium.spaces.Dict({"observation": planes, "action_mask": mask})
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: gymnasium.spaces.Discrete(game.num_actions) for agent in self.possible_agents
        }
        self._seeds = np.random.default_rng()
        self._state: State | None = game.new_initial_state()
        self._pending: list[int] = []
        """Actions played on the kernel since ``_state`` was last brought up to date."""
        self._legal: list[int] = []
        self._legal_mask: npt.NDArray[np.int8] | None = None
        self._count = 0
        """On the compiled engine: the number of legal ids of the agent on turn (``_ids``)."""
        self._eager = False
        """On the compiled engine: make the next observation within each step (switched on by
        the first observation asked for of an agent on turn)."""
        self._advance: Any = None if self.compiled is None else self.compiled.advance
        """On the compiled engine, ``compiled.advance`` (None: the reference engine)."""
        self._work = None if self.compiled is None else self.compiled.work
        """On the compiled engine, ``compiled.work``, the array ``_advance`` steps."""
        self._ids = None if self.compiled is None else memoryview(self.compiled.ids)
        """On the compiled engine: ``compiled.ids``, as a memoryview (sliced and listed in
        less time than the array)."""
        self._no_actions = np.zeros(game.num_actions, dtype=np.int8)
        self._no_actions.flags.writeable = False  # handed to every agent off turn, never copied
        self._no_planes = np.zeros((0, 0, 0), dtype=np.float32)
        self._no_mask = np.zeros(0, dtype=np.int8)
        self._cache: dict[str, Observation] = {}
        self._made: tuple[Planes, npt.NDArray[np.int8]] | None = None
        """On the compiled engine: the arrays of the on-turn observation of this position, if
        one was made (as made: whatever a caller does to the observation's dict)."""
        self._spare: tuple[Planes, npt.NDArray[np.int8]] | None = None
        """On the compiled engine: the arrays of the on-turn observation of the position
        before, in which the next step makes the next observation if no one else holds them."""

    @property
    def game(self) -> Game:
        """The game being played (made from the ``seed`` drawn at reset when first read)."""
        game = self._game
        if game is None:
            assert self.compiled is not None  # only the compiled engine leaves it to be made
            game = self._game = make(self.compiled.game.id, **{**self._options, SEED: self._drawn})
        return game

    @property
    def state_(self) -> State:
        """The reference state of the game. On the compiled engine, where only the kernel is
        stepped, it is brought up to date (the actions played since replayed) when read."""
        state = self._state
        if state is None:
            state = self._state = self.game.new_initial_state()
        if self._pending:
            for action in self._pending:
                state.apply_action(action)
            self._pending.clear()
        return state

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
        compiled = self.compiled
        drawn = None
        if self._seeded and (seed is not None or SEED not in self._options):
            drawn = self._drawn = int(self._seeds.integers(2**31))
            # On the kernel the game is made only if something reads it.
            self._game = None if compiled else make(self.game.id, **{**self._options, SEED: drawn})
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._pending.clear()
        self._cache = {}
        if compiled is None:
            self._state = self.game.new_initial_state()
            self._after_move()
            return
        self._state = None
        self._after_code(compiled.start(drawn))

    def step(self, action: int | None) -> None:
        """Play ``action`` for the agent on turn (None for an agent whose game has ended)."""
        count = self._count
        if not count or action is None:  # the reference engine, a dead step or None
            self._step(action)
            return
        # The compiled engine while the game goes on: no agent is done and every running total
        # of rewards is 0 (rewards come only at the end), so neither is looked at.
        spare = self._spare
        if spare is not None and _refs(spare[0]) == _FREE and _refs(spare[1]) == _FREE:
            planes, mask = spare  # no one holds them any more: the observation is made in them
            recycled = True
        elif self._eager:
            planes, mask = np.empty(self._shape, np.float32), np.zeros(self._num_actions, np.int8)
            spare = planes, mask
            recycled = False
        else:  # no observation asked for yet: none is made
            planes, mask, recycled = self._no_planes, self._no_mask, False
        action = int(action)
        try:
            code = self._advance(self._work, count, action, planes, mask, recycled)
        except OverflowError:  # beyond int64: no action id
            code = ILLEGAL
        if code >= 0:
            self._pending.append(action)
            self._count = code >> 3  # SHIFT
            agent = self.agent_selection = self.possible_agents[code & 7]  # SEATS - 1
            if self._eager:
                self._spare = self._made  # the arrays of this position's on-turn observation
                self._made = spare
                self._cache = {agent: {"observation": planes, "action_mask": mask}}
            else:  # then neither holds arrays
                self._cache = {}
            return
        agent = self.agent_selection
        if code == ILLEGAL:
            self._illegal(agent)
            return
        self._pending.append(action)
        self._after_code(code)

    def _step(self, action: int | None) -> None:
        """:meth:`step` on the reference engine, or for a done agent, or with None."""
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
            self._state.apply_action(action)  # type: ignore[union-attr]
            self._after_move()
        else:
            self._illegal(agent)

    def _after_code(self, code: int) -> None:
        """Follow the code of the kernel's position (see :mod:`boardlab.rl.compiled`)."""
        self._cache = {}
        self._spare = self._made = None
        if code >= 0:
            self._count = code >> SHIFT
            self.agent_selection = self.possible_agents[code & (SEATS - 1)]
            return
        self._count = 0
        self._end(code == TRUNCATED, self.compiled.returns())  # type: ignore[union-attr]

    def _after_move(self) -> None:
        """On the reference engine: find the agent on turn, or hand out returns at the end."""
        state = self._state
        assert state is not None
        self._cache.clear()
        self._legal_mask = None
        self._legal = state.legal_actions()
        outcome = state.outcome
        if outcome is None:
            self.agent_selection = self.possible_agents[state.current_player]
            return
        self._end(outcome.termination is Termination.PLY_CAP, state.returns())

    def _end(self, truncated: bool, returns: Sequence[float]) -> None:
        """The game has ended (by the ply cap if ``truncated``): returns and done flags."""
        for agent, reward in zip(self.possible_agents, returns, strict=True):
            self.rewards[agent] = reward
        done = self.truncations if truncated else self.terminations
        for agent in self.agents:
            done[agent] = True
        if not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]
        self._accumulate_rewards()

    def _illegal(self, agent: str) -> None:
        """``agent`` played an illegal action: the game ends against it (nothing is played)."""
        self.rewards[agent] = -1.0
        for other in self.agents:
            self.terminations[other] = True
            self.infos[other] = {"illegal_action": agent}
        self._legal = []
        self._legal_mask = self._no_actions
        self._count = 0
        self._cache = {}
        self._spare = self._made = None
        self._accumulate_rewards()

    def _is_legal(self, action: int) -> bool:
        """On the reference engine: whether ``action`` is legal now: from the mask once an
        observation has made it, else from the list (cheaper than making a mask for one
        look-up)."""
        mask = self._legal_mask
        if mask is None:
            return action in self._legal
        return 0 <= action < len(mask) and bool(mask[action])

    def _mask(self) -> npt.NDArray[np.int8]:
        """On the reference engine: the legal mask of the agent on turn, made once per
        position."""
        mask = self._legal_mask
        if mask is None:
            # Set in a bytearray one id at a time: a list index into NumPy costs twice as much.
            found = bytearray(self._num_actions)
            for action in self._legal:
                found[action] = 1
            mask = self._legal_mask = np.frombuffer(found, np.int8)
        return mask

    def observe(self, agent: str) -> Observation:
        """``agent``'s planes and, if it is on turn, its legal mask (else all zeros)."""
        found = self._cache.get(agent)
        if found is None:
            found = self._cache[agent] = self._observation(agent)
        return found

    def _observation(self, agent: str) -> Observation:
        """A new observation of ``agent``."""
        seat = self._seat[agent]
        compiled = self.compiled
        if compiled is None:
            on_turn = agent == self.agent_selection and self._legal
            mask = self._mask() if on_turn else self._no_actions
            planes = self.encoder.encode(self._state, seat)  # type: ignore[arg-type]
            return {"observation": planes, "action_mask": mask}
        count = self._count if agent == self.agent_selection else 0
        planes = np.empty(self._shape, np.float32)
        if count:
            self._eager = True  # the agent on turn is observed: make it within each step
            mask = np.zeros(self._num_actions, np.int8)
            self._made = (planes, mask)
            compiled.observe(seat, planes, mask, count)
        else:
            mask = self._no_actions  # read-only: the compiled code is handed an empty one
            compiled.observe(seat, planes, self._no_mask, 0)
        return {"observation": planes, "action_mask": mask}

    def legal_actions(self) -> list[int]:
        """The legal action ids of the agent on turn in ascending order (empty once the game
        is over)."""
        ids = self._ids
        if ids is None:
            return sorted(self._legal)
        return ids[: self._count].tolist()

    def action_mask(self, agent: str) -> npt.NDArray[np.int8]:
        """The legal mask of ``agent`` (all zeros when it is not on turn)."""
        return self.observe(agent)["action_mask"]

    def render(self) -> str | None:
        """What the agent on turn (the last to act once the game is over) may see, drawn as
        :func:`render_view` says."""
        return render_view(self.state_, self._seat[self.agent_selection], self.render_mode)

    def close(self) -> None:
        """Nothing to release."""

    def __getstate__(self) -> dict[str, Any]:
        """What a pickle keeps: all but the compiled step (found again when loaded)."""
        saved = self.__dict__.copy()
        saved["_advance"] = saved["_ids"] = saved["_work"] = None
        return saved

    def __setstate__(self, saved: dict[str, Any]) -> None:
        self.__dict__.update(saved)
        if self.compiled is not None:
            self._advance = self.compiled.advance
            self._work = self.compiled.work
            self._ids = memoryview(self.compiled.ids)


def pettingzoo_env(game_id: str, *, render_mode: str | None = None, **options: object) -> Any:
    """A PettingZoo AEC environment of ``game_id`` with its options (e.g. ``players=4``).

    The environment is wrapped in PettingZoo's order-enforcing wrapper, as its own
    environments are; ``env.unwrapped`` is the :class:`BoardlabAECEnv`.
    """
    return wrappers.OrderEnforcingWrapper(BoardlabAECEnv(game_id, render_mode, **options))
