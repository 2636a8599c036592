"""Position text strictness (spec §11), notation (§10), the terminal drawing and explanations."""

from __future__ import annotations

import pytest

import boardlab
from boardlab.core.errors import IllegalMoveError, NotationError, PositionError

GAME = boardlab.make("carnyx")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("5/5/5/5/5 D 3,10,0/3,10,0 - - -", "7 fields"),
        ("5/5/5/5/5  D 3,10,0/3,10,0 - - - 0", "7 fields"),
        ("L3L/5/(D)4/5/D4 D 0,10,0/0,10,0 - - - 20", "rank 3"),
        ("L3L/5/14/5/D4 D 0,10,0/0,10,0 - - - 20", "maximal"),
        ("L3L/5/4/5/D4 D 0,10,0/0,10,0 - - - 20", "covers 4"),
        ("L3L/5/5/5/D4 X 0,10,0/0,10,0 - - - 20", "side to move"),
        ("L3L/5/5/5/D4 D 0,010,0/0,10,0 - - - 20", "pools"),
        ("L3L/5/5/5/D4 D 0,10,0/0,10,0 LD - - 20", "hunker"),
        ("L3L/5/5/5/D4 D 0,10,0/0,10,0 - - - 020", "ply"),
        ("L3L/5/5/5/D4 D 0,10,0/0,10,0 - - q 20", "marker"),
        ("L3L/5/5/5/D4 D 0,10,0/0,10,0 - a2-a3 - 20", "empty"),
        ("4L/L4/5/2D2/D4 D 0,10,0/0,10,0 - a5-a4,b2-c2 - 18", "sorted"),
        ("4L/L4/5/2D2/D4 D 0,10,0/0,10,0 - c4-c2 - 18", "one or two squares"),
        ("L4/L4/5/2D2/D4 D 0,10,0/0,10,0 - b1-b2 - 18", "empty"),
        ("L3L/5/5/5/D4 D 0,10,4/0,10,0 - - - 20", "at most 13"),
        ("L3L/5/5/5/D4 D 0,11,0/0,10,0 - - - 20", "supply starts"),
        ("L3L/5/5/5/D4 L 0,10,0/0,10,0 - - - 20", "even plies"),
        ("L3L/5/5/5/D4 D 0,10,0/0,10,0 L x - 20", "memory entry"),
        ("L3L/5/5/5/D4 D 0,10,0/0,10,0 L - x 20", "hunker set"),
        ("5/5/5/5/D4 L 2,10,0/2,10,0 - - - 2", "alternately"),
        ("5/5/5/5/D4 D 2,10,0/2,10,0 - - - 2", "has 1 pieces"),
        ("5/5/5/5/2D2 L 2,10,0/3,10,0 - - - 3", "ply counter"),
        ("5/5/5/D4/5 L 2,10,0/3,10,0 - - - 1", "home rank"),
        ("5/5/5/5/2D2 L 2,9,1/3,10,0 - - - 1", "supply is 10"),
        ("5/5/5/5/2D2 L 2,10,0/3,10,0 D - - 1", "all '-'"),
    ],
)
def test_s11_bad_position_texts_are_rejected_with_the_reason(text: str, problem: str) -> None:
    with pytest.raises(PositionError, match=problem):
        GAME.state_from_text(text)


def test_s11_immediate_allows_one_memory_entry_per_colour() -> None:
    text = "4L/L4/5/2D2/D4 D 0,10,0/0,10,0 - b2-c2,a5-a4 - 18"
    two_dark = "4L/L4/5/D1D2/5 D 0,10,0/0,9,0 - a1-a2,b2-c2 - 18"
    assert GAME.state_from_text(text).position_text() == text
    with pytest.raises(PositionError, match="at most one memory entry"):
        GAME.state_from_text(two_dark)
    strict = boardlab.make("carnyx", no_return="strict")
    assert strict.state_from_text(two_dark).position_text() == two_dark


def test_s11_token_conversion_bounds_the_grand_total() -> None:
    text = "L3L/5/5/5/D4 D 0,10,12/0,0,0 - - - 20"
    with pytest.raises(PositionError, match="D has 23 pieces on the board and in its pools"):
        GAME.state_from_text(text)
    token = boardlab.make("carnyx", conversion="token")
    assert token.state_from_text(text).position_text() == text


def test_s10_every_notation_form_round_trips() -> None:
    s = GAME.state_from_text("1D3/5/5/5/L3D D 0,9,1/0,10,0 - - - 22")
    for move in ["R@b1", "b5-off@b1", "b5-a5", "H"]:
        assert s.action_to_str(s.parse_action(move)) == move
    with pytest.raises(NotationError, match=r"^malformed move 'b5-off@': write @c1"):
        s.parse_action("b5-off@")
    with pytest.raises(IllegalMoveError, match="did you mean a1xb1"):
        GAME.state_from_text("5/5/5/5/LD2D L 0,10,0/0,10,0 - - - 23").parse_action("a1-b1")


def test_render_shows_stacks_pools_hunker_and_no_return() -> None:
    s = GAME.state_from_text("L3L/2(LDD)2/5/D4/5 L 0,9,1/0,10,0 D a1-a2 - 21")
    text = s.render()
    assert "LDD" in text
    assert "c4 LDD (Dark)" in text
    assert "Dark  (D): controls 2, on board 3, supply 9, reserve 1, removed 0" in text
    assert "Light (L): controls 2, on board 3, supply 10, reserve 0, removed 0" in text
    assert "Dark is hunkered down" in text
    assert "Dark's stack on a2 may not go back to a1" in text
    assert all(len(line) <= 80 for line in text.splitlines())


def test_render_shows_removed_pieces_and_the_result() -> None:
    s = GAME.state_from_text("5/5/2(LD)2/5/D4 L 0,8,1/0,8,2 - c2-c3 x 31")
    text = s.render()
    assert "supply 8, reserve 1, removed 2" in text
    assert "Game over: Dark won" in text
    removed = GAME.state_from_text("L3L/5/5/5/D4 L 0,9,3/0,10,0 - - - 21").render()
    assert "Light (L): controls 2, on board 2, supply 10, reserve 0, removed 1" in removed


@pytest.mark.parametrize(
    ("text", "move", "reason"),
    [
        ("L3L/5/2L2/2D2/D3D D 0,10,0/0,10,0 - - - 10", "a1-a2", "you must capture or hunker"),
        ("L3L/5/2L2/2D2/D3D D 0,10,0/0,10,0 D - - 12", "H", "may not hunker twice"),
        ("L3L/5/2L2/2D2/D3D D 0,10,0/0,10,0 L - - 12", "c2xc3", "hunkered down"),
        ("L3L/5/5/5/D3D D 0,10,0/0,10,0 - - - 10", "@a1", "setup phase is over"),
        ("L3L/5/5/5/D3D D 0,10,0/0,10,0 - - - 10", "a1-b2", "diagonally"),
        ("L3L/5/5/5/(DD)3D D 0,10,0/0,10,0 - - - 10", "a1-a2", "exactly two"),
        ("L3L/5/5/5/(DD)3D D 0,10,0/0,10,0 - - - 10", "a1-off", "leaves the board only"),
        ("1(DD)3/5/5/5/L4 D 0,10,0/0,10,0 - - - 24", "b5-off@b1", "only a single piece"),
    ],
)
def test_illegal_moves_are_explained(text: str, move: str, reason: str) -> None:
    with pytest.raises(IllegalMoveError, match=reason):
        GAME.state_from_text(text).parse_action(move)
