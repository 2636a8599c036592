"""The Colosseum Offcuts evaluation knows whose turn it is, and the bots use it.

A turn is two actions, so the side to move can capture with an Attack-mode Fortification
beside an enemy one, or, with both actions left, flip a lone Mobile one first. A search that
stops at the start of the opponent's turn must see that, else it leaves its Fortifications
where they are taken at once (issue 21: the compiled ``expert`` at two seats).
"""

from __future__ import annotations

import pytest

from boardlab.ai import make_bot
from boardlab.games.colosseum_offcuts import ColosseumState
from boardlab.games.colosseum_offcuts.evaluation import PENDING
from tests.games.colosseum_offcuts.helpers import state

# P1's Fortification on 0,1 faces P2's on 1,1, both lone and Mobile; no other Fortification
# touches an enemy one.
FACING = "2 -1,-1=1f/-1,0=1b/0,0=1b/0,1=1f/1,0=2b/1,1=2f/2,-1=2f/2,0=2b {side} {step} 3 0 20"


def test_the_side_to_move_with_both_actions_strikes_first() -> None:
    """Facing lone Mobile Fortifications: the side to move flips and captures."""
    p1_to_move = state(FACING.format(side=1, step="-"))
    p2_to_move = state(FACING.format(side=2, step="-"))
    assert p1_to_move.heuristic(0) == pytest.approx(0.7 * PENDING * 0.5)
    assert p1_to_move.heuristic(1) == pytest.approx(-0.7 * PENDING * 0.5)
    assert p2_to_move.heuristic(0) == pytest.approx(-0.7 * PENDING * 0.5)
    assert p2_to_move.heuristic(1) == pytest.approx(0.7 * PENDING * 0.5)


def test_one_action_left_is_not_enough_to_flip_and_capture() -> None:
    """Mid-turn, a lone Mobile Fortification cannot flip and capture with one action."""
    mid_turn = state(
        "2 -1,-1=1F/-1,0=1b/0,0=1b/0,1=1f/1,0=2b/1,1=2f/2,-1=2f/2,0=2b 1 f-1,-1 3 0 20"
    )
    assert mid_turn.heuristic(0) == 0.0
    assert mid_turn.heuristic(1) == 0.0


def test_an_attack_mode_fortification_captures_with_the_last_action() -> None:
    """Mid-turn, the mover's Attack-mode Fortification beside an enemy one is a capture now;
    the same threat is worth 0.1 only when the other side is to move."""
    mover = state("2 -1,-1=1f/-1,0=1b/0,0=1b/0,1=1F/1,0=2b/1,1=2f/2,-1=2F/2,0=2b 1 f0,1 3 0 20")
    waiting = state("2 -1,-1=1f/-1,0=1b/0,0=1b/0,1=1F/1,0=2b/1,1=2f/2,-1=2F/2,0=2b 2 f2,-1 3 0 20")
    assert mover.heuristic(0) == pytest.approx(0.1 + 0.7 * PENDING * 0.5)
    # P2 to move with one action: its Mobile Fortification cannot strike, P1's threat stays.
    assert waiting.heuristic(0) == pytest.approx(0.1)


def _loses_a_fortification(position: ColosseumState, action: int) -> bool:
    """Whether, after ``action`` ends the mover's turn, the opponent's turn can capture."""
    mover = position.current_player
    child = position.child(action)
    assert not child.is_terminal() and child.current_player != mover
    forts = child.forts[mover]
    for first in child.legal_actions():
        after = child.child(first)
        if after.forts[mover] < forts:
            return True
        if (
            not after.is_terminal()
            and after.current_player == child.current_player
            and any(after.child(second).forts[mover] < forts for second in after.legal_actions())
        ):
            return True
    return False


@pytest.mark.parametrize(
    "spec",
    ["greedy", "alphabeta:depth=1", "alphabeta:depth=1,compiled=false", "alphabeta:depth=2"],
)
def test_the_last_action_of_a_turn_does_not_leave_a_fortification_to_be_taken(spec: str) -> None:
    """P1's second action: flipping its Fortification looks like a threat of its own, but P2
    flips too and captures first; moving it away is safe (checked by brute force)."""
    position = state(
        "2 -1,-1=1F/-1,0=1b/0,0=1b/0,1=1f/1,0=2b/1,1=2f/2,-1=2f/2,0=2b 1 f-1,-1 3 0 20"
    )
    actions = position.legal_actions()
    safe = {a for a in actions if not _loses_a_fortification(position, a)}
    assert safe and len(safe) < len(actions)  # the position holds the tactic
    game = position.game
    for seed in (1, 2, 3):
        bot = make_bot(spec, game, seed)
        assert bot is not None
        choice = bot.choose(position.view_state(0))
        assert choice in safe, position.action_to_str(choice)


def test_a_fortification_that_holds_the_footprint_together_cannot_strike() -> None:
    """P1's Mobile Fortification on 2,2 touches only P2's on 2,1: P2 to move cannot take it,
    since 2,1 may not leave its cell without cutting 2,2 off (§6.2), so no capture is pending
    (checked by brute force); P1's own Fortification there may leave, and is free to flip and
    capture next turn."""
    position = state("2 -1,0=1b/-1,2=1f/0,0=1b/0,1=2b/0,2=2b/1,1=2f/2,1=2f/2,2=1f 2 - 1 0 9")
    for first in position.legal_actions():
        after = position.child(first)
        assert after.forts[0] == 2
        assert all(after.child(second).forts[0] == 2 for second in after.legal_actions())
    assert position.heuristic(0) == 0.0
    assert position.heuristic(1) == 0.0
    p1_to_move = state("2 -1,0=1b/-1,2=1f/0,0=1b/0,1=2b/0,2=2b/1,1=2f/2,1=2f/2,2=1f 1 - 1 0 9")
    assert p1_to_move.heuristic(0) == pytest.approx(0.7 * PENDING * 0.5)
