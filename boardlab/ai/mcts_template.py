"""The source of compiled UCT over any game's kernel: the tree, selection, expansion, rollouts.

:mod:`boardlab.ai.mcts_compiled` writes a copy of this file per game with the block between the
``kernel`` markers replaced by imports of that game's kernel functions (and of its compiled
evaluation, ``kernel_eval.evaluate``, or :func:`no_evaluation` where the game has none), as
:func:`boardlab.core.kernel_drivers.specialised` does for the drivers. Read as is, the
placeholders only make the source importable and type-checkable.

The tree is a preallocated pool of nodes: row ``i`` of ``nodes`` holds the node's first child,
its number of children, how many of them have been opened, the action that led to it, the seat
that played it and its visits; row ``i`` of ``values`` holds its reward sums for every seat.
The children of a node are allocated together, in a shuffled order, when it is expanded, and
opened one per visit, so opening the next child is UCT's "expand one untried decision".
"""

from __future__ import annotations

import math

import numba
import numpy as np

from boardlab.core.engine import KernelArray
from boardlab.core.kernel_random import below, next_state

# -- kernel --


def legal(p: KernelArray, s: KernelArray, out: KernelArray) -> int:
    """Placeholder for the game's ``legal``."""
    raise NotImplementedError


def apply(p: KernelArray, s: KernelArray, action: int) -> None:
    """Placeholder for the game's ``apply``."""
    raise NotImplementedError


def is_over(p: KernelArray, s: KernelArray) -> bool:
    """Placeholder for the game's ``is_over``."""
    raise NotImplementedError


def returns(p: KernelArray, s: KernelArray, out: KernelArray) -> None:
    """Placeholder for the game's ``returns``."""
    raise NotImplementedError


def player(p: KernelArray, s: KernelArray) -> int:
    """Placeholder for the game's ``player``."""
    raise NotImplementedError


def key(p: KernelArray, s: KernelArray) -> int:
    """Placeholder for the game's ``key``."""
    raise NotImplementedError


def evaluate(p: KernelArray, s: KernelArray, seat: int) -> float:
    """Placeholder for the game's compiled evaluation (its ``heuristic(seat)``)."""
    raise NotImplementedError


# -- end kernel --

FIRST = 0  # first child's row; -1 while the node is not expanded
COUNT = 1  # number of children (0 at the end of the game)
OPENED = 2  # children already visited once
ACTION = 3  # the action id that led here
MOVER = 4  # the seat that played it (-1 at the root)
VISITS = 5
COLUMNS = 6

SIZE = 0  # meta: rows of the pool in use
RANDOM = 1  # meta: the generator's state
DONE = 2  # meta: simulations finished by the last call of ``search``
DEPTH = 3  # meta: length of the path waiting for an evaluation (status EVALUATE)
META = 4

FINISHED = 0  # ``search`` ran every simulation asked for
EVALUATE = 1  # a cut rollout needs the evaluation from Python: the leaf is in ``work``
FULL = 2  # the pool may not hold the next expansion: grow it and call again


@numba.njit(cache=True)
def no_evaluation(p: KernelArray, s: KernelArray, seat: int) -> float:
    """The evaluation of a game without a compiled one: NaN, "ask Python"."""
    return math.nan


