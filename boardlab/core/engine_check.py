"""Lock-step differential check of a compiled kernel against the reference engine.

Both engines play the same seeded random games; at every decision the legal action id sets,
the position text, the terminal status, the returns, the seat to move, the Zobrist key
(incremental against computed afresh) and whether the game ended by its ply cap
(``truncated`` against the reference's ``Termination.PLY_CAP``) must agree. Used by the
tests of every kernel and by ``benchmarks/engine_diff.py`` for long runs. Needs NumPy (the
``fast`` extra).
"""

from __future__ import annotations

import importlib
import itertools
import random

import numpy as np

from boardlab.core.engine import KERNEL_MODULES, Kernel, KernelArray
from boardlab.core.game import Game
from boardlab.core.outcome import Termination
from boardlab.core.state import State


class EngineMismatch(AssertionError):
    """The kernel and the reference disagree; the message names the game, seed and ply."""


def compare(kernel: Kernel, state: State, s: KernelArray, where: str) -> None:
    """Raise EngineMismatch unless kernel state ``s`` is the same position as ``state``."""
    p = kernel.params
    text = kernel.decode(s).position_text()
    if text != state.position_text():
        _fail(where, f"position text {text!r}, reference {state.position_text()!r}")
    over = bool(kernel.is_over(p, s))
    if over != state.is_terminal():
        _fail(where, f"kernel over={over}, reference over={state.is_terminal()}")
    buffer = np.empty(kernel.max_legal, dtype=np.int64)
    count = kernel.legal(p, s, buffer)
    legal = sorted(int(a) for a in buffer[:count])
    if legal != sorted(state.legal_actions()):
        _fail(where, f"legal ids differ: kernel {legal}, reference {sorted(state.legal_actions())}")
    rewards = np.zeros(kernel.game.num_players, dtype=np.float64)
    kernel.returns(p, s, rewards)
    if tuple(float(r) for r in rewards) != state.returns():
        _fail(where, f"returns {tuple(rewards)}, reference {state.returns()}")
    if kernel.truncated is not None:
        outcome = state.outcome
        capped = outcome is not None and outcome.termination is Termination.PLY_CAP
        if bool(kernel.truncated(p, s)) != capped:
            _fail(where, f"kernel truncated={not capped}, reference ended by the ply cap={capped}")
    if not over and kernel.player(p, s) != state.current_player:
        _fail(where, f"player {kernel.player(p, s)}, reference {state.current_player}")
    fresh = kernel.encode(state)
    if kernel.key(p, s) != kernel.key(p, fresh):
        _fail(where, "incremental Zobrist key differs from the key computed afresh")


def lockstep(game: Game, kernel: Kernel, games: int, seed: int, first: int = 0) -> int:
    """Play ``games`` seeded random games in lock step; returns the decisions compared.

    Game ``i`` of seed ``seed`` is always the same game, so a run may start at ``first``.
    """
    decisions = 0
    for index in range(first, first + games):
        rng = random.Random(f"{seed}:{index}")
        state = game.new_initial_state()
        s = kernel.encode(state)
        for ply in itertools.count():
            compare(kernel, state, s, f"{game!r} seed {seed} game {index} decision {ply}")
            if state.is_terminal():
                break
            action = rng.choice(sorted(state.legal_actions()))
            state.apply_action(action)
            kernel.apply(kernel.params, s, action)
            decisions += 1
    return decisions


def option_sets(game_id: str) -> list[dict[str, object]]:
    """The option sets a game's kernel is checked on (its package's ``kernel_cases.py``).

    Each option varied with the others at their defaults, every seat count, and the
    combinations that change the same rule; the tests and the long runs use the same list.
    """
    package = KERNEL_MODULES[game_id].rsplit(".", 1)[0]
    cases: list[dict[str, object]] = importlib.import_module(f"{package}.kernel_cases").OPTION_SETS
    return cases


def _fail(where: str, what: str) -> None:
    raise EngineMismatch(f"{where}: {what}")
