"""The repetition history a reference state hands to the kernel holds the positions of both
sides to move: a cycle that comes back to a position with the Gauls to move is drawn on time
too (``test_kernel.py`` draws one that comes back with the Romans to move)."""

from __future__ import annotations

import pytest

pytest.importorskip("numba")

import boardlab
from boardlab.core.engine_check import compare
from boardlab.games.murus_gallicus import kernel as mg
from tests.games.murus_gallicus.test_kernel import ROMAN_CYCLE

GAULS_FIRST = "GG6/8/8/8/8/8/RR6 G 0"
CYCLE = [m for r in ROMAN_CYCLE for m in (r.replace("1", "7"), r)]


@pytest.mark.parametrize("encoded_after", [1, 6, 7, 11])
def test_a_gaulish_cycle_encoded_midway_is_drawn_on_time(encoded_after: int) -> None:
    game = boardlab.make("murus-gallicus", repetition_draw=2)
    kernel = mg.make_kernel(game)
    state = game.state_from_text(GAULS_FIRST)
    for move in CYCLE[:encoded_after]:
        state.play(move)
    s = kernel.encode(state)
    for move in CYCLE[encoded_after:]:
        action = state.parse_action(move)
        state.apply_action(action)
        kernel.apply(kernel.params, s, action)
        compare(kernel, state, s, move)
    assert kernel.is_over(kernel.params, s) and state.is_terminal()
