"""The source of the compiled random-bot game: Python's ``random.Random.choice`` on a kernel.

:mod:`boardlab.analysis.compiled` has a copy of this file written per game by
:func:`boardlab.core.kernel_drivers.specialised` (the block between the ``kernel`` markers
becomes an import of the game's ``legal``, ``apply``, ``player`` and ``evaluate``), so one
compiled call plays a whole game of random bots. Each bot's generator is its Mersenne Twister
state as ``random.Random.getstate()`` gives it (624 words and the position), drawn from here
exactly as CPython's ``random`` draws (``genrand_uint32``, ``getrandbits``,
``_randbelow_with_getrandbits``), so the game is the one the reference's random bots play.
"""

from __future__ import annotations

import numpy as np

from boardlab.core.engine import KernelArray
from boardlab.core.jit import numba
from boardlab.core.kernel_mersenne import below, seed

# -- kernel --


def legal(p: KernelArray, s: KernelArray, out: KernelArray) -> int:
    """Placeholder for the game's ``legal``."""
    raise NotImplementedError


def apply(p: KernelArray, s: KernelArray, action: int) -> None:
    """Placeholder for the game's ``apply``."""
    raise NotImplementedError


def player(p: KernelArray, s: KernelArray) -> int:
    """Placeholder for the game's ``player``."""
    raise NotImplementedError


def evaluate(p: KernelArray, s: KernelArray, seat: int) -> float:
    """Placeholder for the game's compiled evaluation (or :func:`no_evaluation`)."""
    raise NotImplementedError


# -- end kernel --


@numba.njit(cache=True)
def no_evaluation(p: KernelArray, s: KernelArray, seat: int) -> float:
    """Stands in for ``evaluate`` in a game without a compiled evaluation (never called)."""
    return 0.0


@numba.njit(cache=True)
def random_game(
    p: KernelArray,
    s: KernelArray,
    generators: KernelArray,
    seeds: KernelArray,
    actions: KernelArray,
    choices: KernelArray,
    evals: KernelArray,
    evaluated: bool,
    negated: bool,
    max_legal: int,
) -> int:
    """Random bots play on ``s`` (in place) until the end or until ``actions`` is full.

    ``generators[seat]`` is that seat's bot's generator (advanced in place), first seeded with
    ``seeds[seat]`` where that is not negative (then set to -1); each decision is
    ``choice`` of the legal ids in ascending order, as :class:`~boardlab.ai.random_bot.
    RandomBot` draws. Writes the decisions, the legal counts and (``evaluated``) every seat's
    evaluation before each decision (``evals[d, seat]``; with ``negated`` seat 1's is seat 0's
    negated, as ``State.heuristics`` gives it); returns the number of decisions.
    """
    for seat in range(seeds.shape[0]):
        if seeds[seat] >= 0:
            seed(generators[seat], seeds[seat])
            seeds[seat] = -1
    moves = np.empty(max_legal, dtype=np.int64)
    seats = evals.shape[1]
    d = 0
    while d < actions.shape[0]:
        n = legal(p, s, moves)
        if n == 0:
            break
        if evaluated and negated:  # as State.heuristics with NEGATED_HEURISTIC
            evals[d, 0] = evaluate(p, s, 0)
            evals[d, 1] = -evals[d, 0]
        elif evaluated:
            for seat in range(seats):
                evals[d, seat] = evaluate(p, s, seat)
        ordered = np.sort(moves[:n])
        action = ordered[below(generators[player(p, s)], n)]
        actions[d] = action
        choices[d] = n
        apply(p, s, action)
        d += 1
    return d
