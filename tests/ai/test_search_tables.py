"""The compiled alpha-beta with what it keeps between searches (``ai/search_template.py``): a
warm transposition table, killers and history change the work, never the value; a win's
distance survives the table; a deadline stops an iteration at the first check past it.

Small positions and shallow depths, so that the file also runs quickly as plain Python
(``NUMBA_DISABLE_JIT=1``), which is how the mutation script runs it (docs/testing.md).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba")

import boardlab
from boardlab.ai.search import WIN, CompiledSearch, compiled_search
from boardlab.core.state import State
from tests.ai.test_search import FORCED_WINS, _kernel_minimax, _random_positions

GAME = boardlab.make("murus-gallicus")
CHECK_EVERY = 1024
"""The search reads the clock each time its node count is a multiple of this."""


def _search(table_bits: int = 16) -> CompiledSearch:
    search = compiled_search(GAME, table_bits)
    assert search is not None
    return search


def _raw(
    search: CompiledSearch, state: State, depth: int, pvs: bool = True, deadline: float = 0.0
) -> tuple[bool, int, float, int]:
    """One iteration of ``depth`` straight on the compiled function, tables as they are, until
    ``deadline`` (if positive): (finished, best move, value, nodes)."""
    moves = np.array(state.legal_actions(), dtype=np.int64)
    encoded = search.kernel.encode(state)
    finished = search.iterate(encoded, depth, moves, np.zeros(len(moves)), deadline, 0, pvs)
    out = search._out
    return bool(finished), int(out[0]), float(out[1]), int(out[2])


def _by_root_player(states: list[State]) -> dict[int, list[State]]:
    found: dict[int, list[State]] = {}
    for state in states:
        found.setdefault(state.current_player, []).append(state)
    return found


@pytest.mark.parametrize("pvs", [True, False])
@pytest.mark.parametrize("table_bits", [16, 3])
def test_a_warm_table_keeps_every_depth_and_every_position_exact(
    pvs: bool, table_bits: int
) -> None:
    """One searcher per root player, never cleared, searching position after position at
    depths 1 to 3 (a table of 8 slots keeps overwriting its entries): each value is the plain
    minimax value, and the move it names has that value."""
    positions = _random_positions(GAME, 31, 10)
    for root, states in _by_root_player(positions).items():
        search = _search(table_bits)
        for state in states:
            s = search.kernel.encode(state)
            moves = state.legal_actions()
            for depth in (1, 2, 3):
                result = search.run(s, moves, [0.0] * len(moves), depth, None, None, pvs=pvs)
                where = (state.position_text(), depth)
                # A forced result ends the deepening: it is exact at the depth that found it.
                assert result.depth == depth or abs(result.value) > WIN / 2, where
                reached = result.depth
                expected = _kernel_minimax(search, s, reached, root, 0)
                assert result.value == pytest.approx(expected, abs=1e-9), where
                child = s.copy()
                search.kernel.apply(search.kernel.params, child, result.best)
                chosen = _kernel_minimax(search, child, reached - 1, root, 1)
                assert chosen == pytest.approx(expected, abs=1e-9), where


@pytest.mark.parametrize("text", sorted(FORCED_WINS))
@pytest.mark.parametrize("pvs", [True, False])
def test_a_win_in_three_keeps_its_distance_at_every_depth(text: str, pvs: bool) -> None:
    """Past the depth that finds it, the win is still three decisions away: deeper
    iterations read the table's entries for the win at other plies than they were stored at."""
    state = GAME.state_from_text(text)
    search = _search()
    for depth in (3, 4, 5):
        finished, best, value, _ = _raw(search, state, depth, pvs)
        assert finished
        assert value == WIN - 3, depth
        assert state.action_to_str(best) == FORCED_WINS[text], depth


