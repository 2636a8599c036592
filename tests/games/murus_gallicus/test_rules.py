"""Rule tests for Murus Gallicus, one rule each, named after the spec section they check."""

from __future__ import annotations

import pytest

import boardlab
from boardlab.core.errors import IllegalMoveError, NotationError, OptionError, PositionError
from boardlab.core.outcome import Result, Termination
from boardlab.games.murus_gallicus.state import MurusGallicusState
from tests.games.murus_gallicus.helpers import moves_of

# Romans shuttle two towers along row 3 and the Gauls along row 5: 12 plies bring the position
# back (found by search; each step is a legal tower move, checked by play()).
CYCLE_START = "8/8/2GG4/8/2RR4/8/8 R 0"
ROMAN_CYCLE = "d3-f3 c3-e3 e3-c3 d3-f3 f3-d3 e3-c3".split()
GAUL_CYCLE = "d5-f5 c5-e5 e5-c5 d5-f5 f5-d5 e5-c5".split()
CYCLE = [m for pair in zip(ROMAN_CYCLE, GAUL_CYCLE, strict=True) for m in pair]


def state(text: str, **options: object) -> MurusGallicusState:
    result = boardlab.make("murus-gallicus", **options).state_from_text(text)
    assert isinstance(result, MurusGallicusState)
    return result


def test_s2_adjacency_is_eight_king_directions() -> None:
    lone = state("G7/8/8/3R4/8/8/8 R 5")
    assert moves_of(lone, "d4") == "d4-b2 d4-b4 d4-b6 d4-d2 d4-d6 d4-f2 d4-f4 d4-f6".split()


def test_s6_m2_both_cells_must_be_on_the_board() -> None:
    edge = state("G7/8/8/8/8/R7/8 R 5")
    assert moves_of(edge, "a2") == "a2-a4 a2-c2 a2-c4".split()


@pytest.mark.parametrize("blocker", ["R", "g", "G"])
def test_s6_m3_near_cell_blocked_by_own_tower_or_any_enemy_stone(blocker: str) -> None:
    position = state(f"G7/8/8/8/3{blocker}4/3R4/8 R 5")
    assert "d2-d4" not in position.legal_moves()


@pytest.mark.parametrize("blocker", ["R", "g", "G"])
def test_s6_m3_far_cell_blocked_by_own_tower_or_any_enemy_stone(blocker: str) -> None:
    position = state(f"G7/8/8/3{blocker}4/8/3R4/8 R 5")
    assert "d2-d4" not in position.legal_moves()


def test_s6_m4_near_cell_cannot_be_jumped() -> None:
    position = state("G7/8/8/8/3g4/3R4/8 R 5")
    assert not any(m.startswith("d2-d") and m[-1] == "4" for m in position.legal_moves())
    assert "d2xd3" in position.legal_moves()


def test_s6_own_walls_do_not_block_and_s7_become_towers() -> None:
    position = state("G7/8/8/3r4/3r4/3R4/8 R 5")
    position.play("d2-d4")
    assert position.position_text() == "G7/8/8/3R4/3R4/8/8 G 6"


def test_s7_tower_move_onto_empty_cells_leaves_two_walls() -> None:
    position = state("G7/8/8/8/8/3R4/8 R 5")
    position.play("d2-f4")
    assert position.position_text() == "G7/8/8/5r2/4r3/8/8 G 6"


def test_s6_sacrifice_needs_an_adjacent_enemy_wall_in_any_direction() -> None:
    position = state("8/8/8/2ggg3/2gRg3/2ggg3/8 R 5")
    sacrifices = [m for m in position.legal_moves() if "x" in m]
    assert sacrifices == "d3xc2 d3xc3 d3xc4 d3xd2 d3xd4 d3xe2 d3xe3 d3xe4".split()


def test_s6_sacrifice_is_never_compulsory() -> None:
    position = state("G7/8/8/8/4g3/3R4/8 R 5")
    assert "d2xe3" in position.legal_moves()
    assert "d2-d4" in position.legal_moves()


def test_s7_sacrifice_removes_both_stones_and_leaves_a_wall() -> None:
    position = state("G7/8/8/8/4g3/3R4/8 R 5")
    position.play("d2xe3")
    assert position.position_text() == "G7/8/8/8/8/3r4/8 G 6"


def test_s8_breakthrough_for_the_gauls_on_row_1() -> None:
    position = state("8/8/8/8/3G4/8/R7 G 9")
    position.play("d3-d1")
    assert position.outcome is not None
    assert position.outcome.results == (Result.LOSS, Result.WIN)
    assert position.outcome.termination is Termination.HOME_ROW
    assert position.legal_actions() == []


def test_s8_stalemate_side_without_towers_loses() -> None:
    position = state("g7/8/8/8/8/r7/8 R 9")
    assert position.is_terminal()
    assert position.outcome is not None
    assert position.outcome.winners == (1,)
    assert position.outcome.termination is Termination.STALEMATE


