"""The shared conformance harness, perft counts and property tests for Murus Gallicus."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardlab
from boardlab.core.conformance import run_conformance
from boardlab.core.errors import BoardlabError
from boardlab.core.perft import perft


@pytest.mark.parametrize("board", ["8x7", "8x8", "8x8_two_rows"])
def test_random_playouts_keep_every_invariant(board: str) -> None:
    endings = run_conformance(boardlab.make("murus-gallicus", board=board), playouts=8, seed=7)
    assert sum(endings.values()) == 8


def test_perft_from_the_initial_position() -> None:
    """Depth 1 is the 20 moves of Test fact 1; at depth 2 the Gauls' 20 replies are independent
    of the Romans' first move (no interaction within two rows), so 20 x 20 = 400. Deeper counts
    match the issue's reference (perft 5 = 1,953,664, measured by ``boardlab perft``)."""
    start = boardlab.make("murus-gallicus").new_initial_state()
    assert [perft(start, depth) for depth in (1, 2, 3)] == [20, 400, 6960]


_TEXT = st.text(alphabet="RrGg12345678/ -09", max_size=40)


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_any_position_text_parses_or_raises_a_position_error(text: str) -> None:
    game = boardlab.make("murus-gallicus")
    try:
        position = game.state_from_text(text)
    except BoardlabError:
        return
    assert position.position_text() == text


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="abcdefghi0123456789-x+ ", max_size=8))
def test_any_move_string_parses_or_raises_a_typed_error(text: str) -> None:
    position = boardlab.make("murus-gallicus").new_initial_state()
    try:
        action = position.parse_action(text)
    except BoardlabError:
        return
    assert position.action_to_str(action) == text


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10_000), max_size=30))
def test_reached_positions_round_trip_through_text(choices: list[int]) -> None:
    game = boardlab.make("murus-gallicus")
    position = game.new_initial_state()
    for choice in choices:
        actions = position.legal_actions()
        if not actions:
            break
        position.apply_action(actions[choice % len(actions)])
    assert game.state_from_text(position.position_text()).position_text() == (
        position.position_text()
    )
