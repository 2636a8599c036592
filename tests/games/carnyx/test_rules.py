"""One test per rule of the Carnyx spec §4-9 and §12, each on a position built for it."""

from __future__ import annotations

import re

import pytest

import boardlab
from boardlab.core.errors import IllegalMoveError, OptionError
from boardlab.core.outcome import Result, Termination
from boardlab.games.carnyx import CarnyxState
from tests.games.carnyx.helpers import after, state


def illegal_reason(s: CarnyxState, move: str) -> str:
    """The message of the IllegalMoveError that ``move`` raises in ``s``."""
    with pytest.raises(IllegalMoveError, match=f"^illegal move '{re.escape(move)}': ") as error:
        s.parse_action(move)
    return str(error.value)


# -- §4 setup ---------------------------------------------------------------------------


def test_s4_light_places_on_its_own_home_rank() -> None:
    s = state("5/5/5/5/2D2 L 2,10,0/3,10,0 - - - 1")
    assert s.legal_moves() == ["@a5", "@b5", "@c5", "@d5", "@e5"]
    assert "home rank" in illegal_reason(s, "@c1")


def test_s4_one_three_stack_and_dark_moves_first_after_setup() -> None:
    s = after(state("5/5/5/5/5 D 3,10,0/3,10,0 - - - 0"), "@a1 @e5 @a1 @e5 @a1 @e5")
    assert s.position_text() == "4(LLL)/5/5/5/(DDD)4 D 0,10,0/0,10,0 - - - 6"
    assert s.current_player == 0
    assert s.legal_moves() == ["H", "a1-a3", "a1-c1"]


def test_s4_no_hunker_or_other_decision_during_setup() -> None:
    s = state("5/5/5/5/2D2 L 2,10,0/3,10,0 - - - 1")
    assert "setup phase is on" in illegal_reason(s, "H")


# -- §5 turn structure ------------------------------------------------------------------


def test_s5_free_player_may_not_hunker_and_is_not_forced() -> None:
    s = state("L3L/5/2L2/2D2/D3D D 0,10,0/0,10,0 D - - 12")
    assert s.legal_moves() == ["a1-a2", "a1-b1", "c2-b2", "c2-d2", "c2xc3", "e1-d1", "e1-e2"]
    assert "may not hunker twice" in illegal_reason(s, "H")


def test_s5_protected_opponent_cannot_be_captured_but_can_be_jumped() -> None:
    s = state("5/5/2L2/2(DD)2/D4 D 0,10,0/0,10,0 L - - 12")
    assert s.legal_moves() == ["H", "a1-a2", "a1-b1", "c2-a2", "c2-c4", "c2-e2"]
    s = state("5/5/5/5/2(DD)1L D 0,10,0/0,10,0 L - - 12")
    assert "hunkered down" in illegal_reason(s, "c1xe1")


def test_s5_forced_capture_by_any_stack_excludes_deploy_and_exit() -> None:
    s = state("2D2/5/L4/D3(DD)/5 D 0,8,1/0,10,0 - - - 20")
    assert s.legal_moves() == ["H", "a2xa3"]
    assert "a capture is available" in illegal_reason(s, "R@a1")
    assert "a capture is available" in illegal_reason(s, "c5-off@c1")


def test_s5_capture_blocked_by_no_return_does_not_force() -> None:
    # The Dark stack on a3 came from a2 last ply; its only capture would go back there.
    s = state("5/5/D4/L4/5 D 0,10,0/0,10,0 - a2-a3 - 20")
    assert s.legal_moves() == ["H", "a3-a4", "a3-b3"]


def test_s5_forced_pass_only_when_nothing_else_is_legal() -> None:
    s = state("5/5/L4/DL3/5 D 0,10,0/0,10,0 DL - - 50")
    assert s.legal_moves() == ["pass"]
    s = state("5/5/L4/DL3/5 D 0,10,0/0,10,0 L - - 50")
    assert "pass" not in s.legal_moves()


# -- §6 actions and legality ------------------------------------------------------------


def test_s6_2_single_moves_one_square_forward_left_right_never_back() -> None:
    s = state("L4/5/2D2/5/4D D 0,10,0/0,10,0 - - - 20")
    assert s.legal_moves() == ["H", "c3-b3", "c3-c4", "c3-d3", "e1-d1", "e1-e2"]
    assert "backward" in illegal_reason(s, "c3-c2")


