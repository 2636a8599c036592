"""Perft and divide over the protocol, checked against a naive second count."""

from __future__ import annotations

import pytest

import boardlab
from boardlab.core.perft import divide, perft
from boardlab.core.state import State


def naive_leaves(state: State, depth: int) -> int:
    """Leaves counted by playing every decision down to depth 0 (no bulk counting)."""
    if depth == 0:
        return 1
    return sum(naive_leaves(state.child(a), depth - 1) for a in state.legal_actions())


def test_murus_gallicus_counts_from_the_start() -> None:
    state = boardlab.make("murus-gallicus").new_initial_state()
    before = state.position_text()
    assert [perft(state, depth) for depth in range(4)] == [1, 20, 400, 6960]
    assert naive_leaves(state, 3) == 6960
    assert state.position_text() == before


def test_divide_splits_the_count_by_first_decision() -> None:
    state = boardlab.make("murus-gallicus").new_initial_state()
    split = divide(state, 3)
    assert [move for move, _ in split] == state.legal_moves()
    assert sum(count for _, count in split) == perft(state, 3)
    assert dict(split)["d1-d3"] == perft(state.child(state.parse_action("d1-d3")), 2)


def test_a_finished_game_has_no_leaves() -> None:
    # Murus Gallicus spec, Test fact 7: the Gauls are stalemated.
    state = boardlab.make("murus-gallicus").state_from_text("8/8/8/8/3r4/8/8 G 11")
    assert state.is_terminal()
    assert perft(state, 0) == 1
    assert [perft(state, depth) for depth in (1, 2, 3)] == [0, 0, 0]
    assert divide(state, 2) == []


def test_divide_needs_depth_one() -> None:
    state = boardlab.make("murus-gallicus").new_initial_state()
    with pytest.raises(ValueError, match="at least 1"):
        divide(state, 0)