@numba.njit(cache=True)
def search(
    p: KernelArray,
    root: KernelArray,
    nodes: KernelArray,
    values: KernelArray,
    meta: KernelArray,
    path: KernelArray,
    work: KernelArray,
    moves: KernelArray,
    rewards: KernelArray,
    simulations: int,
    c: float,
    rollout: int,
    expand: bool,
) -> int:
    """Run up to ``simulations`` UCT simulations from state ``root`` (row 0 of the pool).

    Returns a status: FINISHED; EVALUATE when a rollout was cut short and the game has no
    compiled evaluation (the leaf is in ``work``, its path in ``path[:meta[DEPTH]]``: score it
    and call :func:`backup`); FULL when the pool has no room for one more expansion. With
    ``expand`` false the tree no longer grows: a node not yet expanded is a leaf.
    ``meta[DONE]`` counts the simulations completed by this call.
    """
    seats = rewards.shape[0]
    room = nodes.shape[0] - moves.shape[0]
    meta[DONE] = 0
    x = meta[RANDOM]
    for _ in range(simulations):
        if expand and meta[SIZE] > room:
            meta[RANDOM] = x
            return FULL
        work[:] = root
        node = 0
        path[0] = 0
        depth = 1
        # Selection down to a node with an unopened child (opened: the new leaf) or the end.
        while depth < path.shape[0]:
            if nodes[node, FIRST] < 0:
                if not expand:
                    break
                count = legal(p, work, moves)
                mover = player(p, work)
                first = meta[SIZE]
                nodes[node, FIRST] = first
                nodes[node, COUNT] = count
                meta[SIZE] = first + count
                for i in range(count):
                    x = next_state(x)
                    j = below(x, i + 1)  # Fisher-Yates: the opening order is random
                    row = first + i
                    nodes[row, ACTION] = nodes[first + j, ACTION]
                    nodes[first + j, ACTION] = moves[i]
                    nodes[row, FIRST] = -1
                    nodes[row, COUNT] = 0
                    nodes[row, OPENED] = 0
                    nodes[row, MOVER] = mover
                    nodes[row, VISITS] = 0
                    values[row, :] = 0.0
            count = nodes[node, COUNT]
            if count == 0:
                break
            first = nodes[node, FIRST]
            opened = nodes[node, OPENED]
            if opened < count:
                nodes[node, OPENED] = opened + 1
                node = first + opened
                apply(p, work, nodes[node, ACTION])
                path[depth] = node
                depth += 1
                break
            log_n = math.log(nodes[node, VISITS])
            best, best_score = first, -math.inf
            for child in range(first, first + count):
                n = nodes[child, VISITS]
                score = values[child, nodes[child, MOVER]] / n + c * math.sqrt(log_n / n)
                if score > best_score:
                    best, best_score = child, score
            node = best
            apply(p, work, nodes[node, ACTION])
            path[depth] = node
            depth += 1
        # Rollout: at most ``rollout`` random decisions (all, if negative).
        steps = 0
        while steps != rollout:
            count = legal(p, work, moves)
            if count == 0:
                break
            x = next_state(x)
            apply(p, work, moves[below(x, count)])
            steps += 1
        if is_over(p, work):
            returns(p, work, rewards)
        else:
            for seat in range(seats):
                rewards[seat] = evaluate(p, work, seat)
            if math.isnan(rewards[0]):
                meta[RANDOM] = x
                meta[DEPTH] = depth
                return EVALUATE
        backup(nodes, values, path, depth, rewards)
        meta[DONE] += 1
    meta[RANDOM] = x
    return FINISHED


@numba.njit(cache=True)
def backup(
    nodes: KernelArray, values: KernelArray, path: KernelArray, depth: int, rewards: KernelArray
) -> None:
    """Add one visit and ``rewards`` (per seat) to the nodes of ``path[:depth]``."""
    for i in range(depth):
        node = path[i]
        nodes[node, VISITS] += 1
        values[node, :] += rewards


@numba.njit(cache=True)
def winning_action(
    p: KernelArray, s: KernelArray, work: KernelArray, moves: KernelArray, rewards: KernelArray
) -> int:
    """A legal action of ``s`` that ends the game with a win for the seat to move, else -1."""
    seat = player(p, s)
    count = legal(p, s, moves)
    for i in range(count):
        work[:] = s
        action: int = moves[i]
        apply(p, work, action)
        if is_over(p, work):
            returns(p, work, rewards)
            if rewards[seat] > 0:
                return action
    return -1


@numba.njit(cache=True)
def find(
    p: KernelArray,
    root: KernelArray,
    nodes: KernelArray,
    target: KernelArray,
    limit: int,
    found: KernelArray,
) -> int:
    """The row of a node below the root whose position has ``target``'s key, else -1.

    Breadth-first over at most ``limit`` nodes; the node's state is written to ``found``.
    """
    wanted = key(p, target)
    states = np.empty((limit + 1, root.shape[0]), dtype=np.int64)
    rows = np.empty(limit + 1, dtype=np.int64)
    states[0, :] = root
    rows[0] = 0
    head, tail, examined = 0, 1, 0
    while head < tail and examined < limit:
        parent = rows[head]
        first, count = nodes[parent, FIRST], nodes[parent, COUNT]
        for child in range(first, first + min(count, nodes[parent, OPENED])):
            if examined == limit:
                break
            examined += 1
            states[tail, :] = states[head]
            apply(p, states[tail], nodes[child, ACTION])
            if key(p, states[tail]) == wanted:
                found[:] = states[tail]
                return child
            if nodes[child, FIRST] >= 0 and nodes[child, OPENED] > 0:
                rows[tail] = child
                tail += 1
        head += 1
    return -1


@numba.njit(cache=True)
def compact(
    nodes: KernelArray, values: KernelArray, top: int, into: KernelArray, into_values: KernelArray
) -> int:
    """Copy the subtree of row ``top`` into a fresh pool with it at row 0; its size."""
    origin = np.empty(into.shape[0], dtype=np.int64)
    into[0, :] = nodes[top]
    into[0, MOVER] = -1
    into_values[0, :] = values[top]
    origin[0] = top
    size, i = 1, 0
    while i < size:
        old = origin[i]
        first, count = nodes[old, FIRST], nodes[old, COUNT]
        if first >= 0 and count > 0:
            into[i, FIRST] = size
            for j in range(count):
                into[size + j, :] = nodes[first + j]
                into_values[size + j, :] = values[first + j]
                origin[size + j] = first + j
            size += count
        i += 1
    return size