def test_s6_2_stack_moves_exactly_two_and_never_off_the_side() -> None:
    s = state("L4/5/5/(DD)4/5 D 0,10,0/0,10,0 - - - 20")
    assert s.legal_moves() == ["H", "a2-a4", "a2-c2"]
    assert "exactly two squares" in illegal_reason(s, "a2-a3")


def test_s6_2_merge_and_allow_merge_false() -> None:
    text = "L4/5/5/5/DD3 D 0,10,0/0,10,0 - - - 20"
    assert state(text).legal_moves() == ["H", "a1-a2", "a1-b1", "b1-a1", "b1-b2", "b1-c1"]
    s = state(text, allow_merge=False)
    assert s.legal_moves() == ["H", "a1-a2", "b1-b2", "b1-c1"]
    assert "allow_merge=false" in illegal_reason(s, "a1-b1")


def test_s6_2_stack_jumps_opponent_and_captures_beyond() -> None:
    s = state("2L2/2L2/5/5/2(DD)2 D 0,10,0/0,10,0 - - - 20")
    s2 = state("5/2L2/2L2/5/2(DD)2 D 0,10,0/0,10,0 - - - 20")
    assert s.legal_moves() == ["H", "c1-a1", "c1-c3", "c1-e1"]
    assert s2.legal_moves() == ["H", "c1xc3"]


def test_s6_2_own_middle_blocks_unless_jump_own() -> None:
    text = "L4/5/5/2D2/2(DD)2 D 0,10,0/0,10,0 - - - 20"
    assert "c1-c3" not in state(text).legal_moves()
    assert "blocks the jump" in illegal_reason(state(text), "c1-c3")
    assert "c1-c3" in state(text, jump_own=True).legal_moves()


def test_s6_3_stack_exits_from_the_rank_before_jumping_an_opponent() -> None:
    s = state("2L2/2(DD)2/5/5/4L D 0,10,0/0,10,0 - - - 20")
    assert "c4-off" in s.legal_moves()
    blocked = state("2D2/2(DD)2/5/5/4L D 0,10,0/0,10,0 - - - 20")
    assert "c4-off" not in blocked.legal_moves()
    assert "c4-off" in state(blocked.position_text(), jump_own=True).legal_moves()


def test_s6_3_own_piece_in_the_corner_blocks_a_stack_exit() -> None:
    """A1 is the board's first square: a Light stack on a2 may not leave over its own a1."""
    blocked = state("4D/5/5/(LL)4/L4 L 0,10,0/0,10,0 - - - 21")
    assert "a2-off" not in blocked.legal_moves()
    assert "a2-off" in state(blocked.position_text(), jump_own=True).legal_moves()


def test_s6_3_single_exits_only_from_the_opponents_home_rank() -> None:
    s = state("L4/2D2/5/5/5 D 0,10,0/0,10,0 - - - 20")
    assert not any("off" in m for m in s.legal_moves())
    assert "home rank" in illegal_reason(s, "c4-off@c1")


def test_s6_3_single_exit_reserve_option_names_no_square() -> None:
    s = state("1D3/5/5/5/L4 D 0,10,0/0,10,0 - - - 22", single_exit="reserve")
    assert s.legal_moves() == ["H", "b5-a5", "b5-c5", "b5-off"]
    assert after(s, "b5-off").position_text() == "5/5/5/5/L4 L 0,10,1/0,10,0 - - - 23"
    assert "single_exit=reserve" in illegal_reason(s, "b5-off@b1")


def test_s6_3_single_exit_to_the_reserve_adds_to_what_is_there() -> None:
    s = state("1D3/5/5/5/L4 D 0,10,1/0,10,0 - - - 22", single_exit="reserve")
    assert after(s, "b5-off").position_text() == "5/5/5/5/L4 L 0,10,2/0,10,0 - - - 23"


def test_s6_3_default_single_exit_must_name_an_allowed_square() -> None:
    s = state("1D3/5/5/5/L4 D 0,10,0/0,10,0 - - - 22")
    assert "re-enters" in illegal_reason(s, "b5-off")
    assert "re-enters" in illegal_reason(s, "b5-off@a1")


