"""Batched environments: N games stepped at once over NumPy arrays, in compiled code.

:class:`BatchedGame` is the functional form (in the spirit of Pgx): ``init`` gives a
:class:`Batch` of arrays and ``step`` plays one action per game, every seat's decisions coming
from the caller; games that end start again at once (automatic reset); a position is set with
:meth:`BatchedGame.set_states`. :class:`VectorEnv` is a ``gymnasium.vector.VectorEnv`` of one
seat against compiled bots (:mod:`boardlab.rl.opponents`), for single-seat trainers. Both run
on the game's compiled kernel (:mod:`boardlab.core.engine`) and a compiled observation encoder,
and use every core for large batches (``numba.prange``; :mod:`boardlab.rl.threads`).
Needs the ``fast`` and ``rl`` extras. A game without a kernel, or whose kernel gives no
``truncated``, or without a compiled observation encoder, raises :class:`VectorError`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field, fields
from pathlib import Path
from types import ModuleType
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from boardlab.core.engine import Kernel, kernel_for
from boardlab.core.errors import BoardlabError
from boardlab.core.kernel_drivers import specialised
from boardlab.core.kernel_random import seeded
from boardlab.core.options import SEED
from boardlab.core.registry import make
from boardlab.rl.fast import observation_encoder
from boardlab.rl.fast.kernel_planes import new_records, scratch_records
from boardlab.rl.opponents import Opponent, decide_function, opponent, scratch
from boardlab.rl.threads import most_threads, start_threads

_TEMPLATE = Path(__file__).with_name("vector_template.py")

COMPILED_OBSERVERS = {
    game: f"boardlab.rl.fast.kernel_{game.replace('-', '_')}"
    for game in ("anacund", "carnyx", "colosseum-offcuts", "cyvasse", "murus-gallicus")
}
"""Where each game's compiled observation encoder lives (``observer_tables`` and
``observe``); the planes are those of the game's fast encoder, bit for bit."""

SEEDED_STARTS = ("anacund",)
"""Games whose ``seed`` option draws the initial position (Anacund's layout): each game of a
batch starts from the position of its own seed. Cyvasse's ``seed`` tosses the coin for a King
tie instead, which the kernel holds in its parameters: one toss for the whole batch, the
``seed`` option's (0 unless given)."""

LOGGED_CELLS = 256
"""The most cells a game's record logs (:mod:`boardlab.rl.fast.kernel_planes`): Colosseum
Offcuts' observation writes up to 191 at five seats (random games); past it a step writes every
plane. Cyvasse's keys its cells instead, in 182 of the log's 512 numbers.

Encoders that write through records (``USES_RECORD``: Cyvasse's and Colosseum Offcuts')
rewrite only what changed in each game's observation row; the others write every plane at
every step, which costs them less than a log would (their planes are small)."""

PARALLEL_FROM = 256
"""Batches of at least this many games are stepped on all cores; smaller ones on one. The
threads wait passively between steps (:mod:`boardlab.rl.threads`), and waking them costs more
than a smaller batch's step saves: Murus Gallicus at batch 64 stepped 454,000 times a wall
second on all cores and 587,000 on one (29 Nov 2026, load average 10)."""

start_threads()


class VectorError(BoardlabError, RuntimeError):
    """The batched environments cannot run this game here."""


@dataclass
class Batch:
    """The arrays of N games (row ``i`` is game ``i``); ``step`` rewrites them in place.

    After ``init`` and after every ``step``, every game is at a decision (a game that ended
    has already started again):
    """

    kernel_states: npt.NDArray[np.int64]
    """The arrays behind ``states``, written by the compiled step only."""
    planes: npt.NDArray[np.float32]
    """The arrays behind ``observation``, written by the compiled step only."""
    legal_ids: npt.NDArray[np.int64]
    """``(N, max_legal)``: the compact mask, the legal ids in ``legal_ids[i, :legal_count[i]]``
    (in the kernel's order); the rest of the row is scratch."""
    legal_count: npt.NDArray[np.int64]
    """``(N,)``: how many legal ids each game has."""
    action_mask: npt.NDArray[np.bool_]
    """``(N, num_actions)``: the dense legal mask (``(N, 0)`` with ``dense_mask=False``)."""
    current_player: npt.NDArray[np.int64]
    """``(N,)``: the seat to move."""
    rewards: npt.NDArray[np.float64]
    """``(N, seats)``: each seat's returns in games that ended at the last step, else 0."""
    terminated: npt.NDArray[np.bool_]
    """``(N,)``: the game ended at the last step (win, draw by a rule, illegal action)."""
    truncated: npt.NDArray[np.bool_]
    """``(N,)``: the game ended at the last step by its ply cap."""
    final_observation: npt.NDArray[np.float32]
    """``(N, C, H, W)``: where a game ended at the last step, the planes of its final position
    seen by the seat that acted (the learner for :class:`VectorEnv`); stale elsewhere."""
    rng: npt.NDArray[np.int64]
    """``(N,)``: each game's random generator (the bots, the choice of a chance start)."""
    records: npt.NDArray[np.float64]
    """``(N, …)``: what each row of ``observation`` holds, for its encoder
    (:mod:`boardlab.rl.fast.kernel_planes`); not to be changed."""
    states: npt.NDArray[np.int64] = field(init=False)
    """``(N, state_size)``: the kernel states. Read-only: the legal ids, masks, seats to move
    and observations are made from them, so a position is set with
    :meth:`BatchedGame.set_states`, which makes them all."""
    observation: npt.NDArray[np.float32] = field(init=False)
    """``(N, C, H, W)``: the planes seen by the seat to move (the game's documented encoding).
    Read-only: ``step`` rewrites only what changed in each row (``records`` say what the rows
    hold), so copy it to change it."""

    def __post_init__(self) -> None:
        self.states = _read_only(self.kernel_states)
        self.observation = _read_only(self.planes)

    def __reduce__(self) -> tuple[type[Batch], tuple[Any, ...]]:
        """Copies (``copy.deepcopy``, pickle) copy the arrays behind the read-only views and
        make new views of the copies."""
        return Batch, tuple(getattr(self, item.name) for item in fields(self) if item.init)


