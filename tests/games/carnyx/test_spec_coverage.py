"""Rules of the Carnyx spec that the other rule tests leave out, one test each (audit).

Each test names the spec section (rules/carnyx.md) it states and builds its own position.
"""

from __future__ import annotations

from boardlab.core.outcome import Result, Termination
from tests.games.carnyx.helpers import after, state


def test_s5_s7_4_protection_leaves_merges_and_exit_jumps_legal() -> None:
    """§5 step 3, §7.4: only moves ending on the protected side's squares are excluded."""
    merges = state("L4/5/5/5/DD3 D 0,10,0/0,10,0 L - - 20")
    assert {"a1-b1", "b1-a1"} <= set(merges.legal_moves())
    exit_over = state("2L2/2(DD)2/5/5/4L D 0,10,0/0,10,0 L - - 20")
    assert "c4-off" in exit_over.legal_moves()


def test_s7_1_capture_earns_no_extra_move_and_s7_7_marker_clears() -> None:
    """§7.1: after a capture the opponent moves; §7.7: the next non-capture ply clears ``x``."""
    s = after(state("L4/5/1L3/1D3/4D D 0,10,0/0,10,0 - - - 20"), "b2xb3")
    assert s.current_player == 1
    assert s.marker == "x"
    s = after(s, "a5-a4")
    assert s.marker == ""


def test_s7_3_merge_ending_on_the_centre_is_rewarded() -> None:
    """§7.3: a merge that ends on c3 moves one piece from supply to reserve."""
    s = after(state("L4/5/2D2/2D2/D4 D 0,10,0/0,10,0 - - - 20"), "c2-c3")
    assert s.position_text() == "L4/5/2(DD)2/5/D4 L 0,9,1/0,10,0 - c2-c3 - 21"


def test_s7_6_merge_takes_the_movers_memory_under_strict() -> None:
    """§7.6 step 2: merging into a stack replaces that square's entry with the mover's."""
    s = state("L4/5/5/1DD2/5 D 0,10,0/0,10,0 - a2-b2 - 20", no_return="strict")
    assert "b2-a2" not in s.legal_moves()
    s = after(s, "c2-b2")
    assert s.position_text() == "L4/5/5/1(DD)3/5 L 0,10,0/0,10,0 - c2-b2 - 21"


def test_s7_6_exit_deletes_the_entry_of_its_square_only() -> None:
    """§7.6 step 3: a stack exit from X deletes the entry to X; others stay (strict mode)."""
    s = state("L4/2(DD)2/5/5/D4 D 0,10,0/0,10,0 - b4-c4,b5-a5 - 20", no_return="strict")
    s = after(s, "c4-off")
    assert s.position_text() == "L4/5/5/5/D4 L 0,10,2/0,10,0 - b5-a5 - 21"


def test_s7_6_deploy_and_hunker_add_no_memory() -> None:
    """§7.6 step 4: deployments and ``H`` add nothing to the memory."""
    s = after(state("L4/5/5/5/D4 D 0,9,1/0,10,0 - - - 20"), "R@b1 H")
    assert s.position_text() == "L4/5/5/5/DD3 D 0,9,0/0,10,0 L - - 22"


def test_c6_deployment_onto_own_stack_ignores_allow_merge() -> None:
    """§13 C6: a deployment may go onto an own-controlled square even with allow_merge=false."""
    s = state("L4/5/5/5/D4 D 0,9,1/0,10,0 - - - 20", allow_merge=False)
    assert "R@a1" in s.legal_moves()
    assert after(s, "R@a1").position_text() == "L4/5/5/5/(DD)4 L 0,9,0/0,10,0 - - - 21"


def test_s8_no_end_check_during_setup() -> None:
    """§8: a player with no stack and no reserve is not lost while the setup phase lasts."""
    s = state("5/5/5/5/2D2 L 2,10,0/3,10,0 - - - 1")
    assert s.outcome is None
    assert s.legal_moves() == ["@a5", "@b5", "@c5", "@d5", "@e5"]


def test_s9_capture_win_is_checked_before_the_ply_cap() -> None:
    """§9 / README §6.2: on the capping ply the game's own end condition gives the reason."""
    s = after(state("5/5/2L2/2D2/D4 D 0,9,0/0,8,2 - - - 30", max_plies=31), "c2xc3")
    assert s.outcome is not None
    assert s.outcome.termination is Termination.ALL_CAPTURED
    assert s.outcome.results == (Result.WIN, Result.LOSS)


def test_s12_max_plies_default_300_and_zero_turns_it_off() -> None:
    """§12 max_plies: drawn when the counter reaches 300 by default; 0 = off."""
    text = "L4/5/5/5/D4 D 0,10,0/0,10,0 - - - 300"
    capped = state(text)
    assert capped.outcome is not None
    assert capped.outcome.termination is Termination.PLY_CAP
    assert state(text, max_plies=0).outcome is None
    assert state("L4/5/5/5/D4 D 0,10,0/0,10,0 - - - 298").outcome is None


def test_s12_repetition_draw_counts_to_the_given_value() -> None:
    """§12 repetition_draw=2: the second occurrence of a position is a draw."""
    cycle = "H H a1-b1 a5-b5 H H b1-a1 b5-a5"
    start = state("L4/5/5/5/D4 D 0,10,0/0,10,0 - - - 20", repetition_draw=2)
    s = after(start, f"{cycle} H")
    assert s.outcome is None
    s = after(s, "H")  # "L4/5/5/5/D4 D 0,10,0/0,10,0 DL - -" for the second time
    assert s.outcome is not None
    assert s.outcome.termination is Termination.REPETITION
    assert s.ply == 30
