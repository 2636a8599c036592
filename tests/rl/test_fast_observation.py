"""The fast encoders give the reference planes bit for bit, at every position, for every seat."""

from __future__ import annotations

import random
from typing import Any

import pytest

from boardlab.core.registry import game_ids, make
from boardlab.rl import observation_encoder
from boardlab.rl.fast import FAST_ENCODERS
from boardlab.rl.fast.base import FastEncoder
from tests.rl.cases import SMALL_ARMY

OPTION_CASES: list[tuple[str, dict[str, Any]]] = [
    ("carnyx", {"max_plies": 80}),
    ("carnyx", {"conversion": "token", "single_exit": "reserve", "max_plies": 80}),
    ("murus-gallicus", {"board": "8x7", "max_plies": 60}),
    ("murus-gallicus", {"board": "8x8", "max_plies": 60}),
    ("murus-gallicus", {"board": "8x8_two_rows", "max_plies": 60}),
    *[("colosseum-offcuts", {"players": n, "no_capture_rounds": 3}) for n in range(2, 6)],
    ("colosseum-offcuts", {"players": 3, "mobile_move": "slide", "no_capture_rounds": 3}),
    ("anacund", {}),
    ("anacund", {"layout": "l0", "track": "open", "bonus_points": 3}),
    ("cyvasse", {"army": SMALL_ARMY, "max_plies": 60}),
    ("cyvasse", {"max_plies": 50}),
    ("cyvasse", {"army": SMALL_ARMY, "hidden_setup": False, "max_plies": 40}),
]
"""Every game, every Colosseum seat count, and the options that change what is on the board:
Murus Gallicus' boards, Carnyx's pools under other conversion and exit rules, Anacund's fixed
layout and scores, Cyvasse's armies with hidden and open deployment."""


@pytest.mark.parametrize(
    ("game", "options"),
    OPTION_CASES,
    ids=[f"{game}-{'-'.join(map(str, options.values()))}" for game, options in OPTION_CASES],
)
def test_fast_planes_equal_the_reference_through_random_games(
    game: str, options: dict[str, Any]
) -> None:
    positions = 0
    for seed in range(3):
        made = make(game, **({"seed": seed} if game in ("anacund", "cyvasse") else {}), **options)
        encoder = observation_encoder(made)
        assert isinstance(encoder, FastEncoder)
        rng = random.Random(seed)
        state = made.new_initial_state()
        while True:
            for seat in range(made.num_players):
                fast, reference = encoder.encode(state, seat), encoder.reference(state, seat)
                assert fast.dtype == reference.dtype
                assert fast.shape == reference.shape
                assert fast.tobytes() == reference.tobytes(), (state.position_text(), seat)
            positions += 1
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
    assert positions > 60


def test_every_game_has_a_fast_encoder() -> None:
    assert set(FAST_ENCODERS) == set(game_ids())
