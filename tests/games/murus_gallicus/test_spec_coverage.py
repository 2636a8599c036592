"""Rules of the Murus Gallicus spec that the other rule tests leave out, one test each (audit).

Each test names the spec section (rules/murus-gallicus.md) it states and builds its own position.
"""

from __future__ import annotations

import pytest

import boardlab
from boardlab.core.errors import BoardlabError, OptionError, PositionError
from boardlab.core.outcome import Result, Termination
from boardlab.games.murus_gallicus.state import MurusGallicusState


def state(text: str, **options: object) -> MurusGallicusState:
    """A state from a position text under the given options."""
    result = boardlab.make("murus-gallicus", **options).state_from_text(text)
    assert isinstance(result, MurusGallicusState)
    return result


def test_s2_s8_on_8x8_the_goal_is_row_8_not_row_7() -> None:
    """§2: on every board the home rows are the first and last rows; §8.1 uses them."""
    short = state("7G/8/8/2R5/8/8/8/8 R 20", board="8x8")
    short.play("c5-c7")
    assert short.outcome is None
    goal = state("7G/8/2R5/8/8/8/8/8 R 20", board="8x8")
    goal.play("c6-c8")
    assert goal.outcome is not None
    assert goal.outcome.termination is Termination.HOME_ROW
    assert goal.outcome.results == (Result.WIN, Result.LOSS)


def test_s8_diagonal_breakthrough_wins_before_stalemate_is_checked() -> None:
    """§8: breakthrough (1) is checked before stalemate (2), here both hold after c5-e7."""
    position = state("g7/8/2R5/8/8/8/8 R 20")
    position.play("c5-e7")
    assert position.position_text() == "g3r3/3r4/8/8/8/8/8 G 21"
    assert position.outcome is not None
    assert position.outcome.termination is Termination.HOME_ROW
    assert position.outcome.winners == (0,)


def test_s8_breakthrough_is_read_from_the_position_alone() -> None:
    """§8: a text where the side that just moved stands on the goal row is already won."""
    position = state("GGrGGGGG/2r5/8/8/8/8/RR1RRRRR G 21")
    assert position.outcome is not None
    assert position.outcome.termination is Termination.HOME_ROW
    assert position.outcome.winners == (0,)
    assert position.legal_moves() == []


def test_s5_m7_no_pass_is_ever_offered() -> None:
    """§5, M7: passing is never allowed, not even as a string the parser accepts."""
    position = state("GGGGGGGG/8/8/8/8/8/RRRRRRRR R 0")
    assert "pass" not in position.legal_moves()
    with pytest.raises(BoardlabError, match="malformed move 'pass': write a tower move"):
        position.parse_action("pass")


@pytest.mark.parametrize(
    ("text", "board", "words"),
    [
        # Gauls to move with a stone on row 1
        ("G7/8/8/8/8/8/g6R G 5", "8x7", "Gauls, to move, already stand on the goal"),
        ("GGGGGGGG/8/8/8/8/8/8/RRRRRRRR R 0", "8x7", "the 8x7 board has 7 rows"),
        ("GGGGGGGG/8/8/8/8/8/RRRRRRRR R 0", "8x8", "the 8x8 board has 8 rows"),
        # 18 Gaul stones, 16 allowed; then 32 each on 8x8
        ("GGGGGGGG/G7/8/8/8/8/RRRRRRRR R 0", "8x7", "Gauls have more than 16 stones"),
        ("GGGGGGGG/GGGGGGGG/8/8/8/8/RRRRRRRR/RRRRRRRR R 0", "8x8", "more than 16 stones"),
    ],
)
def test_s11_consistency_conditions_depend_on_the_board(text: str, board: str, words: str) -> None:
    """§11: row count matches the board, stones at most the start, mover not on the goal."""
    with pytest.raises(PositionError, match=words):
        state(text, board=board)


def test_s11_two_rows_board_allows_32_stones_each() -> None:
    """§3, §11: 8x8_two_rows starts each side with 32 stones, so such a text is accepted."""
    text = "GGGGGGGG/GGGGGGGG/8/8/8/8/RRRRRRRR/RRRRRRRR R 0"
    assert state(text, board="8x8_two_rows").position_text() == text


@pytest.mark.parametrize(
    ("key", "value"),
    [("repetition_draw", -1), ("repetition_draw", "x"), ("max_plies", -1), ("max_plies", "x")],
)
def test_s12_draw_cap_options_are_validated(key: str, value: object) -> None:
    """§12: repetition_draw and max_plies are integers >= 0."""
    with pytest.raises(OptionError, match=rf"^option {key}: bad value .*an integer >= 0"):
        boardlab.make("murus-gallicus", **{key: value})


def test_s12_options_are_recorded_with_defaults() -> None:
    """§12: the defaults are 8x7, 3 and 400."""
    assert boardlab.make("murus-gallicus").option_items() == [
        ("board", "8x7"),
        ("repetition_draw", "3"),
        ("max_plies", "400"),
    ]
