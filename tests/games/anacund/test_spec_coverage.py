"""Rules of the Anacund spec that the other rule tests leave out, one test each (audit).

Each test names the spec section (rules/anacund.md) it states and builds its own position.
"""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.core.errors import NotationError, PositionError
from boardlab.core.outcome import Termination
from boardlab.games.anacund import AnacundState

VALUES = "112312312312312324645645645645645653"


def at(squares_side_sub_groups: str, **options: object) -> AnacundState:
    """A state on the reference layout L0 from the last four fields of a position text."""
    game = boardlab.make("anacund", layout="l0", **options)
    result = game.state_from_text(f"{VALUES} 2 {squares_side_sub_groups}")
    assert isinstance(result, AnacundState)
    return result


def board(pieces: dict[int, str]) -> str:
    """A squares field with the given square -> character entries, the rest free."""
    return "".join(pieces.get(square, ".") for square in range(1, 37))


def spec_layout(seed: int) -> tuple[str, int]:
    """The values and bonus square drawn exactly as §4.2 describes, written independently."""
    rng = random.Random(seed)
    slats = [(1, 6)] * 5 + [(2, 5)] * 5 + [(3, 4)] * 5
    order = list(range(15))
    rng.shuffle(order)
    values = [0] * 36
    bonus = 0
    for column in range(2, 17):
        index = order[column - 2]
        top, bottom = slats[index]
        bonus_on_top = index == 0  # the bonus is on the slat's "1" cell, printed on top
        if rng.random() < 0.5:
            top, bottom = bottom, top
            bonus_on_top = not bonus_on_top
        values[column - 1] = top
        values[36 - column - 1] = bottom
        if index == 0:
            bonus = column if bonus_on_top else 36 - column
    x_slat, y_slat = (1, 3, 5), (2, 4, 6)
    ends = [x_slat, y_slat] if rng.random() < 0.5 else [y_slat, x_slat]
    for i in range(2):
        if rng.random() < 0.5:
            ends[i] = ends[i][::-1]
    # Column 1: top = square 1, middle = 36, bottom = 35; column 17: 17, 18, 19.
    values[0], values[35], values[34] = ends[0]
    values[16], values[17], values[18] = ends[1]
    return "".join(map(str, values)), bonus


@pytest.mark.parametrize("seed", range(40))
def test_s4_2_random_layout_follows_the_documented_draw_order(seed: int) -> None:
    """§4.2: shuffle, then per-column flips, then end-slat order, then end-slat reversals."""
    values, bonus = spec_layout(seed)
    text = boardlab.make("anacund", seed=seed).new_initial_state().position_text()
    assert text.split()[:2] == [values, str(bonus)]


def test_s7_blocked_square_does_not_flank_a_self_landlock() -> None:
    """§7, A9: A's piece between a B piece and a blocked square is not landlocked."""
    squares = board({20: "b", 22: "B", 25: "a", 28: "a", 31: "b", 34: "a"})
    state = at(f"{squares} A 0 654/555")
    state.play("5@21")
    assert state.position_text().split()[2] == board(
        {20: "b", 21: "a", 22: "B", 25: "a", 28: "a", 31: "b", 34: "a"}
    )


@pytest.mark.parametrize(
    "tail",
    ["B 0 000/000", "A 1 000/000", "B 2 000/000"],
)
def test_s11_finished_only_with_a_to_move_and_sub_step_0(tail: str) -> None:
    """§11: all groups empty is accepted only with A to move and sub-step 0."""
    with pytest.raises(PositionError, match="groups say A has placed 18 and B 18 pieces"):
        at(f"{'ba' * 18} {tail}")
    final = at(f"{'ba' * 18} A 0 000/000")
    assert final.outcome is not None
    assert final.outcome.termination is Termination.PLACEMENTS_COMPLETE


@pytest.mark.parametrize("text", ["pass", "stop"])
def test_s6_no_other_action_than_a_placement(text: str) -> None:
    """§6: there is no pass and no choice to stop; only ``k@s`` decisions exist."""
    state = at(f"{'.' * 36} A 0 666/666")
    with pytest.raises(NotationError, match=f"^malformed move '{text}': write size@square"):
        state.parse_action(text)
    assert all("@" in move for move in state.legal_moves())
