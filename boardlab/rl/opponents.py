"""The bots that play inside the batched step: every other seat of a :class:`VectorEnv`.

``opponent`` is a player spec (docs/bots.md): ``random``, ``greedy:noise=…``,
``alphabeta:nodes=…,depth=…,noise=…``, ``mcts:iters=…,rollout=…,c=…`` or ``level:easy`` …
``level:hard`` (the level's spec for the game). Each becomes a compiled ``decide`` of
:mod:`boardlab.rl.opponents_template` and its scratch, one row per run of games stepped on one
thread. A bot here is the Boardlab bot of the same spec on its first decision: the same compiled
scoring or search and budgets, fresh tables at every decision (a bot keeps its table between
its own decisions), the root order and noise drawn from the game's generator. A clock cannot
bound a decision inside the batch: a spec's ``time`` is left out, and a spec with no other
budget (``level:expert``, ``alphabeta:time=2``) is refused: give it ``nodes`` or ``iters``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np
import numpy.typing as npt

from boardlab.ai import greedy_template, search_template
from boardlab.ai.levels import level_spec
from boardlab.ai.mcts_compiled import drivers as tree_drivers
from boardlab.ai.mcts_template import COLUMNS, META, no_evaluation
from boardlab.ai.players import Params, parse_spec
from boardlab.ai.search import MAX_DEPTH, TABLE_BITS
from boardlab.core.engine import Kernel, kernel_evaluation
from boardlab.core.errors import OptionError
from boardlab.core.game import Game
from boardlab.core.kernel_drivers import specialised
from boardlab.rl import opponents_template as layout

_TEMPLATE = Path(layout.__file__)
KINDS = {"random": "uniform", "greedy": "greedy", "alphabeta": "alphabeta", "mcts": "mcts"}
"""Spec kind -> its ``decide`` in the template."""


@dataclass(frozen=True)
class Opponent:
    """A bot of the batch: its ``decide`` and its settings (the spec's, defaults filled in)."""

    spec: str
    kind: str
    noise: float = 0.0  # greedy, alpha-beta: root noise; mcts: the exploration constant c
    budget: int = 0  # alpha-beta: node cap (0: none); mcts: simulations
    depth: int = 0  # alpha-beta: depth cap; mcts: rollout length


def opponent(spec: str, game: Game) -> Opponent:
    """The batch's bot for ``spec`` in ``game``; raises OptionError for a bad spec or one
    bounded by a clock only."""
    kind, params = parse_spec(spec)
    if isinstance(params, str):
        return opponent(level_spec(game, params), game)
    if kind not in KINDS:
        raise OptionError(f"{spec!r} cannot play inside the batch; bots are: {', '.join(KINDS)}")
    if kind == "greedy":
        return Opponent(spec, kind, noise=float(params.get("noise", 0.0)))
    if kind == "alphabeta":
        nodes, depth = params.get("nodes"), params.get("depth")
        _bounded(spec, params, nodes is not None or depth is not None, "nodes= (or depth=)")
        return Opponent(
            spec,
            kind,
            noise=float(params.get("noise", 0.0)),
            budget=int(nodes or 0),
            depth=int(depth if depth is not None else (3 if nodes is None else MAX_DEPTH)),
        )
    if kind == "mcts":
        iters = params.get("iters")
        _bounded(spec, params, iters is not None, "iters=")
        return Opponent(
            spec,
            kind,
            noise=float(params.get("c", 1.0)),
            budget=int(iters if iters is not None else 1000),
            depth=max(int(params.get("rollout", 4)), 0),
        )
    return Opponent(spec, kind)


def _bounded(spec: str, params: Params, capped: bool, cap: str) -> None:
    """Refuse ``spec`` when only its clock bounds a decision (``capped``: a cap is given)."""
    if not capped and "time" in params:
        raise OptionError(
            f"{spec!r} is bounded by a clock only, which cannot bound a decision inside the "
            f"batch: give it {cap}"
        )


def decide_function(kernel: Kernel, bot: Opponent) -> object:
    """The compiled ``decide`` of ``bot`` for ``kernel``'s game (a bot that evaluates positions
    needs the game's compiled evaluation)."""
    if bot.kind != "random" and kernel_evaluation(kernel.game) is None:
        raise OptionError(f"{kernel.game.id} has no compiled evaluation for the batch's bots")
    return getattr(compiled_opponents(kernel), KINDS[bot.kind])


def compiled_opponents(kernel: Kernel) -> ModuleType:
    """The opponents' template bound to ``kernel`` and the bots' compiled code for its game."""
    evaluate = kernel_evaluation(kernel.game) or no_evaluation  # then only the random bot plays
    scoring = specialised(
        Path(greedy_template.__file__),
        {"apply": kernel.apply, "is_over": kernel.is_over, "returns": kernel.returns,
         "evaluate": evaluate},
    )  # fmt: skip
    roles = ("legal", "apply", "returns", "player", "key", "is_over")
    searching = specialised(
        Path(search_template.__file__),
        {**{role: getattr(kernel, role) for role in roles}, "evaluate": evaluate},
    )
    tree = tree_drivers(kernel)
    return specialised(
        _TEMPLATE,
        {
            "legal": kernel.legal,
            "player": kernel.player,
            "child_scores": scoring.child_scores,
            "search": searching.search,
            "tree_search": tree.search,
            "winning_action": tree.winning_action,
        },
    )


Scratch = tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.int32]]


def scratch(kernel: Kernel, bot: Opponent, runs: int) -> Scratch:
    """``bot``'s scratch (``work``, ``fwork``, ``work32``), one row per run of games, its
    settings in each row's head (:data:`boardlab.rl.opponents_template.HEAD`)."""
    game = kernel.game
    seats, most, actions = game.num_players, kernel.max_legal, game.num_actions
    ints, floats, small = 0, 0, 0
    table = 0
    if bot.kind == "greedy":
        floats = 2 * most + seats
    elif bot.kind == "alphabeta":
        table = 1 << TABLE_BITS  # the bot's own table: the same collisions, the same search
        ints = 3 * table + 2 * (search_template.MAX_PLY + 1) + actions + most
        floats = table + most + 3
    elif bot.kind == "mcts":
        table = bot.budget + 1  # a simulation opens one node at most
        small_untried = (bot.budget + 2) * most
        ints = META + layout.PATH + kernel.state_size + most
        floats = table * seats + seats
        small = table * COLUMNS + small_untried
    work = np.zeros((runs, layout.HEAD + ints), dtype=np.int64)
    fwork = np.zeros((runs, layout.HEAD + floats), dtype=np.float64)
    work32 = np.zeros((runs, max(small, 1)), dtype=np.int32)
    work[:, layout.BUDGET] = bot.budget
    work[:, layout.DEPTH] = bot.depth
    work[:, layout.TABLE] = table
    work[:, layout.ACTIONS] = actions
    work[:, layout.MAX_LEGAL] = most
    work[:, layout.SEATS] = seats
    work[:, layout.UNTRIED_SIZE] = small - table * COLUMNS if bot.kind == "mcts" else 0
    work[:, layout.STATE_SIZE] = kernel.state_size
    fwork[:, layout.NOISE] = bot.noise
    return work, fwork, work32
