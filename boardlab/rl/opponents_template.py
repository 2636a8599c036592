"""The source of the bots that play inside the batched step (:mod:`boardlab.rl.opponents`).

Written once per game by :func:`boardlab.core.kernel_drivers.specialised`, with the block
between the ``kernel`` markers replaced by imports of that game's kernel functions and of the
bots' own compiled code specialised for it: the greedy bot's scoring of children
(:mod:`boardlab.ai.greedy_template`), the alpha-beta search (:mod:`boardlab.ai.search_template`)
and the UCT search (:mod:`boardlab.ai.mcts_template`). Each bot here is one function of the same
signature, the batched step's ``decide``: it decides for the seat to move in ``s`` (not over,
its ``n`` legal ids in ``moves``), drawing from game ``i``'s generator ``rng[i]``, with scratch
``work`` (``int64``), ``fwork`` (``float64``) and ``work32`` (``int32``) whose first
:data:`HEAD` numbers are its settings (:mod:`boardlab.rl.opponents` lays them out).

Each decision is the bot's own search from fresh tables: the same compiled functions, the same
budgets (nodes, depth, simulations; never a clock), the root order shuffled and the root noise
drawn from the game's xorshift64* generator instead of the bot's Mersenne Twister.
"""

from __future__ import annotations

import numpy as np

from boardlab.ai.mcts_template import (
    ACTION,
    CHILD,
    COLUMNS,
    META,
    MOVER,
    RANDOM,
    SIBLING,
    STORED,
    UNTRIED,
    VISITS,
)
from boardlab.ai.mcts_template import SIZE as TREE_SIZE
from boardlab.ai.search_template import MAX_PLY, WIN
from boardlab.core.engine import KernelArray
from boardlab.core.jit import numba
from boardlab.core.kernel_random import below, next_state, seeded

# -- kernel --


def legal(p: KernelArray, s: KernelArray, out: KernelArray) -> int:
    """Placeholder for the game's ``legal``."""
    raise NotImplementedError


def player(p: KernelArray, s: KernelArray) -> int:
    """Placeholder for the game's ``player``."""
    raise NotImplementedError


def child_scores(
    p: KernelArray,
    s: KernelArray,
    actions: KernelArray,
    seat: int,
    rewards: KernelArray,
    out: KernelArray,
) -> None:
    """Placeholder for the greedy bot's compiled scoring (:mod:`boardlab.ai.greedy_template`)."""
    raise NotImplementedError


def search(
    p: KernelArray,
    s: KernelArray,
    depth: int,
    root_moves: KernelArray,
    jitter: KernelArray,
    deadline: float,
    node_limit: int,
    pvs: bool,
    max_legal: int,
    num_players: int,
    tt_key: KernelArray,
    tt_move: KernelArray,
    tt_info: KernelArray,
    tt_value: KernelArray,
    killers: KernelArray,
    history: KernelArray,
    out: KernelArray,
) -> bool:
    """Placeholder for one iteration of the compiled alpha-beta
    (:mod:`boardlab.ai.search_template`)."""
    raise NotImplementedError


