"""The shortcuts the lab's trace takes give exactly what the slow, general way gives.

``State.heuristics`` (every seat's evaluation at once) must equal ``heuristic`` seat by seat,
and ``State.occupancy`` (pieces and cells per seat) must equal the summary of the render model,
in every position of random games: Murus Gallicus overrides both for speed.
"""

from __future__ import annotations

import random

import pytest

from boardlab.analysis import trace
from boardlab.analysis.trace import _ROUNDED, EVAL_DIGITS, ROUNDED_KEPT
from boardlab.core.registry import game_ids, make
from boardlab.core.render_model import Occupancy

CASES: list[tuple[str, dict[str, str]]] = [(game_id, {}) for game_id in game_ids()] + [
    ("murus-gallicus", {"board": "8x8"})
]
"""Every game with its defaults, and the Murus Gallicus board whose bitboards are wider."""


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_fast_evaluations_and_occupancy_match_the_general_way(
    game_id: str, options: dict[str, str]
) -> None:
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


def test_the_table_of_rounded_evaluations_rounds_as_round_does() -> None:
    rng = random.Random(3)
    values = [rng.uniform(-1, 1) for _ in range(2000)] + [0.00005, -0.00005, 0.12345, 1.0]
    assert [_ROUNDED[v] for v in values] == [round(v, EVAL_DIGITS) for v in values]
    assert [_ROUNDED[v] for v in values] == [round(v, EVAL_DIGITS) for v in values]  # kept
    assert len(_ROUNDED) <= ROUNDED_KEPT


def test_the_table_of_rounded_evaluations_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(trace, "ROUNDED_KEPT", 10)
    _ROUNDED.clear()  # values kept by earlier games would be found without growing it
    for k in range(25):
        assert _ROUNDED[k / 7] == round(k / 7, EVAL_DIGITS)
        assert len(_ROUNDED) <= 10
