"""The source of the compiled alpha-beta search that runs on any game's kernel and evaluation.

Written once per game by :func:`boardlab.core.kernel_drivers.specialised`, with the block
between the ``kernel`` markers replaced by imports of that game's kernel functions and its
``kernel_eval.evaluate`` (Numba cannot cache a function that receives compiled functions), and
driven by :mod:`boardlab.ai.search`. One call searches one iteration of iterative deepening.

The search is minimax from the root player's point of view (nodes where the root player moves
maximise, the others minimise: compound turns need no special case, and at 3-5 seats it is the
paranoid search), fail-soft alpha-beta with principal-variation search, a fixed-size
transposition table keyed by the kernel's Zobrist key, and move ordering by table move, two
killers per ply and history scores. It is depth-first over an explicit stack of per-ply states
(copy-make into preallocated rows), because Numba's cache loads recursive functions badly.
"""

from __future__ import annotations

import time

import numpy as np

from boardlab.core.engine import KernelArray
from boardlab.core.jit import numba
from boardlab.core.kernel_copy import copy_state

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


def player(p: KernelArray, s: KernelArray) -> int:
    """Placeholder for the game's ``player``."""
    raise NotImplementedError


def key(p: KernelArray, s: KernelArray) -> int:
    """Placeholder for the game's ``key``."""
    raise NotImplementedError


def is_over(p: KernelArray, s: KernelArray) -> bool:
    """Placeholder for the game's ``is_over``."""
    raise NotImplementedError


def evaluate(p: KernelArray, s: KernelArray, seat: int) -> float:
    """Placeholder for the game's ``kernel_eval.evaluate``."""
    raise NotImplementedError


# -- end kernel --

WIN = 100.0  # a won game; a win found sooner scores higher (WIN minus its ply)
_MATE = 50.0  # values beyond this are wins or losses (evaluations lie in [-1, 1])
_INF = 1e9
_EPS = 1e-9  # width of a null window (values are floats)
EXACT, LOWER, UPPER = 0, 1, 2
MAX_PLY = 64
_CHECK_EVERY = 1023  # the clock is read when the node count has these bits clear
_ENTER, _NEXT, _RESULT = 0, 1, 2
_TT_FIRST, _KILLER = 1 << 40, 1 << 38


@numba.njit(cache=True)
def _now() -> float:
    """The process's ``time.perf_counter()`` (Numba has no clock of its own)."""
    with numba.objmode(now="float64"):
        now = time.perf_counter()
    return now


