"""Rule tests for parts of rules/colosseum-offcuts.md not stated on their own elsewhere.

Each test names its spec section and stands on a position built for it.
"""

from __future__ import annotations

import re

import pytest

from boardlab.core.errors import PositionError
from boardlab.core.outcome import Termination
from boardlab.core.registry import make
from boardlab.games.colosseum_offcuts import ColosseumState
from tests.games.colosseum_offcuts.helpers import state

GAME_ID = "colosseum-offcuts"
CAPTURE = "2 -1,1=1f/0,0=1F/0,1=1b/0,2=1b/1,0=2f/1,1=2b/1,2=2b/2,1=2f 1 - 3 0 30"
"""Fact 6: P1's Attack Fortification on 0,0 can capture P2's Fortification on 1,0."""


# -- §5 turn structure ------------------------------------------------------------------------


def test_s5_the_same_counter_may_act_twice_in_a_turn() -> None:
    """§5: any combination of two actions, e.g. two Mobile moves of one counter."""
    position = state("2 0,0=2f/1,0=1b/2,0=1f 1 - 0 0 20")
    position.play("m2,0:1,1")
    assert position.position_text() == "2 0,0=2f/1,0=1b/1,1=1f 1 m2,0:1,1 0 0 20"
    assert "m1,1:2,0" in position.legal_moves()
    position.play("m1,1:2,0")
    assert position.position_text() == "2 0,0=2f/1,0=1b/2,0=1f 2 - 1 0 21"


# -- §7 counters ------------------------------------------------------------------------------


def test_s7_capture_on_the_second_action_resets_the_no_capture_counter() -> None:
    """§7: the counter keeps 3 mid-turn and becomes 0 because the turn contained a capture."""
    position = state(CAPTURE)
    position.play("f0,2")
    assert position.position_text().endswith(" 1 f0,2 3 0 30")
    position.play("a0,0:1,0x")
    assert position.position_text() == (
        "2 -1,1=1f/0,1=1b/0,2=1B/1,0=1F/1,1=2b/1,2=2b/2,1=2f 2 - 0 0 31"
    )


def test_s7_a_turn_without_pass_resets_the_forced_pass_counter() -> None:
    """§7: the forced-pass counter is 0 after any turn that is not a whole-turn pass."""
    position = state("2 0,0=2f/1,0=1b/2,0=1f 1 - 4 1 20")
    position.play("f2,0+f2,0")
    assert position.position_text() == "2 0,0=2f/1,0=1b/2,0=1f 2 - 5 0 21"


# -- §3 eliminated seats ------------------------------------------------------------------------


def test_s3_eliminated_board_pieces_are_carried() -> None:
    """§3: P2 is out; its Board Piece on top of P1's Mobile counter travels with it."""
    position = state("3 0,0=1f2B/1,0=1b/2,0=3f/3,0=3b 1 - 0 0 50", players=3)
    position.play("m0,0:1,1")
    assert position.cells_text() == "1,0=1b/1,1=1f2B/2,0=3f/3,0=3b"
    assert not [m for m in position.legal_moves() if m.startswith(("f1,1", "a1,1"))]


# -- §9 round of forced passes -----------------------------------------------------------------


def test_s9_a_pass_before_every_other_seat_has_passed_does_not_end_the_game() -> None:
    """§9: P1 and P2 are buried; with three seats in the game, P2's pass after P1's is only
    the second in a row, so the game goes on and P3 moves."""
    buried = "3 0,0=1B1B1F1F2B2B2F2F3B/1,0=3f/2,0=3f 1 - 0 0 70"
    position = state(buried, players=3)
    assert position.legal_moves() == ["pass"]
    position.play("pass")
    assert position.outcome is None
    assert position.legal_moves() == ["pass"]
    position.play("pass")
    assert position.outcome is None
    assert position.position_text() == buried.replace(" 1 - 0 0 70", " 3 - 2 2 72")
    assert position.legal_moves() != ["pass"]


def test_s9_forced_passes_draw_ranked_by_fortifications() -> None:
    """§9 draw_ranking=fortifications also scores a game ended by a round of forced passes."""
    buried = "3 0,0=1B1B1F2B2B2F2F3B/1,0=3B 2 - 0 0 70"
    position = state(buried, players=3, draw_ranking="fortifications")
    position.play("pass")
    assert position.outcome is not None
    assert position.outcome.termination is Termination.FORCED_PASSES
    assert position.outcome.winners == (1,)


# -- §11 position text --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("2 0,0=1b 1 s1 0 0 0", "before this placement P1 has placed 0"),  # s1: empty board
        ("2 - 2 s1 0 0 0", "step s1 is P1's first placement"),
        ("2 0,0=/0,1=2f 1 - 0 0 9", "bad cell entry '0,0='"),  # no empty stack
        ("2 0,0=1f/0,1=2f 1 - 0 0 9 ", "expected 7 fields"),  # trailing space
        ("2 0,0=1b 2 s2 1 0 1", "during setup the no-capture and forced-pass counters are 0"),
        ("2 0,0=1b 2 s2 0 1 1", "during setup the no-capture and forced-pass counters are 0"),
        ("2 0,0=1F/0,1=2b 1 a0,0:0,1 0 0 9", "the game is over, so the step must be -"),
    ],
)
def test_s11_further_consistency_conditions(text: str, words: str) -> None:
    """§11: setup steps, empty stacks, the field count and a finished game's step."""
    with pytest.raises(PositionError, match=re.escape(words)):
        make(GAME_ID).state_from_text(text)


def test_s11_mid_turn_step_keeps_the_first_action_and_its_capture() -> None:
    """§11 field 4: a mid-turn text with a capturing first action ends its turn with counter 0."""
    position = state("2 -1,1=1f/0,1=1b/0,2=1b/1,0=1F/1,1=2b/1,2=2b/2,1=2f 1 a0,0:1,0x 3 0 30")
    position.play("f0,2")
    assert position.position_text().endswith(" 2 - 0 0 31")


def test_s2_a_setup_position_needs_p1s_first_board_piece_on_the_origin() -> None:
    """§2: P1's first Board Piece defines the origin 0,0 and nothing moves during setup."""
    game = make("colosseum-offcuts", players=2)
    assert game.state_from_text("2 0,0=1b 2 s2 0 0 1").position_text() == "2 0,0=1b 2 s2 0 0 1"
    with pytest.raises(PositionError, match="origin 0,0"):
        game.state_from_text("2 1,0=1b 2 s2 0 0 1")


def test_s3_a_resigning_seat_of_three_is_eliminated_and_the_others_play_on() -> None:
    """§3 with ERRATA's resignation: the seat's Fortifications leave; its Board Pieces stay."""
    game = make("colosseum-offcuts", players=3)
    current = game.new_initial_state()
    assert isinstance(current, ColosseumState)
    assert current.after_resignation(current.current_player) is None  # during setup: game ends
    while current.setup:
        current.apply_action(current.legal_actions()[0])
    seat = current.current_player
    after = current.after_resignation(seat)
    assert after is not None and not after.is_terminal()
    assert seat not in after.seats_in_game() and after.current_player != seat
    assert len(after.seats_in_game()) == 2
    assert after.after_resignation(after.current_player) is None  # two seats left: game ends