def test_s6_4_deploy_only_with_reserve_on_empty_or_own_home_squares() -> None:
    s = state("L4/5/5/2D2/L1D2 D 0,9,1/0,10,0 - - - 20")
    assert [m for m in s.legal_moves() if m.startswith("R@")] == ["R@b1", "R@c1", "R@d1", "R@e1"]
    assert "controlled by Light" in illegal_reason(s, "R@a1")
    assert "home rank" in illegal_reason(s, "R@a2")


def test_s6_5_hunker_allowed_with_or_without_a_capture() -> None:
    assert "H" in state("L4/5/5/5/D4 D 0,10,0/0,10,0 - - - 20").legal_moves()
    assert "H" in state("5/5/5/L4/D4 D 0,10,0/0,10,0 - - - 20").legal_moves()


# -- §7 captures and effects ------------------------------------------------------------


def test_s7_1_capture_buries_and_recapture_changes_control() -> None:
    s = state("5/5/1L3/1DL2/5 D 0,10,0/0,10,0 - - - 20")
    s = after(s, "b2xb3")
    assert s.board[11] == "LD"
    assert s.marker == "x"
    s = state("5/5/1(LD)L2/5/5 L 0,10,0/0,10,0 - - - 21")
    s = after(s, "c3xb3")
    assert s.board[11] == "LDL"
    assert s.board[12] == ""


def test_s7_2_jumped_middle_is_unchanged() -> None:
    s = after(state("L4/5/5/1L3/1(DD)3 D 0,10,0/0,10,0 - - - 20"), "b1-b3")
    assert s.board[6] == "L"
    assert s.board[11] == "DD"
    assert s.marker == ""


def test_s7_3_centre_reward_for_captures_and_merges_not_jumps() -> None:
    s = after(state("L4/5/2L2/2D2/D4 D 0,10,0/0,10,0 - - - 20"), "c2xc3")
    assert s.pools[:3] == [0, 9, 1]
    jump = after(state("L4/5/5/5/2(DD)2 D 0,10,0/0,10,0 - - - 20"), "c1-c3")
    assert jump.pools[:3] == [0, 9, 1]  # a stack ending on c3 is rewarded once
    over = after(state("L4/5/5/2(DD)2/5 D 0,10,0/0,10,0 - - - 20"), "c2-c4")
    assert over.pools[:3] == [0, 10, 0]  # passing over c3 earns nothing


def test_s7_3_empty_supply_gives_nothing() -> None:
    s = after(state("L4/5/5/2D2/D4 D 0,0,0/0,10,0 - - - 20"), "c2-c3")
    assert s.pools[:3] == [0, 0, 0]


def test_s7_4_hunker_protection_lasts_one_opponent_ply() -> None:
    s = state("5/5/1L3/1D3/D4 L 0,10,0/0,10,0 - - - 21")
    s = after(s, "H")
    assert "b2xb3" not in s.legal_moves()
    s = after(s, "a1-a2 b3-c3")
    assert s.hunker == 0


def test_s7_5_stack_exit_conversion_limited_by_supply() -> None:
    s = state("L4/2(LLD)2/5/5/D4 D 0,1,0/0,10,0 - - - 20")
    assert after(s, "c4-off").pools[:3] == [0, 0, 2]
    token = state("L4/2(LLD)2/5/5/D4 D 0,1,0/0,10,0 - - - 20", conversion="token")
    assert after(token, "c4-off").pools[:3] == [0, 1, 3]


def test_s7_5_single_reentry_onto_own_stack_ignores_allow_merge() -> None:
    s = state("1D3/5/5/5/L3D D 0,10,0/0,10,0 - - - 22", allow_merge=False)
    assert after(s, "b5-off@e1").board[4] == "DD"


def test_s7_6_immediate_forgets_after_one_ply_strict_remembers() -> None:
    text = "L4/5/5/1D3/5 D 0,10,0/0,10,0 - - - 20"
    immediate = after(state(text), "b2-c2 a5-b5 H b5-c5")
    assert "c2-b2" in immediate.legal_moves()
    strict = after(state(text, no_return="strict"), "b2-c2 a5-b5 H b5-c5")
    assert strict.position_text() == "2L2/5/5/2D2/5 D 0,10,0/0,10,0 D b2-c2,b5-c5 - 24"
    assert "c2-b2" not in strict.legal_moves()
    assert "no return" in illegal_reason(strict, "c2-b2")