@pytest.mark.parametrize("text", sorted(FORCED_WINS))
def test_the_loser_sees_the_same_distance_from_a_cold_and_a_warm_table(text: str) -> None:
    state = GAME.state_from_text(text)
    state.play(FORCED_WINS[text])
    search = _search()
    values = [_raw(search, state, depth)[2] for depth in (2, 3, 4, 2)]
    assert values == [-(WIN - 2)] * 4


def test_a_deadline_passed_stops_the_iteration_at_the_first_check() -> None:
    finished, _, _, nodes = _raw(_search(), GAME.new_initial_state(), 4, deadline=1e-9)
    assert not finished
    assert nodes == CHECK_EVERY


@pytest.mark.parametrize("pvs", [True, False])
def test_searching_a_position_again_reads_every_root_move_from_the_table(pvs: bool) -> None:
    """The second search of a position at the same depth enters each root move once (or
    twice, with principal-variation search, when its null window fails and it is searched
    again): its entry, stored by the first search, settles it without a move below it."""
    search = _search()
    for state in _random_positions(GAME, 41, 4):
        search.clear()
        first = _raw(search, state, 3, pvs)
        again = _raw(search, state, 3, pvs)
        moves = len(state.legal_actions())
        assert first[3] > 2 * moves
        assert again[:3] == first[:3]
        if pvs:
            assert moves <= again[3] <= 2 * moves, state.position_text()
        else:
            assert again[3] == moves, state.position_text()


@pytest.mark.parametrize("text", sorted(FORCED_WINS))
def test_a_win_read_from_the_table_deeper_in_the_tree_keeps_its_distance(text: str) -> None:
    """A win found first from each position two decisions on (one decision away there) is
    three decisions away from the position before: the table's entries are read at ply 2."""
    state = GAME.state_from_text(text)
    forced = state.clone()
    forced.play(FORCED_WINS[text])
    search = _search()
    for reply in forced.legal_actions():
        assert _raw(search, forced.child(reply), 1)[2] == WIN - 1
    finished, best, value, _ = _raw(search, state, 3)
    assert finished and value == WIN - 3
    assert state.action_to_str(best) == FORCED_WINS[text]


def test_root_jitter_over_a_warm_table_still_picks_the_best_value_plus_jitter() -> None:
    """Jitter moves each root move's window, so entries stored as bounds under one window are
    read under others: the choice is still the argmax of value + jitter, and the value the
    chosen move's own."""
    rng = random.Random(5)
    for root, states in _by_root_player(_random_positions(GAME, 43, 6)).items():
        search = _search(10)
        for state in states:
            s = search.kernel.encode(state)
            moves = state.legal_actions()
            for depth in (2, 3):
                values = []
                for action in moves:
                    child = s.copy()
                    search.kernel.apply(search.kernel.params, child, action)
                    values.append(_kernel_minimax(search, child, depth - 1, root, 1))
                for _ in range(4):
                    jitter = [rng.uniform(0.0, 0.3) for _ in moves]
                    result = search.run(s, moves, jitter, depth, None, None)
                    if abs(result.value) > WIN / 2:
                        continue  # a forced result ends the deepening before this depth
                    top = max(v + j for v, j in zip(values, jitter, strict=True))
                    chosen = moves.index(result.best)
                    assert values[chosen] + jitter[chosen] == pytest.approx(top, abs=1e-9)
                    assert result.value == pytest.approx(values[chosen], abs=1e-9)


@pytest.mark.parametrize("text", sorted(FORCED_WINS))
def test_a_win_searched_again_at_the_same_depth_is_read_from_the_table_at_its_distance(
    text: str,
) -> None:
    """The second search of a forced win at the same depth reads its root moves' entries,
    stored one decision down: the win is still three decisions away."""
    state = GAME.state_from_text(text)
    search = _search()
    first = _raw(search, state, 3)
    again = _raw(search, state, 3)
    assert first[0] and again[0]
    assert first[2] == again[2] == WIN - 3
    assert state.action_to_str(again[1]) == FORCED_WINS[text]
    assert again[3] < first[3]
