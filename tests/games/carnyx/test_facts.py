"""The Test facts of the Carnyx spec (rules/carnyx.md §14), one test per fact."""

from __future__ import annotations

import boardlab
from boardlab.core.outcome import Result, Termination
from boardlab.games.carnyx import CarnyxState
from tests.games.carnyx.helpers import after, state


def initial() -> CarnyxState:
    """The initial position under the default options."""
    result = boardlab.make("carnyx").new_initial_state()
    assert isinstance(result, CarnyxState)
    return result


def test_fact_01_initial_position() -> None:
    initial = boardlab.make("carnyx").new_initial_state()
    assert initial.position_text() == "5/5/5/5/5 D 3,10,0/3,10,0 - - - 0"
    assert initial.legal_moves() == ["@a1", "@b1", "@c1", "@d1", "@e1"]


def test_fact_02_setup_with_stacking() -> None:
    s = after(initial(), "@c1 @c5 @c1 @c5 @b1 @d5")
    assert s.position_text() == "2(LL)L1/5/5/5/1D(DD)2 D 0,10,0/0,10,0 - - - 6"
    assert s.legal_moves() == ["H", "b1-a1", "b1-b2", "b1-c1", "c1-c3", "c1-e1"]
    assert after(s, "b1-c1").board[2] == "DDD"  # a merge
    assert "c1-a1" not in s.legal_moves()


def test_fact_03_forced_capture() -> None:
    s = state("L3L/5/2L2/2D2/D3D D 0,10,0/0,10,0 - - - 10")
    assert s.legal_moves() == ["H", "c2xc3"]


def test_fact_04_hunker_down() -> None:
    s = state("L3L/5/2L2/2D2/D3D L 0,10,0/0,10,0 - - - 11")
    assert s.legal_moves() == ["H", "c3xc2"]
    s = after(s, "H")
    assert s.position_text() == "L3L/5/2L2/2D2/D3D D 0,10,0/0,10,0 L - - 12"
    assert s.legal_moves() == ["H", "a1-a2", "a1-b1", "c2-b2", "c2-d2", "e1-d1", "e1-e2"]
    s = after(s, "a1-a2")
    assert s.position_text() == "L3L/5/2L2/D1D2/4D L 0,10,0/0,10,0 L a1-a2 - 13"
    assert s.legal_moves() == [
        "a5-a4", "a5-b5", "c3-b3", "c3-d3", "c3xc2", "e5-d5", "e5-e4"
    ]  # fmt: skip


def test_fact_05_stack_jump() -> None:
    s = state("L3L/5/1L3/1(DD)3/4D D 0,10,0/0,10,0 - - - 12")
    assert s.legal_moves() == ["H", "b2-b4", "b2-d2", "e1-d1", "e1-e2"]
    assert after(s, "b2-b4").position_text() == ("L3L/1(DD)3/1L3/5/4D L 0,10,0/0,10,0 - b2-b4 - 13")


def test_fact_06_own_piece_blocks_a_jump() -> None:
    text = "L3L/5/1D3/1(DD)3/5 D 0,10,0/0,10,0 - - - 12"
    assert state(text).legal_moves() == ["H", "b2-d2", "b3-a3", "b3-b4", "b3-c3"]
    assert state(text, jump_own=True).legal_moves() == [
        "H", "b2-b4", "b2-d2", "b3-a3", "b3-b4", "b3-c3"
    ]  # fmt: skip


def test_fact_07_centre_reward_and_deployment() -> None:
    s = state("LL3/5/5/2D2/D3D D 0,10,0/0,10,0 - - - 14")
    s = after(s, "c2-c3")
    assert s.position_text() == "LL3/5/2D2/5/D3D L 0,9,1/0,10,0 - c2-c3 - 15"
    s = after(s, "b5-b4")
    assert s.position_text() == "L4/1L3/2D2/5/D3D D 0,9,1/0,10,0 - c2-c3,b5-b4 - 16"
    assert s.legal_moves() == [
        "H", "R@a1", "R@b1", "R@c1", "R@d1", "R@e1", "a1-a2", "a1-b1",
        "c3-b3", "c3-c4", "c3-d3", "e1-d1", "e1-e2",
    ]  # fmt: skip
    s = after(s, "R@a1")
    assert s.position_text() == "L4/1L3/2D2/5/(DD)3D L 0,9,0/0,10,0 - b5-b4 - 17"