@numba.njit(cache=True)
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
    """Search ``s`` to ``depth`` decisions over ``root_moves`` in that order; True when done.

    ``jitter[i]`` is added to the value of ``root_moves[i]`` (the root-only noise). The
    search stops early when ``perf_counter()`` reaches ``deadline`` (if positive) or after
    ``node_limit`` nodes (if positive). ``out`` gets the best move (or -1 when no root move
    was finished), its value without jitter, and the nodes visited. The table arrays
    (``tt_info`` = depth * 4 + bound + 1, 0 for empty; length a power of two), ``killers``
    (``MAX_PLY`` x 2) and ``history`` (per action id) persist between calls.
    """
    size = s.shape[0]
    states = np.empty((MAX_PLY + 1, size), dtype=np.int64)
    moves = np.empty((MAX_PLY + 1, max_legal), dtype=np.int64)
    scores = np.empty((MAX_PLY + 1, max_legal), dtype=np.int64)
    alpha = np.empty(MAX_PLY + 1)
    beta = np.empty(MAX_PLY + 1)
    alpha0 = np.empty(MAX_PLY + 1)
    beta0 = np.empty(MAX_PLY + 1)
    best = np.empty(MAX_PLY + 1)
    depth_left = np.zeros(MAX_PLY + 1, dtype=np.int64)
    count = np.zeros(MAX_PLY + 1, dtype=np.int64)
    done = np.zeros(MAX_PLY + 1, dtype=np.int64)
    best_move = np.zeros(MAX_PLY + 1, dtype=np.int64)
    maximise = np.zeros(MAX_PLY + 1, dtype=np.bool_)
    null_window = np.zeros(MAX_PLY + 1, dtype=np.bool_)
    rewards = np.zeros(num_players)
    mask = tt_key.shape[0] - 1
    root = player(p, s)

    states[0, :] = s
    n_root = root_moves.shape[0]
    moves[0, :n_root] = root_moves
    count[0] = n_root
    depth_left[0] = depth
    alpha[0] = -_INF
    alpha0[0] = -_INF
    best[0] = -_INF
    beta[0] = _INF
    beta0[0] = _INF
    best_move[0] = -1
    maximise[0] = True
    root_value = 0.0
    nodes = 0
    value = 0.0
    ply = 0
    mode = _NEXT
    while True:
        if mode == _ENTER:
            nodes += 1
            if node_limit > 0 and nodes >= node_limit:
                break
            if deadline > 0 and nodes & _CHECK_EVERY == 0 and _now() >= deadline:
                break
            st = states[ply]
            if is_over(p, st):
                returns(p, st, rewards)
                value = rewards[root] * (WIN - ply)
                ply -= 1
                mode = _RESULT
                continue
            d = depth_left[ply]
            if d <= 0:
                value = evaluate(p, st, root)
                ply -= 1
                mode = _RESULT
                continue
            k = key(p, st)
            slot = k & mask
            tt_best = -1
            info = tt_info[slot] - 1
            if info >= 0 and tt_key[slot] == k:
                tt_best = tt_move[slot]
                if info >> 2 >= d:
                    v = tt_value[slot]
                    if v > _MATE:
                        v -= ply
                    elif v < -_MATE:
                        v += ply
                    bound = info & 3
                    if (
                        bound == EXACT
                        or (bound == LOWER and v >= beta[ply])
                        or (bound == UPPER and v <= alpha[ply])
                    ):
                        value = v
                        ply -= 1
                        mode = _RESULT
                        continue
            n = legal(p, st, moves[ply])
            if n == 0:  # not over yet nothing to play: cannot happen with a sound kernel
                value = evaluate(p, st, root)
                ply -= 1
                mode = _RESULT
                continue
            for i in range(n):
                m = moves[ply, i]
                if m == tt_best:
                    scores[ply, i] = _TT_FIRST
                elif m == killers[ply, 0]:
                    scores[ply, i] = _KILLER + 1
                elif m == killers[ply, 1]:
                    scores[ply, i] = _KILLER
                else:
                    scores[ply, i] = history[m]
            count[ply] = n
            done[ply] = 0
            maximise[ply] = player(p, st) == root
            alpha0[ply] = alpha[ply]
            beta0[ply] = beta[ply]
            best[ply] = -_INF if maximise[ply] else _INF
            best_move[ply] = moves[ply, 0]
            mode = _NEXT
            continue

        if mode == _NEXT:
            i = done[ply]
            if i < count[ply]:
                if ply > 0:  # bring the best-scored remaining move forward (selection sort)
                    top = i
                    for j in range(i + 1, count[ply]):
                        if scores[ply, j] > scores[ply, top]:
                            top = j
                    if top != i:
                        moves[ply, i], moves[ply, top] = moves[ply, top], moves[ply, i]
                        scores[ply, i], scores[ply, top] = scores[ply, top], scores[ply, i]
                done[ply] = i + 1
                child = ply + 1
                copy_state(states[child], states[ply])
                apply(p, states[child], moves[ply, i])
                shift = jitter[i] if ply == 0 else 0.0
                a = alpha[ply] - shift
                b = beta[ply] - shift
                # Later moves first only test whether they beat the best so far.
                null_window[ply] = pvs and i > 0
                if null_window[ply]:
                    if maximise[ply]:
                        b = a + _EPS
                    else:
                        a = b - _EPS
                alpha[child] = a
                beta[child] = b
                depth_left[child] = depth_left[ply] - 1
                ply = child
                mode = _ENTER
                continue
            v = best[ply]
            bound = UPPER if v <= alpha0[ply] else (LOWER if v >= beta0[ply] else EXACT)
            stored = v + ply if v > _MATE else (v - ply if v < -_MATE else v)
            k = key(p, states[ply])
            slot = k & mask
            tt_key[slot] = k
            tt_move[slot] = best_move[ply]
            tt_info[slot] = depth_left[ply] * 4 + bound + 1
            tt_value[slot] = stored
            if ply == 0:
                out[0] = best_move[0]
                out[1] = root_value
                out[2] = nodes
                return True
            value = v
            ply -= 1
            mode = _RESULT
            continue

        # _RESULT: ``value`` is that of the child just searched from ``ply``.
        i = done[ply] - 1
        m = moves[ply, i]
        shift = jitter[i] if ply == 0 else 0.0
        if null_window[ply]:
            a = alpha[ply] - shift
            b = beta[ply] - shift
            if a < value < b:  # it may beat the best: search it again with the full window
                null_window[ply] = False
                child = ply + 1
                alpha[child] = a
                beta[child] = b
                depth_left[child] = depth_left[ply] - 1
                ply = child
                mode = _ENTER
                continue
        value += shift
        if maximise[ply]:
            if value > best[ply]:
                best[ply] = value
                best_move[ply] = m
                if ply == 0:
                    root_value = value - shift
                if value > alpha[ply]:
                    alpha[ply] = value
        elif value < best[ply]:
            best[ply] = value
            best_move[ply] = m
            if value < beta[ply]:
                beta[ply] = value
        if alpha[ply] >= beta[ply]:
            if killers[ply, 0] != m:
                killers[ply, 1] = killers[ply, 0]
                killers[ply, 0] = m
            history[m] += depth_left[ply] * depth_left[ply]
            done[ply] = count[ply]
        mode = _NEXT
    out[0] = best_move[0]
    out[1] = root_value
    out[2] = nodes
    return False
