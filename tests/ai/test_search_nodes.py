"""What the compiled alpha-beta counts and where it stops (``ai/search_template.py``): a plain
search of depth one enters each of the root's children once, and a node cap stops the search
at exactly that many nodes, so that a budget of N nodes buys N nodes of search."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

import boardlab
from boardlab.ai.search import MAX_DEPTH, compiled_search
from tests.ai.test_search import _kernel_minimax, _random_positions

GAME = boardlab.make("murus-gallicus")


def test_a_plain_search_of_depth_one_enters_each_child_once() -> None:
    search = compiled_search(GAME)
    assert search is not None
    for state in _random_positions(GAME, 21, 6):
        moves = state.legal_actions()
        search.clear()
        s = search.kernel.encode(state)
        result = search.run(s, moves, [0.0] * len(moves), 1, None, None, pvs=False)
        assert result.nodes == len(moves), state.position_text()
        assert result.nodes_by_depth == [result.nodes]


@pytest.mark.parametrize("cap", [7, 40, 301])
def test_a_node_cap_is_spent_to_the_last_node(cap: int) -> None:
    search = compiled_search(GAME)
    assert search is not None
    state = _random_positions(GAME, 4, 1)[0]
    moves = state.legal_actions()
    search.clear()
    result = search.run(search.kernel.encode(state), moves, [0.0] * len(moves), 6, None, cap)
    assert result.nodes == cap


def test_a_cap_of_one_node_stops_at_the_first_node() -> None:
    search = compiled_search(GAME)
    assert search is not None
    state = _random_positions(GAME, 4, 1)[0]
    moves = state.legal_actions()
    search.clear()
    result = search.run(search.kernel.encode(state), moves, [0.0] * len(moves), 2, None, 1)
    assert result.nodes == 1
    assert result.nodes_by_depth == []  # not even the first iteration finished


CYVASSE_LONG_LINE = "3le1/3hh2/1sd4e/5l1s1/9k/11/T1MHS2R1E/5ERSM/1H2CB2/2LK1D1/R3BL N d - 0 1"
"""A Cyvasse position whose first legal move, taken again and again, plays 79 decisions."""


def test_an_iteration_of_the_deepest_depth_fits_the_search_stack() -> None:
    """The driver runs iterations up to ``MAX_DEPTH`` decisions deep. With cold tables every
    move scores alike, so the search's first line takes the first legal move at each ply:
    from this position it is ``MAX_DEPTH`` decisions long without an end, and the search
    enters each of its nodes, the leaf at ply ``MAX_DEPTH`` included, before the cap stops it
    at the first node after."""
    game = boardlab.make("cyvasse", seed=1)
    search = compiled_search(game)
    assert search is not None
    kernel = search.kernel
    p = kernel.params
    s = kernel.encode(game.state_from_text(CYVASSE_LONG_LINE))
    buffer = np.empty(kernel.max_legal, dtype=np.int64)
    root_moves = buffer[: kernel.legal(p, s, buffer)].copy()
    line = s.copy()
    for _ in range(MAX_DEPTH):
        assert kernel.legal(p, line, buffer) > 0
        kernel.apply(p, line, buffer[0])
    search.clear()
    cap = MAX_DEPTH + 1
    finished = search.iterate(s, MAX_DEPTH, root_moves, np.zeros(len(root_moves)), 0.0, cap, True)
    assert not finished
    assert search._out[0] == -1  # no root move finished
    assert search._out[2] == cap


# Anacund positions and a move after which the side to move has one legal move (the
# opponent's only placement, or the mover's own last one of a compound turn).
ONE_MOVE_LEFT = [
    (
        "135265324664266424631153113542152453 31 bBBBBBbBbbBBbbBbbBbBBBb...aaaabb.bbb A 2 100/300",
        "1@25",
    ),
    (
        "135265324664266424631153113542152453 31 ..bbbbbBbaAa.aa..aAa..a.ab..b..bBbaa A 0 510/330",
        "1@1",
    ),
]


@pytest.mark.parametrize(("text", "move"), ONE_MOVE_LEFT)
def test_a_node_with_one_legal_move_is_searched_through_it(text: str, move: str) -> None:
    """A position with a single legal move is a node like any other: two decisions searched
    from the position before it see the evaluation after that move, not where it stands."""
    game = boardlab.make("anacund", seed=1)
    search = compiled_search(game)
    assert search is not None
    kernel = search.kernel
    state = game.state_from_text(text)
    action = state.parse_turn(move)[0]
    after = state.child(action)
    assert len(after.legal_actions()) == 1
    s = kernel.encode(state)
    root = state.current_player
    expected = _kernel_minimax(search, kernel.encode(after), 1, root, 1)
    assert expected != _kernel_minimax(search, kernel.encode(after), 0, root, 1)
    search.clear()
    result = search.run(s, [action], [0.0], 2, None, None)
    assert result.depth == 2
    assert result.value == pytest.approx(expected, abs=1e-12)
