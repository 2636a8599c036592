"""Long games for the kernels' tests: a policy that stalls, and a lock-step driver.

Uniformly random play ends most games long before a kernel's repetition history fills (a
Murus Gallicus random game lasts 33 plies), so the kernels' bounds are tested with a policy
that plays the way a learning agent can: never an irreversible decision (a sacrifice, a
capture, whatever the game's ``progress`` measure says), never one that ends the game, and of
the rest one whose position has occurred least (ties drawn at random), so that the game lasts
until a cap ends it. It plays an ending or irreversible decision only when forced.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable

import numpy as np

from boardlab.core.engine import Kernel, KernelArray
from boardlab.core.engine_check import EngineMismatch, compare
from boardlab.core.state import State

Progress = Callable[[State], Hashable]
"""What only irreversible decisions change (stones left, counters on the board, ...)."""
Keep = Callable[[State, int], float]
"""What a seat needs to go on moving (a Murus Gallicus side's towers)."""
Policy = Callable[[State, random.Random], int]


def stalling(progress: Progress, keep: Keep | None = None) -> Policy:
    """The stalling policy of the module docstring for a game whose ``progress`` is given;
    among the decisions that neither end the game nor progress, it prefers those that leave
    the mover the most ``keep`` (what it needs to go on moving), if given."""

    def choose(state: State, rng: random.Random) -> int:
        now = progress(state)
        mover = state.current_player
        scored: dict[tuple[bool, bool, float, int], list[int]] = {}
        for action in sorted(state.legal_actions()):
            child = state.child(action)
            kept = -keep(child, mover) if keep is not None else 0.0
            score = (child.is_terminal(), progress(child) != now, kept, child.repetition_count())
            scored.setdefault(score, []).append(action)
        return rng.choice(scored[min(scored)])

    return choose


def hastening(progress: Progress) -> Policy:
    """The stalling policy reversed, to end a long game: a decision that ends it, else one that
    progresses, else one whose position has occurred most (towards a repetition draw)."""

    def choose(state: State, rng: random.Random) -> int:
        now = progress(state)
        scored: dict[tuple[bool, bool, int], list[int]] = {}
        for action in sorted(state.legal_actions()):
            child = state.child(action)
            score = (not child.is_terminal(), progress(child) == now, -child.repetition_count())
            scored.setdefault(score, []).append(action)
        return rng.choice(scored[min(scored)])

    return choose


def uniform(state: State, rng: random.Random) -> int:
    """A uniformly random legal decision."""
    return rng.choice(sorted(state.legal_actions()))


def check(kernel: Kernel, state: State, s: KernelArray, where: str) -> None:
    """What :func:`~boardlab.core.engine_check.compare` checks but the key computed afresh
    (encoding a long history at every decision makes a long game quadratic)."""
    p = kernel.params
    text = kernel.decode(s).position_text()
    if text != state.position_text():
        raise EngineMismatch(
            f"{where}: position text {text!r}, reference {state.position_text()!r}"
        )
    if bool(kernel.is_over(p, s)) != state.is_terminal():
        raise EngineMismatch(f"{where}: kernel over={bool(kernel.is_over(p, s))}")
    buffer = np.empty(kernel.max_legal, dtype=np.int64)
    legal = sorted(int(a) for a in buffer[: kernel.legal(p, s, buffer)])
    if legal != sorted(state.legal_actions()):
        raise EngineMismatch(f"{where}: legal ids {legal}, reference {state.legal_actions()}")
    rewards = np.zeros(kernel.game.num_players, dtype=np.float64)
    kernel.returns(p, s, rewards)
    if tuple(float(r) for r in rewards) != state.returns():
        raise EngineMismatch(f"{where}: returns {tuple(rewards)}, reference {state.returns()}")


def play_lockstep(
    kernel: Kernel,
    state: State,
    s: KernelArray,
    policy: Policy,
    rng: random.Random,
    decisions: int | None = None,
) -> int:
    """Play ``policy`` in both engines from ``state`` and its kernel state ``s`` (both changed
    in place) for ``decisions`` decisions or to the end (None), checking them after every
    decision, with :func:`compare` (the key too) every 50 and at the end; returns the
    decisions played."""
    played = 0
    while not state.is_terminal() and played != decisions:
        action = policy(state, rng)
        state.apply_action(action)
        kernel.apply(kernel.params, s, action)
        played += 1
        where = f"{kernel.game!r} decision {played} from the start of the drive"
        check(kernel, state, s, where)
        if played % 50 == 0:
            compare(kernel, state, s, where)
    compare(kernel, state, s, f"{kernel.game!r} after {played} decisions")
    return played
