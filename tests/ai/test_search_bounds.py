"""The compiled alpha-beta's table keeps what a cut-off node showed as a bound, not a value
(``ai/search_template.py``): a node refuted by a reply that only ties the best so far is at
most that good, and a node cut off by a move good enough is at least that good; a later
search that asks more of either searches it again.

Searches of two and three decisions on Murus Gallicus positions, run straight on the compiled
function with windows set by the root jitter, and compared with the plain minimax values;
small enough to run quickly as plain Python (``NUMBA_DISABLE_JIT=1``), as the mutation script
runs them. The three-decision searches start from two positions that share their
grandchildren, as a table kept between decisions meets them: in a three-decision search from
one position, a node two decisions down has one parent, and the bound it was cut off with never
lies below that parent's value, so reading the bound on the wrong side changes no result.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

import boardlab
from boardlab.ai import search_template
from boardlab.ai.search import CompiledSearch, compiled_search
from boardlab.core.engine import KernelArray
from tests.ai.test_search import _kernel_minimax, _random_positions

GAME = boardlab.make("murus-gallicus")


def _search_once(
    search: CompiledSearch, s: KernelArray, depth: int, moves: list[int], jitter: list[float]
) -> tuple[int, float]:
    """One iteration on the compiled function, tables as they are: (best move, its value)."""
    order = np.array(moves, dtype=np.int64)
    finished = search.iterate(s, depth, order, np.array(jitter, dtype=np.float64), 0.0, 0, True)
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


def _entry(search: CompiledSearch, s: KernelArray) -> tuple[int, int, float] | None:
    """The table's entry for ``s``: (depth, bound, value as stored), or None."""
    k = search.kernel.key(search.kernel.params, s)
    slot = k & (len(search._tt_key) - 1)
    info = int(search._tt_info[slot]) - 1
    if info < 0 or search._tt_key[slot] != k:
        return None
    return info >> 2, info & 3, float(search._tt_value[slot])


def _legal(search: CompiledSearch, s: KernelArray) -> list[int]:
    kernel = search.kernel
    buffer = np.empty(kernel.max_legal, dtype=np.int64)
    return [int(m) for m in buffer[: kernel.legal(kernel.params, s, buffer)]]


# A position, a move of the side to move, two replies of the other side that give one
# position whichever is played first, and a move of the first side in between.
SHARED_GRANDCHILDREN = [
    ("1G3G2/gggg2G1/Ggg2gg1/8/rrrr1r1r/rr1rrrr1/4R2R G 13", "a5-c7", "e1-e3", "h1-f1", "b6-d4"),
    ("gg2g3/ggG3gg/gr2Gggg/rr2g3/1rr3Rr/2rRr3/R4rr1 G 25", "e5-e7", "a1-a3", "d2-f4", "e7-g7"),
    ("G3G1GG/2Gg2g1/2gG3g/8/1Rr1r3/1rR1r3/R4RRR R 8", "f1-f3", "c6-e6", "d5-f7", "g1-g3"),
    # Cut off by a move worth exactly its parent's best so far: a lower bound all the same.
    ("4G3/ggG2ggg/gGgr1ggg/r2r4/1rr1r2r/1r1r2r1/R5RR G 15", "b5-b7", "h1-h3", "a1-c1", "c6-e6"),
]


@pytest.mark.parametrize(("text", "move", "reply", "other", "again"), SHARED_GRANDCHILDREN)
def test_a_lower_bound_left_by_one_search_is_not_read_as_an_upper_bound_by_the_next(
    text: str, move: str, reply: str, other: str, again: str
) -> None:
    """After ``move``, the opponent's ``reply`` and ``other`` lead to two positions that share
    the one reached by ``again`` and the other reply. Searched from the first, that shared
    position is cut off by its first move good enough there: its entry is a lower bound, below
    its value. Searched next from the second, under ``again``, whose value is above that bound,
    with jitter that sets the best so far between the bound and both values: the bound says
    nothing there, so the shared position is searched again, and ``again`` is the best move
    with its own value. Had the bound been read as an upper one, ``again`` would have been cut
    off below the best so far."""
    search = compiled_search(GAME)
    assert search is not None
    kernel = search.kernel
    after = GAME.state_from_text(text)
    root = after.current_player
    after.play(move)
    first, second = after.clone(), after.clone()
    first.play(reply)
    second.play(other)
    s1, s2 = kernel.encode(first), kernel.encode(second)
    shared = first.clone()
    shared.play(again)
    shared.play(other)
    later = second.clone()
    later.play(again)
    s_later = kernel.encode(later)
    later.play(reply)
    assert later.position_text() == shared.position_text()
    s_shared = kernel.encode(shared)

    search.clear()
    moves = _legal(search, s1)  # in the kernel's order, which orders the search's replies too
    _search_once(search, s1, 3, moves, [0.0] * len(moves))
    entry = _entry(search, s_shared)
    assert entry is not None
    depth, bound, stored = entry
    value_shared = _kernel_minimax(search, s_shared, 1, root, 2)
    assert (depth, bound) == (1, search_template.LOWER)
    assert stored < value_shared
    value_later = _kernel_minimax(search, s_later, 2, root, 1)
    assert value_later > stored

    moves = _legal(search, s2)
    chosen = second.parse_turn(again)[0]
    opener = next(m for m in moves if m != chosen)
    value_opener = _kernel_minimax(search, kernel.encode(second.child(opener)), 2, root, 1)
    top = (stored + min(value_shared, value_later)) / 2
    rest = [m for m in moves if m not in (opener, chosen)]
    # The other moves are pushed far down: only the opener and ``again`` compete.
    jitter = [top - value_opener, 0.0] + [-10.0] * len(rest)
    best, value = _search_once(search, s2, 3, [opener, chosen, *rest], jitter)
    assert second.action_to_str(best) == again
    assert value == value_later