def _read_only(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """A view of ``array`` that cannot be written (``array`` itself still can)."""
    view = array.view()
    view.flags.writeable = False
    return view


class BatchedGame:
    """``batch`` games of ``game_id`` with ``options``, stepped at once (functional form).

    Games with chance at the start (:data:`SEEDED_STARTS`: Anacund's layout) start from one
    of the initial positions of the seeds ``seed, seed + 1, …`` given to :meth:`init` (one per
    game), drawn again by each game's generator at every reset. ``dense_mask=False`` leaves out
    the dense masks (Colosseum Offcuts has 237,161 action ids at five seats): the compact
    masks ``legal_ids``/``legal_count`` are always written. ``opponent`` is the player spec
    of the bots that play every seat but the learner's (:class:`VectorEnv`;
    :mod:`boardlab.rl.opponents`).
    """

    def __init__(
        self, game_id: str, batch: int, *, dense_mask: bool = True, opponent: str = "random",
        **options: Any,
    ) -> None:  # fmt: skip
        if batch < 1:
            raise VectorError(f"batch must be at least 1, not {batch}")
        if game_id not in SEEDED_STARTS and SEED in make(game_id).options:
            options = {SEED: 0, **options}  # in the parameters: the same for every run
        self.game = make(game_id, **options)
        self.game_id = game_id
        self.batch = batch
        self.dense_mask = dense_mask
        self._options = dict(options)
        self.kernel = _kernel(self.game)
        self.encoder = observation_encoder(self.game)
        observer = observer_module(game_id)
        self._tables = observer.observer_tables(self.kernel, self.encoder)
        self.opponent: Opponent = _opponent(opponent, self.game)
        self.drivers = compiled_drivers(self.kernel, self.opponent)
        self._scratch = scratch(self.kernel, self.opponent, most_threads())
        """The bots' scratch, a row per run of games stepped on one thread."""
        self.learner = -1
        self.num_actions = self.game.num_actions
        self.observation_shape = self.encoder.shape
        self._logs: bool = observer.USES_RECORD
        self._finals = scratch_records(self.encoder.shape[0], batch)
        """Each game's record of no log for its final observation."""

    def init(self, seed: int = 0) -> Batch:
        """``batch`` new games; game ``i``'s generator is seeded with ``seed + i``."""
        n, kernel = self.batch, self.kernel
        size = int(np.prod(self.observation_shape))
        channels = self.observation_shape[0]
        if self.game_id in SEEDED_STARTS and SEED not in self._options:
            games = [make(self.game_id, **self._options, seed=seed + i) for i in range(n)]
            initial = np.stack([kernel.encode(game.new_initial_state()) for game in games])
        else:
            initial = kernel.encode(self.game.new_initial_state())[None, :]
        self._initial = initial
        batch = Batch(
            kernel_states=np.empty((n, kernel.state_size), dtype=np.int64),
            planes=np.zeros((n, *self.observation_shape), dtype=np.float32),
            legal_ids=np.zeros((n, kernel.max_legal), dtype=np.int64),
            legal_count=np.zeros(n, dtype=np.int64),
            action_mask=np.zeros((n, self.num_actions if self.dense_mask else 0), dtype=np.bool_),
            current_player=np.zeros(n, dtype=np.int64),
            rewards=np.zeros((n, self.game.num_players), dtype=np.float64),
            terminated=np.zeros(n, dtype=np.bool_),
            truncated=np.zeros(n, dtype=np.bool_),
            final_observation=np.zeros((n, *self.observation_shape), dtype=np.float32),
            rng=np.array([int(seeded(seed + i)) for i in range(n)], dtype=np.int64),
            records=(
                new_records(channels, LOGGED_CELLS, n)
                if self._logs
                else scratch_records(channels, n)
            ),
        )
        ints, floats = self._tables
        self.drivers.reset(
            kernel.params, ints, floats, self.learner, batch.kernel_states, initial, batch.rng,
            batch.planes.reshape(n, size), batch.records, batch.legal_ids,
            batch.legal_count, batch.action_mask, batch.current_player, self.dense_mask,
            *self._scratch,
        )  # fmt: skip
        return batch

    def step(self, batch: Batch, actions: npt.ArrayLike) -> Batch:
        """Play ``actions[i]`` in game ``i`` (in place; returns ``batch``).

        An illegal action ends its game: -1 for the seat that played it, 0 for the others,
        ``terminated`` set (as the PettingZoo environment does).
        """
        chosen = np.ascontiguousarray(actions, dtype=np.int64)
        if chosen.shape != (self.batch,):
            raise VectorError(f"actions must have shape ({self.batch},), not {chosen.shape}")
        step = (
            self.drivers.step_parallel if self.batch >= PARALLEL_FROM else self.drivers.step_serial
        )
        ints, floats = self._tables
        n = self.batch
        step(
            self.kernel.params, ints, floats, chosen, self.learner, batch.kernel_states,
            self._initial, batch.rng, batch.planes.reshape(n, -1),
            batch.final_observation.reshape(n, -1), batch.records, self._finals,
            batch.legal_ids, batch.legal_count, batch.action_mask, batch.current_player,
            batch.rewards, batch.terminated, batch.truncated, self.dense_mask, *self._scratch,
        )  # fmt: skip
        return batch

    def set_states(
        self, batch: Batch, positions: npt.ArrayLike, rows: npt.ArrayLike | None = None
    ) -> Batch:
        """Put game ``rows[k]`` (every game, in order, when ``rows`` is None) at kernel state
        ``positions[k]`` (``(len(rows), state_size)``; a game not over), and make its legal
        ids, mask row, seat to move and observation from it; returns ``batch``.

        The next ``step`` plays from these positions whatever the mask mode: legality is read
        from what this call made, never from what the rows held before.
        """
        chosen = np.arange(self.batch) if rows is None else np.asarray(rows, dtype=np.int64)
        placed = np.ascontiguousarray(positions, dtype=np.int64)
        size = self.kernel.state_size
        if chosen.ndim != 1 or placed.shape != (len(chosen), size):
            raise VectorError(
                f"positions must have shape ({len(chosen)}, {size}) for rows of shape "
                f"({len(chosen)},), not {placed.shape}"
            )
        if len(chosen) and not (chosen.min() >= 0 and chosen.max() < self.batch):
            raise VectorError(f"rows must be in 0 … {self.batch - 1}")
        kernel = self.kernel
        for k, s in enumerate(placed):
            if kernel.is_over(kernel.params, s):
                raise VectorError(f"the position for row {int(chosen[k])} is over")
        ints, floats = self._tables
        self.drivers.place(
            kernel.params, ints, floats, chosen, placed, batch.kernel_states,
            batch.planes.reshape(self.batch, -1), batch.records, batch.legal_ids,
            batch.legal_count, batch.action_mask, batch.current_player, self.dense_mask,
        )  # fmt: skip
        return batch

    def random_actions(self, batch: Batch, rng: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """A uniformly random legal id per game, drawn with the generators ``rng`` (``(N,)``
        ``int64``, advanced in place; make them with :func:`seeded_generators`)."""
        out = np.empty(self.batch, dtype=np.int64)
        self.drivers.random_actions(batch.legal_ids, batch.legal_count, rng, out)
        return out


def seeded_generators(seed: int, n: int) -> npt.NDArray[np.int64]:
    """``n`` xorshift64* generator states for :meth:`BatchedGame.random_actions`."""
    return np.array([int(seeded(seed + i)) for i in range(n)], dtype=np.int64)


def _kernel(game: Any) -> Kernel:
    """The game's kernel, or a one-line error saying what is missing."""
    kernel = kernel_for(game)
    if kernel is None:
        raise VectorError(
            f"the batched environments need the compiled kernel of {game.id}, and there is "
            "none here (no kernel for this game yet, numba missing, or BOARDLAB_ENGINE=python)"
        )
    if kernel.truncated is None:
        raise VectorError(f"the compiled kernel of {game.id} gives no truncated(p, s)")
    return kernel


def _opponent(spec: str, game: Any) -> Opponent:
    """The batch's bot for ``spec``, a bad spec raised as a :class:`VectorError`."""
    try:
        return opponent(spec, game)
    except BoardlabError as error:
        raise VectorError(str(error)) from error


def compiled_drivers(kernel: Kernel, bot: Opponent | None = None) -> ModuleType:
    """The compiled batched step (:mod:`boardlab.rl.vector_template`) bound to ``kernel``'s
    functions, its game's compiled observation encoder and ``bot``'s ``decide`` (random when
    None)."""
    bot = bot or _opponent("random", kernel.game)
    roles = {
        "legal": kernel.legal,
        "apply": kernel.apply,
        "returns": kernel.returns,
        "is_over": kernel.is_over,
        "player": kernel.player,
        "truncated": kernel.truncated,
        "observe": observer_module(kernel.game.id).observe,
    }
    decide = {"decide": decide_function(kernel, bot)}
    # The first role names the compiled copy: the game's ``legal`` for the random bot, the
    # bot's ``decide`` (its game's and kind's) for the others.
    return specialised(
        _TEMPLATE, {**roles, **decide} if bot.kind == "random" else {**decide, **roles}
    )


def observer_module(game_id: str) -> ModuleType:
    """The game's compiled observation encoder module."""
    name = COMPILED_OBSERVERS.get(game_id)
    if name is None:
        raise VectorError(f"{game_id} has no compiled observation encoder for the batched API")
    return importlib.import_module(name)


class VectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games in which the learner plays ``seat`` against compiled bots.

    Every other seat is played inside ``step`` by the bot of the player spec ``opponent``
    (``random``, ``greedy``, ``alphabeta:nodes=…``, ``mcts:iters=…``, ``level:easy`` …
    ``level:hard``; :mod:`boardlab.rl.opponents`). Observations are the learner's planes
    ``(num_envs, C, H, W)``; ``info["action_mask"]`` the dense masks and
    ``info["legal_ids"]``/``info["legal_count"]`` the compact ones. Rewards are the learner's
    returns where a game ended. Games that end start again within the same step
    (``autoreset_mode`` ``SAME_STEP``): their last observation is in ``info["final_obs"]``.

    With ``copy`` (the default, as Gymnasium's ``SyncVectorEnv``) every array returned is the
    caller's own, writable and never written again by the environment. ``copy=False`` returns
    the batch's own arrays, rewritten in place by the next ``step`` (``reset``), the
    observations read-only: no copy at all, for a caller that consumes each step before the
    next.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - Gymnasium reads it from the class
        "autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP,
    }

    def __init__(
        self, game_id: str, num_envs: int, seat: int = 0, *, opponent: str = "random",
        dense_mask: bool = True, copy: bool = True, **options: Any,
    ) -> None:  # fmt: skip
        self.batched = BatchedGame(
            game_id, num_envs, dense_mask=dense_mask, opponent=opponent, **options
        )
        players = self.batched.game.num_players
        if not 0 <= seat < players:
            raise VectorError(f"seat {seat}: {game_id} has seats 0 to {players - 1}")
        self.batched.learner = seat
        self.seat = seat
        self.copy = copy
        self.num_envs = num_envs
        shape = self.batched.observation_shape
        self.single_observation_space = gymnasium.spaces.Box(0.0, np.inf, shape, np.float32)
        self.single_action_space = gymnasium.spaces.Discrete(self.batched.num_actions)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, num_envs
        )
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self._batch: Batch | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """New games (seeded ``seed + i``; a fresh random seed when None), up to the
        learner's first decision."""
        if seed is None:
            seed = int(np.random.default_rng().integers(2**31))
        self._batch = self.batched.init(seed)
        return self._out(self._batch.observation), self._info(self._batch)

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """The learner's action in every game, then the bots' up to its next decision."""
        if self._batch is None:
            raise VectorError("call reset() before step()")
        batch = self.batched.step(self._batch, actions)
        info = self._info(batch)
        done = batch.terminated | batch.truncated
        if done.any():
            info["final_obs"] = self._out(batch.final_observation)
            info["_final_obs"] = done
        return (
            self._out(batch.observation),
            batch.rewards[:, self.seat].copy() if self.copy else batch.rewards[:, self.seat],
            self._out(batch.terminated),
            self._out(batch.truncated),
            info,
        )

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The dense legal masks of the learner (what maskable trainers call)."""
        if self._batch is None:
            raise VectorError("call reset() before action_masks()")
        return self._out(self._batch.action_mask)

    def _info(self, batch: Batch) -> dict[str, Any]:
        return {
            "action_mask": self._out(batch.action_mask),
            "legal_ids": self._out(batch.legal_ids),
            "legal_count": self._out(batch.legal_count),
        }

    def _out(self, array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """``array`` as returned: a copy with ``copy``, else itself."""
        return array.copy() if self.copy else array