def test_fact_08_stack_exit() -> None:
    text = "L3L/2(LDD)2/5/5/D4 D 0,10,0/0,10,0 - - - 20"
    s = state(text)
    assert s.legal_moves() == ["H", "a1-a2", "a1-b1", "c4-a4", "c4-e4", "c4-off"]
    s = after(s, "c4-off")
    assert s.position_text() == "L3L/5/5/5/D4 L 0,9,3/0,10,0 - - - 21"
    light_total = sum(x.count("L") for x in s.board) + sum(s.pools[3:])
    assert light_total == 12
    token = after(state(text, conversion="token"), "c4-off")
    assert token.position_text() == "L3L/5/5/5/D4 L 0,10,3/0,10,0 - - - 21"


def test_fact_09_stack_exit_from_the_last_rank() -> None:
    s = state("1(DD)3/5/5/5/L4 D 0,10,0/0,10,0 - - - 24")
    assert s.legal_moves() == ["H", "b5-d5", "b5-off"]
    assert after(s, "b5-off").position_text() == "5/5/5/5/L4 L 0,10,2/0,10,0 - - - 25"


def test_fact_10_single_exit_with_reentry() -> None:
    s = state("1D3/5/5/5/L3D D 0,10,0/0,10,0 - - - 22")
    assert s.legal_moves() == [
        "H", "b5-a5", "b5-c5", "b5-off@b1", "b5-off@c1", "b5-off@d1", "b5-off@e1",
        "e1-d1", "e1-e2",
    ]  # fmt: skip
    s = after(s, "b5-off@b1")
    assert s.position_text() == "5/5/5/5/LD2D L 0,10,0/0,10,0 - - - 23"
    assert s.legal_moves() == ["H", "a1xb1"]


def test_fact_11_single_exit_without_reentry_square() -> None:
    s = state("1D3/5/5/5/LLLLL D 0,10,0/0,5,0 - - - 22")
    assert s.legal_moves() == ["H", "b5-a5", "b5-c5", "b5-off"]
    s = after(s, "b5-off")
    assert s.position_text() == "5/5/5/5/LLLLL L 0,10,1/0,5,0 - - - 23"
    assert not s.is_terminal()


def test_fact_12_no_return() -> None:
    s = after(state("L3L/5/5/1D3/D4 D 0,10,0/0,10,0 - - - 16"), "b2-c2 a5-a4")
    assert s.position_text() == "4L/L4/5/2D2/D4 D 0,10,0/0,10,0 - b2-c2,a5-a4 - 18"
    assert s.legal_moves() == ["H", "a1-a2", "a1-b1", "c2-c3", "c2-d2"]
    s = after(s, "a1-a2 e5-e4")
    assert s.position_text() == "5/L3L/5/D1D2/5 D 0,10,0/0,10,0 - a1-a2,e5-e4 - 20"
    assert s.legal_moves() == ["H", "a2-a3", "a2-b2", "c2-b2", "c2-c3", "c2-d2"]


def test_fact_13_win_despite_the_losers_reserve() -> None:
    s = state("5/5/2L2/2D2/D4 D 0,9,0/0,8,2 - - - 30")
    assert s.legal_moves() == ["H", "c2xc3"]
    s = after(s, "c2xc3")
    assert s.position_text() == "5/5/2(LD)2/5/D4 L 0,8,1/0,8,2 - c2-c3 x 31"
    assert s.outcome is not None
    assert s.outcome.results == (Result.WIN, Result.LOSS)
    assert s.outcome.termination is Termination.ALL_CAPTURED
    assert s.legal_moves() == []


def test_fact_14_forced_pass() -> None:
    s = state("5/5/L4/DL3/5 D 0,10,0/0,10,0 DL - - 50")
    assert s.legal_moves() == ["pass"]
    s = after(s, "pass")
    assert s.position_text() == "5/5/L4/DL3/5 L 0,10,0/0,10,0 L - p 51"
    assert s.legal_moves() == ["a3-b3", "a3xa2", "b2-b1", "b2-c2", "b2xa2"]
