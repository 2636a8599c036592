"""The compiled alpha-beta's table keeps what a cut-off node showed as a bound, not a value
(``ai/search_template.py``): a node refuted by a reply that only ties the best so far is at
most that good, and a later search that asks more of it searches it again.

Two-decision searches of Murus Gallicus positions, run straight on the compiled function with
windows set by the root jitter, and compared with the plain minimax values; small enough to
run quickly as plain Python (``NUMBA_DISABLE_JIT=1``), as the mutation script runs them.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

import boardlab
from boardlab.ai.search import CompiledSearch, compiled_search
from boardlab.core.engine import KernelArray
from tests.ai.test_search import _kernel_minimax, _random_positions

GAME = boardlab.make("murus-gallicus")


def _search_once(
    search: CompiledSearch, s: KernelArray, depth: int, moves: list[int], jitter: list[float]
) -> tuple[int, float]:
    """One iteration on the compiled function, tables as they are: (best move, its value)."""
    kernel = search.kernel
    finished = search._search(
        kernel.params,
        s,
        depth,
        np.array(moves, dtype=np.int64),
        np.array(jitter, dtype=np.float64),
        0.0,
        0,
        True,
        kernel.max_legal,
        kernel.game.num_players,
        search._tt_key,
        search._tt_move,
        search._tt_info,
        search._tt_value,
        search._killers,
        search._history,
        search._out,
    )
    assert finished
    return int(search._out[0]), float(search._out[1])


def _shift_to(value: float, target: float) -> float | None:
    """A jitter that brings ``value`` to exactly ``target`` in floating point, if one is near."""
    shift = target - value
    for _ in range(4):
        if value + shift == target:
            return shift
        shift = float(np.nextafter(shift, np.inf if value + shift < target else -np.inf))
    return None


def test_a_move_refuted_by_a_reply_that_ties_the_best_so_far_is_not_valued_at_the_tie() -> None:
    """A move whose first reply is worth exactly the best so far is cut off there, though a
    later reply is worse for the root player: its entry is an upper bound. Searched first
    afterwards, with jitter that favours it unless it is worse than that reply, it is searched
    again and not chosen; had the entry been taken as its value, it would have been."""
    search = compiled_search(GAME)
    assert search is not None
    kernel = search.kernel
    p = kernel.params
    buffer = np.empty(kernel.max_legal, dtype=np.int64)
    tried = 0
    for state in _random_positions(GAME, 38, 8):
        s = kernel.encode(state)
        root = state.current_player
        moves = state.legal_actions()
        values = {}
        first_reply = {}
        for move in moves:
            child = s.copy()
            kernel.apply(p, child, move)
            values[move] = _kernel_minimax(search, child, 1, root, 1)
            if kernel.is_over(p, child):
                continue
            # Cold tables score every reply alike: the first generated is searched first.
            kernel.legal(p, child, buffer)
            kernel.apply(p, child, buffer[0])
            first_reply[move] = _kernel_minimax(search, child, 0, root, 2)
        for move, tie in first_reply.items():
            if values[move] >= tie:
                continue  # its first reply is its best: the bound is its value
            others = [m for m in moves if m != move]
            best_other = max(values[m] for m in others)
            opener = others[0]
            shift = _shift_to(values[opener], tie)
            if shift is None:
                continue
            # The first search: the opener with jitter is worth exactly ``tie``, so the move's
            # first reply ties the best so far and refutes it.
            search.clear()
            _search_once(search, s, 2, [opener, move, *others[1:]], [shift] + [0.0] * len(others))
            # The second: the move first, favoured by a jitter between the two readings.
            favour = best_other - (tie + values[move]) / 2
            assert values[move] + favour < best_other < tie + favour
            best, value = _search_once(
                search, s, 2, [move, *others], [favour] + [0.0] * len(others)
            )
            where = state.position_text()
            assert best != move, where
            assert values[best] == best_other, where
            assert value == best_other, where
            tried += 1
            break  # one such move per position
    assert tried >= 4