def test_s8_breakthrough_is_checked_before_the_ply_cap() -> None:
    position = state("GG1GGGGG/8/2R5/8/8/8/RR1RRRRR R 399")
    position.play("c5-c7")
    assert position.outcome is not None
    assert position.outcome.termination is Termination.HOME_ROW


def test_s9_ply_cap_draws_when_the_counter_reaches_max_plies() -> None:
    game = boardlab.make("murus-gallicus", max_plies=3)
    position = game.new_initial_state()
    for move in ("d1-d3", "d7-d5"):
        position.play(move)
    assert not position.is_terminal()
    position.play("a1-a3")
    assert position.outcome is not None
    assert position.outcome.results == (Result.DRAW, Result.DRAW)
    assert position.outcome.termination is Termination.PLY_CAP
    assert state("GGGGGGGG/8/8/8/8/8/RRRRRRRR R 400").is_terminal()
    assert not state("GGGGGGGG/8/8/8/8/8/RRRRRRRR R 400", max_plies=0).is_terminal()


def test_s9_repetition_draw_at_the_third_occurrence() -> None:
    position = state(CYCLE_START)
    for move in CYCLE:
        position.play(move)
    assert position.position_text() == "8/8/2GG4/8/2RR4/8/8 R 12"
    assert not position.is_terminal()
    assert position.repetition_count() == 2
    for move in CYCLE[:-1]:
        position.play(move)
    assert not position.is_terminal()
    position.play(CYCLE[-1])
    assert position.outcome is not None
    assert position.outcome.termination is Termination.REPETITION
    assert position.outcome.results == (Result.DRAW, Result.DRAW)


def test_s9_repetition_ignores_the_ply_counter_and_can_be_turned_off() -> None:
    second = state(CYCLE_START, repetition_draw=2)
    for move in CYCLE:
        second.play(move)
    assert second.outcome is not None
    assert second.outcome.termination is Termination.REPETITION
    off = state(CYCLE_START, repetition_draw=0)
    for move in CYCLE * 3:
        off.play(move)
    assert not off.is_terminal()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("GGGGGGGG/8/8/8/8/8/RRRRRRRR R", "needs 3 fields"),
        ("GGGGGGGG/8/8/8/8/8/RRRRRRRR X 0", "side to move must be R or G"),
        ("GGGGGGGG/8/8/8/8/8/RRRRRRRR R 01", "ply counter must be a plain decimal integer"),
        ("GGGGGGGG/8/8/8/8/8/RRRRRRRR R -1", "ply counter must be a plain decimal integer"),
        ("GGGGGGGG/8/8/8/8/RRRRRRRR R 0", "the 8x7 board has 7 rows"),
        ("GGGGGGGG/8/8/8/8/44/RRRRRRRR R 0", "row 2: bad or non-canonical row '44'"),
        ("GGGGGGGG/8/8/8/8/7/RRRRRRRR R 0", "row 2 covers 7 cells, not 8"),
        ("GGGGGGGG/8/8/8/8/R8/RRRRRRRR R 0", "row 2 covers 9 cells, not 8"),
        ("GGGGGGGG/8/8/8/8/RRRRRRRR/RRRRRRRR R 0", "Romans have more than 16 stones"),
        ("GGrGGGGG/2r5/8/8/8/8/RR1RRRRR R 21", "Romans, to move, already stand on the goal"),
        ("GGGGGGGG/8/8/8/8/8/RRRRRRRR  R 0", "needs 3 fields"),  # double space
    ],
)
def test_s11_bad_position_texts_are_rejected(text: str, words: str) -> None:
    with pytest.raises(PositionError, match=words):
        state(text)


def test_s12_board_option_is_validated() -> None:
    with pytest.raises(OptionError, match="8x7, 8x8, 8x8_two_rows"):
        boardlab.make("murus-gallicus", board="9x9")
    with pytest.raises(OptionError, match="unknown option"):
        boardlab.make("murus-gallicus", boards="8x8")


def test_s10_notation_errors_say_what_is_wrong() -> None:
    position = state("GGGGGGGG/8/8/8/8/8/RRRRRRRR R 0")
    with pytest.raises(NotationError, match="malformed"):
        position.parse_action("d1d3")
    with pytest.raises(IllegalMoveError, match="exactly two cells"):
        position.parse_action("d1-d2")
    with pytest.raises(IllegalMoveError, match="no Romans tower on d3"):
        position.parse_action("d3-d5")
    with pytest.raises(IllegalMoveError, match="did you mean d3xe4"):
        state("GGGG1GGG/8/8/4g3/3R4/8/RRR1RRRR R 12").parse_action("d3-e4")


def test_s10_notation_on_8x8_boards_uses_row_8() -> None:
    position = boardlab.make("murus-gallicus", board="8x8").new_initial_state()
    position.play("a1-a3")
    assert "a8-a6" in position.legal_moves()
