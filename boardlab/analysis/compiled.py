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
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from boardlab.ai.base import Bot
from boardlab.ai.random_bot import RandomBot
from boardlab.core.engine import KERNEL_MODULES, kernel_for
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

    It cannot without a kernel, when a bot is not the random bot, when the game has
    whole-turn presets (the bots play them from reference states), or when the kernel cannot
    hold the game (e.g. a repetition history past its bound): the caller then plays on the
    reference. The bots are left untouched (the kernel game uses copies), so that fallback
    plays the same game. ``evaluations`` asks for every seat's evaluation at every decision.
    """
    if not all(type(bot) is RandomBot for bot in bots) or type(start).presets is not State.presets:
        return None
    kernel = kernel_for(game)
    if kernel is None:
        return None
    import numpy as np

    evaluate = compiled_evaluation(game) if evaluations else None
    players: list[RandomBot] = copy.deepcopy(list(bots))  # type: ignore[arg-type]
    p, legal, apply, player = kernel.params, kernel.legal, kernel.apply, kernel.player
    seats = range(game.num_players)
    s = kernel.encode(start)
    buffer = np.empty(kernel.max_legal, dtype=np.int64)
    actions: list[int] = []
    choices: list[int] = []
    evals: list[float] = []
    try:
        while n := legal(p, s, buffer):
            seat = player(p, s)
            if evaluate is not None:
                evals += [evaluate(p, s, other) for other in seats]
            action = players[seat].choose_among(buffer[:n].tolist())
            actions.append(action)
            choices.append(n)
            apply(p, s, action)
    except RuntimeError:  # a bound of the kernel (see its module): the reference plays it
        return None
    return CompiledGame(actions, choices, evals if evaluate is not None else None)


def compiled_evaluation(game: Game) -> Callable[..., float] | None:
    """The game's compiled ``evaluate(p, s, seat)`` (equal to ``State.heuristic(seat)``), from
    its module ``kernel_eval`` beside its kernel; None when the game has none."""
    kernel_module = KERNEL_MODULES.get(game.id)
    if kernel_module is None:
        return None
    name = kernel_module.rpartition(".")[0] + ".kernel_eval"
    if importlib.util.find_spec(name) is None:
        return None
    evaluate: Callable[..., float] = importlib.import_module(name).evaluate
    return evaluate


class EngineMismatch(RuntimeError):
    """The reference engine did not accept a game the compiled engine played (a kernel bug)."""
