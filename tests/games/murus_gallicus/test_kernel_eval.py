"""Murus Gallicus's compiled evaluation equals the reference heuristic, on every board."""

from __future__ import annotations

import random

import pytest

import boardlab

pytest.importorskip("numba")

from boardlab.core.engine import kernel_for
from boardlab.games.murus_gallicus.kernel_eval import evaluate


@pytest.mark.parametrize("board", ["8x7", "8x8", "8x8_two_rows"])
def test_equals_the_heuristic_at_random_positions(board: str) -> None:
    game = boardlab.make("murus-gallicus", board=board)
    kernel = kernel_for(game)
    assert kernel is not None
    rng = random.Random(board)
    checked = 0
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            s = kernel.encode(state)
            for seat in (0, 1):
                assert evaluate(kernel.params, s, seat) == state.heuristic(seat), (
                    state.position_text()
                )
            checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 200
