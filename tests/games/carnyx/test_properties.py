"""Property tests: any text is parsed or rejected with the proper typed error; texts round-trip."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import boardlab
from boardlab.core.errors import IllegalMoveError, NotationError, PositionError
from boardlab.games.carnyx import CarnyxState

GAME = boardlab.make("carnyx")
START = "L3L/2(LDD)2/5/5/D4 D 0,10,0/0,10,0 - - - 20"

position_alphabet = st.sampled_from(list("12345DL()/ ,-xp@abcde0"))
notation_alphabet = st.sampled_from(list("@Rabcdef0123456x-offHpas"))


@given(st.text(alphabet=position_alphabet, max_size=50) | st.text(max_size=30))
@settings(max_examples=300, deadline=None)
def test_any_position_text_parses_or_raises_position_error(text: str) -> None:
    try:
        state = GAME.state_from_text(text)
    except PositionError:
        return
    assert state.position_text() == text


@given(st.text(alphabet=notation_alphabet, max_size=10) | st.text(max_size=10))
@settings(max_examples=300, deadline=None)
def test_any_move_text_parses_or_raises_a_typed_error(text: str) -> None:
    state = GAME.state_from_text(START)
    try:
        action = state.parse_action(text)
    except (NotationError, IllegalMoveError):
        return
    assert state.action_to_str(action) == text


@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=0, max_value=80))
@settings(max_examples=40, deadline=None)
def test_reached_positions_and_moves_round_trip(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    state = GAME.new_initial_state()
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    text = state.position_text()
    again = GAME.state_from_text(text)
    assert isinstance(again, CarnyxState)
    assert again.position_text() == text
    for action in state.legal_actions():
        assert state.parse_action(state.action_to_str(action)) == action


@given(st.integers(min_value=0, max_value=len(START) - 1), position_alphabet)
@settings(max_examples=300, deadline=None)
def test_one_character_changes_parse_canonically_or_raise(index: int, char: str) -> None:
    text = START[:index] + char + START[index + 1 :]
    try:
        state = GAME.state_from_text(text)
    except PositionError:
        return
    assert state.position_text() == text
