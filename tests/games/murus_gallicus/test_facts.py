"""Every Test fact of rules/murus-gallicus.md §14, one test each."""

from __future__ import annotations

import boardlab
from boardlab.core.outcome import Result, Termination
from boardlab.games.murus_gallicus.state import MurusGallicusState
from tests.games.murus_gallicus.helpers import moves_of


def state(text: str, **options: object) -> MurusGallicusState:
    game = boardlab.make("murus-gallicus", **options)
    result = game.state_from_text(text)
    assert isinstance(result, MurusGallicusState)
    return result


def after(moves: str, **options: object) -> MurusGallicusState:
    result = boardlab.make("murus-gallicus", **options).new_initial_state()
    assert isinstance(result, MurusGallicusState)
    for move in moves.split():
        result.play(move)
    return result


def test_fact_1_initial_position() -> None:
    start = after("")
    assert start.position_text() == "GGGGGGGG/8/8/8/8/8/RRRRRRRR R 0"
    assert (
        start.legal_moves()
        == (
            "a1-a3 a1-c3 b1-b3 b1-d3 c1-a3 c1-c3 c1-e3 d1-b3 d1-d3 d1-f3 e1-c3 e1-e3 e1-g3 "
            "f1-d3 f1-f3 f1-h3 g1-e3 g1-g3 h1-f3 h1-h3"
        ).split()
    )


def test_fact_2_gauls_view() -> None:
    assert (
        state("GGGGGGGG/8/8/8/8/8/RRRRRRRR G 1").legal_moves()
        == (
            "a7-a5 a7-c5 b7-b5 b7-d5 c7-a5 c7-c5 c7-e5 d7-b5 d7-d5 d7-f5 e7-c5 e7-e5 e7-g5 "
            "f7-d5 f7-f5 f7-h5 g7-e5 g7-g5 h7-f5 h7-h5"
        ).split()
    )


def test_fact_3_walls_and_building() -> None:
    first = after("d1-d3")
    assert first.position_text() == "GGGGGGGG/8/8/8/3r4/3r4/RRR1RRRR G 1"
    assert len(first.legal_moves()) == 20
    second = after("d1-d3 a7-a5")
    assert second.position_text() == "1GGGGGGG/g7/g7/8/3r4/3r4/RRR1RRRR R 2"
    assert len(second.legal_moves()) == 17
    third = after("d1-d3 a7-a5 c1-e3")
    assert third.position_text() == "1GGGGGGG/g7/g7/8/3rr3/3R4/RR2RRRR G 3"


def test_fact_4_other_board_sizes() -> None:
    eight = after("", board="8x8")
    assert eight.position_text() == "GGGGGGGG/8/8/8/8/8/8/RRRRRRRR R 0"
    assert len(eight.legal_moves()) == 20
    two = after("", board="8x8_two_rows")
    assert two.position_text() == "GGGGGGGG/GGGGGGGG/8/8/8/8/RRRRRRRR/RRRRRRRR R 0"
    assert len(two.legal_moves()) == 20


def test_fact_5_sacrifice() -> None:
    position = state("GGGG1GGG/8/8/4g3/3R4/8/RRR1RRRR R 12")
    assert len(position.legal_moves()) == 21
    assert moves_of(position, "d3") == "d3-b3 d3-b5 d3-d1 d3-d5 d3-f3 d3xe4".split()
    position.play("d3xe4")
    assert position.position_text() == "GGGG1GGG/8/8/8/3r4/8/RRR1RRRR G 13"
    assert not position.is_terminal()


def test_fact_6_no_sacrifice_against_a_tower() -> None:
    position = state("GGGG1GGG/8/8/4G3/3R4/8/RRR1RRRR R 12")
    assert len(position.legal_moves()) == 20
    assert moves_of(position, "d3") == "d3-b3 d3-b5 d3-d1 d3-d5 d3-f3".split()


def test_fact_7_sacrifice_that_stalemates() -> None:
    position = state("8/8/8/4g3/3R4/8/8 R 10")
    assert position.legal_moves() == ("d3-b1 d3-b3 d3-b5 d3-d1 d3-d5 d3-f1 d3-f3 d3xe4".split())
    position.play("d3xe4")
    assert position.position_text() == "8/8/8/8/3r4/8/8 G 11"
    assert position.outcome is not None
    assert position.outcome.results == (Result.WIN, Result.LOSS)
    assert position.outcome.termination is Termination.STALEMATE


def test_fact_8_breakthrough() -> None:
    position = state("GG1GGGGG/8/2R5/8/8/8/RR1RRRRR R 20")
    assert len(position.legal_moves()) == 23
    assert "c5-c7" in position.legal_moves()
    position.play("c5-c7")
    assert position.position_text() == "GGrGGGGG/2r5/8/8/8/8/RR1RRRRR G 21"
    assert position.outcome is not None
    assert position.outcome.winners == (0,)
    assert position.outcome.termination is Termination.HOME_ROW


def test_fact_9_no_forward_move_from_the_row_before_the_goal() -> None:
    position = state("GGGGGG2/2R5/8/8/8/8/RRRRRR2 R 20")
    assert moves_of(position, "c6") == "c6-a4 c6-a6 c6-c4 c6-e4 c6-e6".split()


def test_fact_10_stalemate_win() -> None:
    position = state("gg6/8/6RR/6RG/6RR/8/R7 R 30")
    assert len(position.legal_moves()) == 18
    position.play("a1-a3")
    assert position.position_text() == "gg6/8/6RR/6RG/r5RR/r7/8 G 31"
    assert position.outcome is not None
    assert position.outcome.winners == (0,)
    assert position.outcome.termination is Termination.STALEMATE
    terminal = state("gg6/8/6RR/6RG/6RR/8/R7 G 31")
    assert terminal.is_terminal()
    assert terminal.legal_moves() == []
    assert terminal.outcome is not None
    assert terminal.outcome.winners == (0,)