def tree_search(
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
    """Placeholder for the compiled UCT simulations (:mod:`boardlab.ai.mcts_template`)."""
    raise NotImplementedError


def winning_action(
    p: KernelArray, s: KernelArray, work: KernelArray, moves: KernelArray, rewards: KernelArray
) -> int:
    """Placeholder for the UCT bot's win-at-once check (:mod:`boardlab.ai.mcts_template`)."""
    raise NotImplementedError


# -- end kernel --

HEAD = 8
"""Settings at the start of ``work`` and ``fwork``; the bot's scratch follows."""
BUDGET, DEPTH, TABLE, ACTIONS, MAX_LEGAL, SEATS, UNTRIED_SIZE, STATE_SIZE = range(HEAD)
"""``work[...]``: the node cap (alpha-beta) or simulations (UCT), the depth cap (alpha-beta)
or rollout length (UCT), the table's entries (alpha-beta) or tree's rows (UCT), the game's
action ids, its most legal ids, its seats, the UCT's stored actions, the kernel state's size."""
NOISE = 0
"""``fwork[NOISE]``: the root noise (greedy, alpha-beta) or the exploration constant (UCT)."""
PATH = 1024
"""The UCT's longest path (as :data:`boardlab.ai.mcts_compiled._PATH`)."""
SEED_BITS = (1 << 62) - 1
"""A UCT decision seeds its generator with this many bits of a draw (the bot's
``getrandbits(62)``)."""
_UNIT = 1 << 31


@numba.njit(cache=True, inline="always")
def _draw(rng: KernelArray, i: int) -> int:
    """The next state of game ``i``'s generator (stored back)."""
    x: int = next_state(rng[i])
    rng[i] = x
    return x


@numba.njit(cache=True)
def _shuffle(rng: KernelArray, i: int, moves: KernelArray, n: int) -> None:
    """Fisher-Yates over ``moves[:n]`` with game ``i``'s generator."""
    for k in range(n - 1, 0, -1):
        j = below(_draw(rng, i), k + 1)
        moves[k], moves[j] = moves[j], moves[k]


@numba.njit(cache=True)
def _jitter(rng: KernelArray, i: int, noise: float, out: KernelArray, n: int) -> None:
    """A uniform draw in ``[-noise, noise)`` per root move (zeros without noise, no draw)."""
    for k in range(n):
        out[k] = noise * (2.0 * below(_draw(rng, i), _UNIT) / _UNIT - 1.0) if noise else 0.0


@numba.njit(cache=True)
def uniform(
    p: KernelArray,
    s: KernelArray,
    rng: KernelArray,
    i: int,
    moves: KernelArray,
    n: int,
    work: KernelArray,
    fwork: KernelArray,
    work32: KernelArray,
) -> int:
    """A uniformly random legal id (the ``random`` bot)."""
    action: int = moves[below(_draw(rng, i), n)]
    return action


@numba.njit(cache=True)
def greedy(
    p: KernelArray,
    s: KernelArray,
    rng: KernelArray,
    i: int,
    moves: KernelArray,
    n: int,
    work: KernelArray,
    fwork: KernelArray,
    work32: KernelArray,
) -> int:
    """The greedy bot (:class:`boardlab.ai.greedy.GreedyBot`): the shuffled legal ids' children
    scored by the game's evaluation, plus the noise drawn per id in that order; the first best."""
    _shuffle(rng, i, moves, n)
    seats = work[SEATS]
    scores = fwork[HEAD : HEAD + n]
    jitter = fwork[HEAD + work[MAX_LEGAL] : HEAD + work[MAX_LEGAL] + n]
    rewards = fwork[HEAD + 2 * work[MAX_LEGAL] : HEAD + 2 * work[MAX_LEGAL] + seats]
    child_scores(p, s, moves[:n], player(p, s), rewards, scores)
    _jitter(rng, i, fwork[NOISE], jitter, n)
    best, best_score = moves[0], -np.inf
    for k in range(n):
        score = scores[k] + jitter[k]
        if score > best_score:
            best, best_score = moves[k], score
    chosen: int = best
    return chosen


@numba.njit(cache=True)
def alphabeta(
    p: KernelArray,
    s: KernelArray,
    rng: KernelArray,
    i: int,
    moves: KernelArray,
    n: int,
    work: KernelArray,
    fwork: KernelArray,
    work32: KernelArray,
) -> int:
    """The alpha-beta bot (:class:`boardlab.ai.alphabeta.AlphaBetaBot`) on its first decision:
    iterative deepening over the shuffled legal ids with their root noise, from cleared tables,
    up to the depth and node caps (as :meth:`boardlab.ai.search.CompiledSearch.run`)."""
    if n == 1:
        only: int = moves[0]
        return only
    _shuffle(rng, i, moves, n)
    size, actions, most = work[TABLE], work[ACTIONS], work[MAX_LEGAL]
    at = HEAD
    tt_key = work[at : at + size]
    tt_move = work[at + size : at + 2 * size]
    tt_info = work[at + 2 * size : at + 3 * size]
    at += 3 * size
    killers = work[at : at + 2 * (MAX_PLY + 1)].reshape((MAX_PLY + 1, 2))
    history = work[at + 2 * (MAX_PLY + 1) : at + 2 * (MAX_PLY + 1) + actions]
    at += 2 * (MAX_PLY + 1) + actions
    order = work[at : at + n]
    tt_value = fwork[HEAD : HEAD + size]
    noise = fwork[HEAD + size : HEAD + size + n]
    out = fwork[HEAD + size + most : HEAD + size + most + 3]
    tt_info[:] = 0
    killers[:] = -1
    history[:] = 0
    order[:] = moves[:n]
    _jitter(rng, i, fwork[NOISE], noise, n)
    best: int = order[0]
    visited = 0
    for depth in range(1, min(work[DEPTH], MAX_PLY - 1) + 1):
        limit = 0
        if work[BUDGET] > 0:
            limit = work[BUDGET] - visited
            if limit <= 0:
                break
        finished = search(
            p, s, depth, order, noise, 0.0, limit, True, most, work[SEATS],
            tt_key, tt_move, tt_info, tt_value, killers, history, out,
        )  # fmt: skip
        found, value = int(out[0]), out[1]
        visited += int(out[2])
        if not finished:
            if found >= 0:  # the previous best, or a move that beat it at this depth
                best = found
            break
        best = found
        for k in range(n):  # the best move first lets the next iteration cut early
            if order[k] == found:
                order[0], order[k] = order[k], order[0]
                noise[0], noise[k] = noise[k], noise[0]
                break
        if abs(value) > WIN / 2:
            break
    return best


@numba.njit(cache=True)
def mcts(
    p: KernelArray,
    s: KernelArray,
    rng: KernelArray,
    i: int,
    moves: KernelArray,
    n: int,
    work: KernelArray,
    fwork: KernelArray,
    work32: KernelArray,
) -> int:
    """The UCT bot (:class:`boardlab.ai.mcts.MctsBot`) on its first decision: a win at once if
    there is one, else its simulations from a new tree seeded by one draw; the most visited
    root child (ties: the higher reward sum, then the first opened)."""
    rows, seats, size = work[TABLE], work[SEATS], work[STATE_SIZE]
    at = HEAD
    meta = work[at : at + META]
    path = work[at + META : at + META + PATH]
    at += META + PATH
    state = work[at : at + size]
    scratch = work[at + size : at + size + work[MAX_LEGAL]]
    nodes = work32[: rows * COLUMNS].reshape((rows, COLUMNS))
    untried = work32[rows * COLUMNS : rows * COLUMNS + work[UNTRIED_SIZE]]
    values = fwork[HEAD : HEAD + rows * seats].reshape((rows, seats))
    rewards = fwork[HEAD + rows * seats : HEAD + rows * seats + seats]
    win = winning_action(p, s, state, scratch, rewards)
    if win >= 0:
        return win
    if n == 1:
        only: int = moves[0]
        return only
    nodes[0, :] = -1  # as CompiledTree._reset: no child, not expanded, the root
    nodes[0, UNTRIED] = 0
    nodes[0, VISITS] = 0
    values[0, :] = 0.0
    meta[TREE_SIZE] = 1
    meta[STORED] = 0
    meta[RANDOM] = seeded(_draw(rng, i) & SEED_BITS)
    tree_search(
        p, s, nodes, values, untried, meta, path, state, scratch, rewards,
        work[BUDGET], fwork[NOISE], work[DEPTH], True,
    )  # fmt: skip
    best, best_visits, best_value = -1, -1, -np.inf
    child = nodes[0, CHILD]
    while child >= 0:  # the last opened first: ties go to the one opened first
        visits = nodes[child, VISITS]
        value = values[child, nodes[child, MOVER]]
        if visits > best_visits or (visits == best_visits and value >= best_value):
            best, best_visits, best_value = nodes[child, ACTION], visits, value
        child = nodes[child, SIBLING]
    chosen: int = best
    return chosen
