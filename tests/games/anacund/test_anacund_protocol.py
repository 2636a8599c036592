"""Anacund on the shared protocol: conformance harness, perft counts and property tests."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardlab
from boardlab.core.conformance import run_conformance
from boardlab.core.errors import BoardlabError
from boardlab.core.outcome import Termination
from boardlab.core.state import State
from boardlab.games.anacund import Anacund

# A layout with only values 1 and 2, so the fallback value rule of §6 fires constantly.
SKEWED = "1" * 18 + "2" * 18 + ":5"


@pytest.mark.parametrize(
    "options",
    [
        {"seed": 1},
        {"seed": 2, "track": "open"},
        {"layout": "l0"},
        {"layout": SKEWED, "bonus_points": 0, "tie": "b"},
        {"layout": SKEWED, "bonus_points": 0},
    ],
)
def test_conformance(options: dict[str, object]) -> None:
    """Random playouts with every protocol invariant checked; every game fills the board."""
    endings = run_conformance(boardlab.make("anacund", **options), playouts=15, seed=7)
    assert endings == {Termination.PLACEMENTS_COMPLETE: 15}


def perft(state: State, depth: int) -> int:
    """Leaves at ``depth`` decisions below ``state``."""
    if depth == 0:
        return 1
    return sum(perft(state.child(a), depth - 1) for a in state.legal_actions())


def test_perft_from_l0() -> None:
    """Perft from the L0 start, each placement one ply, counted by hand (§4, §6).

    Depth 1: A's groups are 666, so only the six value-6 squares: 6.
    Depth 2: after 6@s the groups are 665: five value-6 plus six value-5 squares: 6 x 11 = 66.
    Depth 3: after a second 6 (groups 655) five choices lead to 4 sixes + 6 fives = 10 moves;
    after a 5 (groups 664) six choices lead to 5 sixes + 6 fours = 11 moves; only A pieces
    are on the ring, so nothing is captured: 6 x (5 x 10 + 6 x 11) = 696.
    """
    start = boardlab.make("anacund", layout="l0").new_initial_state()
    assert [perft(start, d) for d in range(4)] == [1, 6, 66, 696]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="0123456789@+-ab .", max_size=8))
def test_parse_action_is_typed(text: str) -> None:
    """Any decision text parses to a legal id or raises a BoardlabError."""
    state = boardlab.make("anacund", layout="l0").new_initial_state()
    try:
        action = state.parse_action(text)
    except BoardlabError:
        return
    assert state.action_to_str(action) == text


@st.composite
def near_positions(draw: st.DrawFn) -> str:
    """Texts that are often valid: random squares, sides and groups around real fields."""
    values = draw(st.text(alphabet="123456", min_size=36, max_size=36))
    bonus = draw(st.integers(1, 36))
    squares = draw(st.text(alphabet=".abAB", min_size=36, max_size=36))
    side = draw(st.sampled_from("AB"))
    sub = draw(st.integers(0, 2))
    groups = ["".join(sorted(draw(st.text("0123456", min_size=3, max_size=3)), reverse=True))]
    groups.append("".join(sorted(draw(st.text("0123456", min_size=3, max_size=3)), reverse=True)))
    return f"{values} {bonus} {squares} {side} {sub} {groups[0]}/{groups[1]}"


@settings(max_examples=200, deadline=None)
@given(st.one_of(near_positions(), st.text(max_size=60)))
def test_state_from_text_is_typed_and_round_trips(text: str) -> None:
    """Any text either parses and formats back to itself or raises a BoardlabError."""
    game = Anacund(layout="l0")
    try:
        state = game.state_from_text(text)
    except BoardlabError:
        return
    assert state.position_text() == text
    for move in state.legal_moves():
        assert state.action_to_str(state.parse_action(move)) == move


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**31 - 1), st.lists(st.integers(0, 10**6), min_size=0, max_size=36))
def test_reached_positions_round_trip(seed: int, picks: list[int]) -> None:
    """Every position reached in play round-trips through its text with the same moves."""
    game = Anacund(seed=seed)
    state = game.new_initial_state()
    for pick in picks:
        actions = state.legal_actions()
        if not actions:
            break
        state.apply_action(actions[pick % len(actions)])
    again = game.state_from_text(state.position_text())
    assert again.position_text() == state.position_text()
    assert again.legal_moves() == state.legal_moves()
    assert again.outcome == state.outcome
