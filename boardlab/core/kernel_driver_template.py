"""The source of the compiled drivers that run any game's kernel (random playouts, perft).

Numba cannot cache a compiled function that takes another compiled function as an argument
or from a closure (the cache key holds the callee's address: numba/numba#2956, #6264), so
:mod:`boardlab.core.kernel_drivers` writes this file once per game, with the block between the
``kernel`` markers replaced by an import of that game's kernel functions, and imports the copy
from the user's cache directory, where Numba caches it like any module. Read as is, the
placeholders below only make the source importable and type-checkable.
"""

from __future__ import annotations

import numpy as np

from boardlab.core.engine import KernelArray
from boardlab.core.jit import numba
from boardlab.core.kernel_copy import copy_state
from boardlab.core.kernel_random import below, next_state, seeded

# -- kernel --


def legal(p: KernelArray, s: KernelArray, out: KernelArray) -> int:
    """Placeholder for the game's ``legal``."""
    raise NotImplementedError


def apply(p: KernelArray, s: KernelArray, action: int) -> None:
    """Placeholder for the game's ``apply``."""
    raise NotImplementedError


def returns(p: KernelArray, s: KernelArray, out: KernelArray) -> None:
    """Placeholder for the game's ``returns``."""
    raise NotImplementedError


# -- end kernel --


@numba.njit(cache=True)
def random_playouts(
    p: KernelArray, s: KernelArray, n: int, seed: int, max_legal: int
) -> tuple[int, int]:
    """Play ``n`` uniformly random games from ``s`` (unchanged); (games, decisions)."""
    moves = np.empty(max_legal, dtype=np.int64)
    work = np.empty_like(s)
    x = seeded(seed)
    decisions = 0
    for _ in range(n):
        copy_state(work, s)
        while True:
            count = legal(p, work, moves)
            if count == 0:
                break
            x = next_state(x)
            apply(p, work, moves[below(x, count)])
            decisions += 1
    return n, decisions


@numba.njit(cache=True)
def rollout(
    p: KernelArray, s: KernelArray, seed: int, steps: int, moves: KernelArray, out: KernelArray
) -> int:
    """Play at most ``steps`` uniformly random decisions on ``s`` in place (all, if negative).

    ``moves`` is scratch of length ``max_legal``; the returns of the position reached go to
    ``out`` (zeros unless it is over); the result is the number of decisions played.
    """
    x = seeded(seed)
    decisions = 0
    while decisions != steps:
        count = legal(p, s, moves)
        if count == 0:
            break
        x = next_state(x)
        apply(p, s, moves[below(x, count)])
        decisions += 1
    returns(p, s, out)
    return decisions


@numba.njit(cache=True)
def perft(p: KernelArray, s: KernelArray, depth: int, max_legal: int) -> int:
    """Leaves ``depth`` decisions below ``s`` (unchanged), bulk-counted at the last level.

    Depth-first with an explicit stack of states and move lists: Numba's cache loads a
    recursive function badly (it crashed on a cached start-up).
    """
    if depth <= 0:
        return 1
    states = np.empty((depth, s.shape[0]), dtype=np.int64)
    moves = np.empty((depth, max_legal), dtype=np.int64)
    counts = np.zeros(depth, dtype=np.int64)
    done = np.zeros(depth, dtype=np.int64)  # moves of each level already expanded
    states[0, :] = s
    counts[0] = legal(p, states[0], moves[0])
    if depth == 1:
        return int(counts[0])
    total = 0
    level = 0
    while level >= 0:
        if done[level] == counts[level]:
            level -= 1
            continue
        child = states[level + 1]
        copy_state(child, states[level])
        apply(p, child, moves[level, done[level]])
        done[level] += 1
        if level + 2 == depth:  # bulk counting: the leaves are the child's legal decisions
            total += legal(p, child, moves[level + 1])
        else:
            level += 1
            counts[level] = legal(p, child, moves[level])
            done[level] = 0
    return total
