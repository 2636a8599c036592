"""What the compiled alpha-beta counts and where it stops (``ai/search_template.py``): a plain
search of depth one enters each of the root's children once, and a node cap stops the search
at exactly that many nodes, so that a budget of N nodes buys N nodes of search."""

from __future__ import annotations

import pytest

pytest.importorskip("numba")

import boardlab
from boardlab.ai.search import compiled_search
from tests.ai.test_search import _random_positions

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
