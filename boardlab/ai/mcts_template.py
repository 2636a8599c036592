"""The source of compiled UCT over any game's kernel: the tree, selection, expansion, rollouts.

:mod:`boardlab.ai.mcts_compiled` writes a copy of this file per game with the block between the
``kernel`` markers replaced by imports of that game's kernel functions (and of its compiled
evaluation, ``kernel_eval.evaluate``, or :func:`no_evaluation` where the game has none), as
:func:`boardlab.core.kernel_drivers.specialised` does for the drivers. Read as is, the
placeholders only make the source importable and type-checkable.

The tree lives in preallocated pools. Row ``i`` of ``nodes`` is a node: its last opened child
and next sibling (the children form a list), where its unopened actions are in ``untried`` and
how many are left, the action that led to it, the seat that played it, its visits; row ``i`` of
``values`` holds its reward sums for every seat. A node is expanded on its first visit after its
creation: its legal actions are stored in ``untried``, shuffled; each later visit opens one
(UCT's "expand one untried decision") until none is left, and then descends by UCT. Only opened
children take a row, so the tree costs one row per simulation and four bytes per stored action.
"""

from __future__ import annotations

import math

import numpy as np

from boardlab.core.engine import KernelArray
from boardlab.core.jit import numba
from boardlab.core.kernel_copy import copy_state
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

CHILD = 0  # the child opened last (-1: none); the others follow by SIBLING
SIBLING = 1  # the next child of the same parent (opened earlier), -1 at the end
UNTRIED = 2  # where the node's unopened actions start in ``untried``
LEFT = 3  # how many of them are left to open; -1 while the node is not expanded
ACTION = 4  # the action id that led here
MOVER = 5  # the seat that played it (-1 at the root)
VISITS = 6
COLUMNS = 7

SIZE = 0  # meta: rows of ``nodes`` in use
STORED = 1  # meta: entries of ``untried`` in use
RANDOM = 2  # meta: the generator's state
DONE = 3  # meta: simulations finished by the last call of ``search``
DEPTH = 4  # meta: length of the path waiting for an evaluation (status EVALUATE)
META = 5

FINISHED = 0  # ``search`` ran every simulation asked for
EVALUATE = 1  # a cut rollout needs the evaluation from Python: the leaf is in ``work``
FULL = 2  # a pool may not hold one more simulation: grow it and call again


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
    untried: KernelArray,
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
    and call :func:`backup`); FULL when a pool may lack room for one more simulation. With
    ``expand`` false the tree no longer grows: it is searched with the nodes it has.
    ``meta[DONE]`` counts the simulations completed by this call.
    """
    seats = rewards.shape[0]
    meta[DONE] = 0
    x = meta[RANDOM]
    for _ in range(simulations):
        if expand and (
            meta[SIZE] >= nodes.shape[0] or meta[STORED] + moves.shape[0] > untried.shape[0]
        ):
            meta[RANDOM] = x
            return FULL
        copy_state(work, root)
        node = 0
        path[0] = 0
        depth = 1
        # Selection down to a new child, a node not expanded (tree full) or the end.
        while depth < path.shape[0]:
            left = nodes[node, LEFT]
            if left < 0:
                if not expand:
                    break
                count = legal(p, work, moves)
                start = meta[STORED]
                for i in range(count):
                    x = next_state(x)
                    j = start + below(x, i + 1)  # Fisher-Yates: the opening order is random
                    untried[start + i] = untried[j]
                    untried[j] = moves[i]
                meta[STORED] = start + count
                nodes[node, UNTRIED] = start
                nodes[node, LEFT] = count
                left = count
            if left > 0 and expand:
                left -= 1
                nodes[node, LEFT] = left
                child = meta[SIZE]
                meta[SIZE] = child + 1
                action = untried[nodes[node, UNTRIED] + left]
                nodes[child, CHILD] = -1
                nodes[child, SIBLING] = nodes[node, CHILD]
                nodes[child, UNTRIED] = 0
                nodes[child, LEFT] = -1
                nodes[child, ACTION] = action
                nodes[child, MOVER] = player(p, work)
                nodes[child, VISITS] = 0
                values[child, :] = 0.0
                nodes[node, CHILD] = child
                apply(p, work, action)
                path[depth] = child
                depth += 1
                break
            child = nodes[node, CHILD]
            if child < 0:  # the end of the game
                break
            log_n = math.log(nodes[node, VISITS])
            best, best_score = child, -math.inf
            while child >= 0:
                n = nodes[child, VISITS]
                score = values[child, nodes[child, MOVER]] / n + c * math.sqrt(log_n / n)
                if score > best_score:
                    best, best_score = child, score
                child = nodes[child, SIBLING]
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
        copy_state(work, s)
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
        child: int = nodes[rows[head], CHILD]
        while child >= 0 and examined < limit:
            examined += 1
            copy_state(states[tail], states[head])
            apply(p, states[tail], nodes[child, ACTION])
            if key(p, states[tail]) == wanted:
                found[:] = states[tail]
                return child
            if nodes[child, CHILD] >= 0:
                rows[tail] = child
                tail += 1
            child = nodes[child, SIBLING]
        head += 1
    return -1


@numba.njit(cache=True)
def compact(
    nodes: KernelArray,
    values: KernelArray,
    untried: KernelArray,
    top: int,
    into: KernelArray,
    into_values: KernelArray,
    into_untried: KernelArray,
    meta: KernelArray,
) -> None:
    """Copy the subtree of row ``top`` into fresh pools, with it at row 0; their sizes go to
    ``meta``."""
    origin = np.empty(into.shape[0], dtype=np.int64)
    into[0, :] = nodes[top]
    into[0, SIBLING] = -1
    into[0, MOVER] = -1
    into_values[0, :] = values[top]
    origin[0] = top
    size, stored, i = 1, 0, 0
    while i < size:
        old = origin[i]
        left = nodes[old, LEFT]
        if left > 0:
            start = nodes[old, UNTRIED]
            into_untried[stored : stored + left] = untried[start : start + left]
            into[i, UNTRIED] = stored
            stored += left
        child = nodes[old, CHILD]
        if child >= 0:
            into[i, CHILD] = size
        while child >= 0:
            into[size, :] = nodes[child]
            into_values[size, :] = values[child]
            origin[size] = child
            child = nodes[child, SIBLING]
            into[size, SIBLING] = size + 1 if child >= 0 else -1
            size += 1
        i += 1
    meta[SIZE] = size
    meta[STORED] = stored
