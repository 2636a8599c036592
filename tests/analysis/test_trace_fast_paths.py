"""The shortcuts the lab's trace takes give exactly what the slow, general way gives.

``State.heuristics`` (every seat's evaluation at once) must equal ``heuristic`` seat by seat,
and ``State.occupancy`` (pieces and cells per seat) must equal the summary of the render model,
in every position of random games: Murus Gallicus overrides both for speed.
"""

from __future__ import annotations

import random

import pytest

from boardlab.core.registry import game_ids, make
from boardlab.core.render_model import Occupancy


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("options", [{}, {"board": "8x8"}])
def test_fast_evaluations_and_occupancy_match_the_general_way(
    game_id: str, options: dict[str, str]
) -> None:
    if options and game_id != "murus-gallicus":
        pytest.skip("board sizes are a Murus Gallicus option")
    game = make(game_id, **options)
    rng = random.Random(7)
    for _ in range(3):
        state = game.new_initial_state()
        while True:
            slow = [state.heuristic(seat) for seat in range(game.num_players)]
            assert state.heuristics() == pytest.approx(slow, abs=1e-12)
            model = state.render_model()
            assert state.occupancy() == Occupancy.of(model, game.num_players)
            if state.is_terminal() or state.ply >= 120:
                break
            state.apply_action(rng.choice(state.legal_actions()))
