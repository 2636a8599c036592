"""Self-play on the compiled engine: a game's decisions chosen on the kernel, for replay.

Where every seat's bot can choose on a kernel state (the random bot) and the game has a
kernel, :func:`play_compiled` plays the whole game on the kernel and returns its decisions with
what only a search of the position can tell cheaply (the number of legal decisions, and each
seat's evaluation where the game has a compiled one, ``boardlab.games.<game>.kernel_eval``).
The caller then replays the decisions on the reference engine for everything that must read
as the reference writes it (seats, notation, records, board snapshots, the outcome): one
reference ``apply_action`` per decision instead of the reference's legal decisions, view and
bot, and exact by construction. The bots choose the same decisions as on the reference (see
:class:`~boardlab.ai.random_bot.RandomBot`), so the results are the same with either engine.
A game whose bots play presets first (Cyvasse's deployment) goes to the kernel once they are
over: :class:`Decisions` is the one place the lab's and the matches' loops ask.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from boardlab.ai.base import Bot
from boardlab.ai.random_bot import RandomBot
from boardlab.core.engine import (
    Kernel,
    kernel_evaluation,
    kernel_for,
    requested_engine,
)
from boardlab.core.game import Game
from boardlab.core.state import State


@dataclass
class CompiledGame:
    """The decisions of one game played on the kernel, in order.

    ``choices[d]`` is the number of legal decisions before decision ``d``; ``evals`` holds
    every seat's evaluation before each decision, laid end to end (``evals[d * n + s]``), or is
    None when the game has no compiled evaluation (the replay then asks the reference).
    """

    actions: list[int]
    choices: list[int]
    evals: list[float] | None

    def action(self, decision: int) -> int:
        """Decision number ``decision``, for a replay whose reference state is not over."""
        if decision >= len(self.actions):
            raise EngineMismatch("the compiled engine ended the game before the reference")
        return self.actions[decision]

    def check_end(self, decisions: int) -> None:
        """Raise unless a replay that ended after ``decisions`` decisions played them all."""
        if decisions != len(self.actions):
            raise EngineMismatch("the compiled engine played on after the reference's end")


def play_compiled(
    game: Game, start: State, bots: Sequence[Bot], evaluations: bool
) -> CompiledGame | None:
    """Play ``bots`` from ``start`` to the end on ``game``'s kernel; None when it cannot.

    It cannot without a kernel, when a bot is not the random bot, or while whole-turn presets
    may be played (the bots play them from reference states: see :class:`Decisions` for a
    game that goes to the kernel once they are over): the caller then plays on the reference.
    The whole game is one compiled call (``random_game_template.py``); the bots are left
    untouched (their generators are copied).
    ``evaluations`` asks for every seat's evaluation at every decision (given only where the
    game has a compiled one).
    """
    if not all(type(bot) is RandomBot and not bot.in_preset() for bot in bots):
        return None
    if start.presets_ahead():
        return None
    kernel = _kernel(game)
    if kernel is None:
        return None
    import numpy as np

    from boardlab.core.kernel_drivers import specialised

    evaluate = kernel_evaluation(game)
    driver = specialised(
        _TEMPLATE,
        {
            "legal": kernel.legal,
            "apply": kernel.apply,
            "player": kernel.player,
            "evaluate": evaluate if evaluate is not None else _no_evaluation(),
        },
    )
    evaluated = evaluations and evaluate is not None
    seats = game.num_players
    generators = np.empty((len(bots), MT_WORDS), dtype=np.int64)
    seeds = np.full(len(bots), -1, dtype=np.int64)
    for seat, bot in enumerate(bots):
        drawn = bot.generator() if isinstance(bot, RandomBot) else 0
        if isinstance(drawn, int):
            seeds[seat] = drawn
        else:
            generators[seat] = np.fromiter(drawn, dtype=np.int64, count=MT_WORDS)
    s = kernel.encode(start)
    actions = np.empty(BLOCK, dtype=np.int64)
    choices = np.empty(BLOCK, dtype=np.int64)
    evals = np.empty((BLOCK if evaluated else 0, seats), dtype=np.float64)
    played = CompiledGame([], [], [] if evaluated else None)
    while True:
        # A kernel error is a bug (every kernel plays every legal game): it is raised, never
        # hidden by playing the game on the reference engine instead.
        count = driver.random_game(
            kernel.params,
            s,
            generators,
            seeds,
            actions,
            choices,
            evals,
            evaluated,
            start.NEGATED_HEURISTIC,
            kernel.max_legal,
        )
        played.actions += actions[:count].tolist()
        played.choices += choices[:count].tolist()
        if played.evals is not None:
            played.evals += evals[:count].ravel().tolist()
        if count < BLOCK:
            return played


class Decisions:
    """Where a self-play loop's decisions come from: the kernel, from the first decision at
    which it can take the game over (the start, or the end of a preset phase such as Cyvasse's
    deployment), else the bots on reference states. The loop asks :meth:`planned` at each
    decision until it gets a plan, then replays its decisions (:meth:`action`)."""

    def __init__(self, game: Game, bots: Sequence[Bot], evaluations: bool) -> None:
        self.game, self.bots, self.evaluations = game, bots, evaluations
        self.plan: CompiledGame | None = None
        self.offset = 0
        self._hope = all(type(bot) is RandomBot for bot in bots) and _kernel(game) is not None

    def planned(self, state: State, decision: int) -> CompiledGame | None:
        """The kernel's plan of the rest of the game from ``state`` (decision number
        ``decision``): made the first time it can be, None while it cannot."""
        if self.plan is None and self._hope:
            self.plan = play_compiled(self.game, state, self.bots, self.evaluations)
            self.offset = decision
            # Bots that already play decision by decision will not go back to presets.
            self._hope = self.plan is None and state.presets_ahead()
        return self.plan

    def action(self, decision: int) -> int:
        """Decision number ``decision`` of the game, from the plan."""
        assert self.plan is not None
        return self.plan.action(decision - self.offset)

    def check_end(self, decisions: int) -> None:
        """Raise unless the plan's decisions were all played by a game of ``decisions``."""
        if self.plan is not None:
            self.plan.check_end(decisions - self.offset)


BLOCK = 1024
"""Decisions per compiled call: a longer game takes several."""
MT_WORDS = 625
"""A Mersenne Twister state: 624 words and the position."""
_TEMPLATE = Path(__file__).with_name("random_game_template.py")


def _no_evaluation() -> Callable[..., float]:
    from boardlab.analysis.random_game_template import no_evaluation

    return cast(Callable[..., float], no_evaluation)


_KERNELS: dict[tuple[str, tuple[tuple[str, object], ...]], Kernel | None] = {}
"""Kernels by game and options: a kernel's parameters (tables, Zobrist numbers) take longer
to build than a random game takes to play. Emptied when it holds ``KERNELS_KEPT`` (games with
chance have a seed option, so a lab run makes a new one per game; their kernels keep the
parameters that do not depend on it)."""
KERNELS_KEPT = 64


def _kernel(game: Game) -> Kernel | None:
    """:func:`kernel_for` ``game``, made once per game and options in a process."""
    if requested_engine() == "python":
        return None
    key = (game.id, tuple(sorted(game.options.items())))
    if key not in _KERNELS:
        if len(_KERNELS) >= KERNELS_KEPT:
            _KERNELS.clear()
        _KERNELS[key] = kernel_for(game)
    return _KERNELS[key]


class EngineMismatch(RuntimeError):
    """The reference engine did not accept a game the compiled engine played (a kernel bug)."""