def test_s7_6_capture_replaces_the_entry_of_the_captured_square() -> None:
    s = after(state("5/5/5/2L2/1D3 D 0,10,0/0,10,0 - - - 20"), "b1-b2")
    assert s.memory == {6: 1}
    assert s.legal_moves() == ["H", "c2xb2"]
    s = after(s, "c2xb2")
    assert s.memory == {6: 7}


def test_s7_7_and_7_8_marker_and_hunker_set_follow_the_last_ply() -> None:
    s = after(state("L4/5/5/5/D4 D 0,10,0/0,10,0 - - - 20"), "H")
    assert (s.hunker, s.marker) == (1, "")
    s = after(s, "a5-a4")
    assert (s.hunker, s.marker) == (1, "")
    s = after(s, "a1-a2")
    assert s.hunker == 0


# -- §8 end of game ---------------------------------------------------------------------


def test_s8_loss_by_capture_ends_the_game_for_the_captured_player() -> None:
    s = after(state("5/5/5/L4/D4 L 0,10,0/0,7,3 - - - 21"), "a2xa1")
    assert s.outcome is not None
    assert s.outcome.results == (Result.LOSS, Result.WIN)


@pytest.mark.parametrize(
    ("text", "results"),
    [
        ("5/5/5/5/L4 D 0,10,0/0,10,0 - - - 30", (Result.LOSS, Result.WIN)),
        ("D4/5/5/5/5 L 0,10,0/0,10,0 - - - 31", (Result.WIN, Result.LOSS)),
    ],
    ids=["dark exhausted", "light exhausted"],
)
def test_s8_loss_by_exhaustion(text: str, results: tuple[Result, Result]) -> None:
    s = state(text)
    assert s.outcome is not None
    assert s.outcome.results == results
    assert s.outcome.termination is Termination.EXHAUSTION
    assert s.legal_moves() == []


def test_s8_no_stack_but_reserve_continues_and_must_deploy_or_hunker() -> None:
    s = state("5/5/5/5/L4 D 0,10,2/0,10,0 - - - 30")
    assert s.outcome is None
    assert s.legal_moves() == ["H", "R@b1", "R@c1", "R@d1", "R@e1"]


# -- §9 draw rules and caps -------------------------------------------------------------


def test_s9_second_forced_pass_draws_at_once() -> None:
    s = state("DDDDD/5/5/5/5 L 0,5,0/0,10,1 L - p 51")
    assert s.outcome is not None
    assert s.outcome.termination is Termination.FORCED_PASSES
    assert s.outcome.results == (Result.DRAW, Result.DRAW)


def test_s9_repetition_draw_at_the_third_occurrence() -> None:
    cycle = "H H a1-b1 a5-b5 H H b1-a1 b5-a5"
    s = after(state("L4/5/5/5/D4 D 0,10,0/0,10,0 - - - 20"), f"{cycle} {cycle} H")
    assert s.outcome is None
    s = after(s, "H")
    assert s.outcome is not None
    assert s.outcome.termination is Termination.REPETITION
    assert s.ply == 38
    off = state("L4/5/5/5/D4 D 0,10,0/0,10,0 - - - 20", repetition_draw=0)
    assert after(off, f"{cycle} {cycle} H H").outcome is None


def test_s9_ply_cap_counts_setup_plies() -> None:
    s = boardlab.make("carnyx", max_plies=4).new_initial_state()
    s.play("@a1")
    s.play("@a5")
    s.play("@a1")
    assert s.outcome is None
    s.play("@a5")
    assert s.outcome is not None
    assert s.outcome.termination is Termination.PLY_CAP


# -- §12 options ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("allow_merge", "yes"),
        ("jump_own", 1),
        ("no_return", "never"),
        ("conversion", "coins"),
        ("single_exit", "board"),
        ("repetition_draw", -1),
        ("max_plies", "x"),
        ("board", "7x7"),
    ],
)
def test_s12_bad_options_are_rejected(key: str, value: object) -> None:
    with pytest.raises(OptionError, match=rf"^(option {key}: bad value|unknown option '{key}')"):
        boardlab.make("carnyx", **{key: value})


def test_s12_options_are_recorded_with_defaults() -> None:
    game = boardlab.make("carnyx", no_return="strict")
    assert game.option_items() == [
        ("allow_merge", "true"),
        ("jump_own", "false"),
        ("no_return", "strict"),
        ("conversion", "supply"),
        ("single_exit", "immediate"),
        ("repetition_draw", "3"),
        ("max_plies", "300"),
    ]
