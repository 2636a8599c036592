"""Protocol checks for Colosseum Offcuts: conformance, perft, action ids, property tests."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.core.conformance import run_conformance
from boardlab.core.errors import BoardlabError
from boardlab.core.perft import perft
from boardlab.core.registry import make

GAME_ID = "colosseum-offcuts"
AFTER_SETUP = "2 -1,-1=1f/-1,0=1b/-1,1=1f/0,0=1b/1,0=2b/2,-1=2f/2,0=2b/2,1=2f 1 - 0 0 8"


@pytest.mark.parametrize(
    ("options", "playouts"),
    [
        ({"players": 2}, 4),
        ({"players": 3}, 3),
        ({"players": 4}, 2),
        ({"players": 5}, 1),
        ({"players": 3, "connectivity_check": "final"}, 2),
        ({"players": 3, "exposed_edges_measured": "before"}, 2),
        ({"players": 3, "mobile_move": "slide"}, 2),
        ({"players": 3, "draw_ranking": "fortifications"}, 2),
    ],
)
def test_conformance(options: dict[str, object], playouts: int) -> None:
    """The shared harness, per player count and per option that changes the rules."""
    endings = run_conformance(make(GAME_ID, **options), playouts, seed=11)
    assert sum(endings.values()) == playouts


def test_perft_after_setup() -> None:
    """Perft from the first position after the setup of fact 2, two players.

    Depth 1 is the 26 actions of fact 3. At depth 2, the 4 flips were counted by hand: after
    f-1,-1 (or f-1,1) P1 has 4 flips, the 11 Mobile moves of the other Fortification and 2
    Attack moves (a climb onto -1,0 and a step to 0,-1): 17 each; after f-1,0 (or f0,0) the
    flipped Board Piece is a cut cell with no Attack move, leaving 4 flips + 2 x 11 Mobile
    moves: 26 each, 86 in all. The 22 Mobile branches add 546, a figure checked against the
    literal reference generator of ``test_colosseum_reference.py``.
    """
    position = make(GAME_ID).state_from_text(AFTER_SETUP)
    assert perft(position, 1) == 26
    assert perft(position, 2) == 632
    flips = sum(
        len(position.child(a).legal_actions())
        for a in position.legal_actions()
        if position.action_to_str(a).startswith("f")
    )
    assert flips == 86


def test_action_ids_are_translation_invariant() -> None:
    """Action ids are relative to the footprint: shifting every counter keeps them."""
    game = make(GAME_ID)
    here = game.state_from_text("2 0,0=2f/1,0=1b/2,0=1f 1 - 0 0 20")
    there = game.state_from_text("2 100,-7=2f/101,-7=1b/102,-7=1f 1 - 0 0 20")
    assert here.legal_actions() == there.legal_actions()
    assert game.num_actions == 6 * 100 + 100 * 100 + 1
    assert make(GAME_ID, players=5).num_actions == 6 * 484 + 484 * 484 + 1


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="0123456789-,=/ bBfF-s+x", max_size=40))
def test_position_text_fuzz(text: str) -> None:
    """§11: any text parses to a state that formats back to it, or raises a typed error."""
    game = make(GAME_ID)
    try:
        position = game.state_from_text(text)
    except BoardlabError:
        return
    assert position.position_text() == text


_cell = st.tuples(st.integers(-5, 5), st.integers(-5, 5)).map(lambda c: f"{c[0]},{c[1]}")


@settings(max_examples=150, deadline=None)
@given(
    st.one_of(
        st.text(alphabet="0123456789-,:@BFmafpsx", max_size=16),
        st.builds(lambda a, b: f"m{a}:{b}", _cell, _cell),
        st.builds(lambda a, b, x: f"a{a}:{b}{x}", _cell, _cell, st.sampled_from(["", "x"])),
        st.builds(lambda a: f"f{a}", _cell),
    )
)
def test_parse_action_fuzz(text: str) -> None:
    """§10: a decision string is parsed to a legal id that formats back, or a typed error."""
    position = make(GAME_ID).state_from_text(AFTER_SETUP)
    try:
        action = position.parse_action(text)
    except BoardlabError:
        return
    assert position.action_to_str(action) == text


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000))
def test_reached_positions_round_trip(seed: int) -> None:
    """§11: positions reached in play format, parse and format back identically."""
    import random

    rng = random.Random(seed)
    game = make(GAME_ID, players=rng.randint(2, 5))
    position = game.new_initial_state()
    for _ in range(rng.randint(0, 60)):
        if position.is_terminal():
            break
        position.apply_action(rng.choice(position.legal_actions()))
        text = position.position_text()
        assert game.state_from_text(text).position_text() == text
