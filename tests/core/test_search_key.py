"""``State.search_key()``: equal exactly when the position texts are equal, in every game."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.core.registry import game_ids


@pytest.mark.parametrize("game_id", game_ids())
def test_keys_are_equal_exactly_when_texts_are(game_id: str) -> None:
    game = boardlab.make(game_id)
    rng = random.Random(game_id)
    keys: dict[object, str] = {}
    texts: dict[str, object] = {}
    for _ in range(12):
        state = game.new_initial_state()
        while not state.is_terminal() and state.ply < 60:
            key, text = state.search_key(), state.position_text()
            assert keys.setdefault(key, text) == text
            assert texts.setdefault(text, key) == key
            # The same position at another ply: a different text wants a different key.
            later = state.clone()
            later.ply += 2
            if later.position_text() != text:
                assert later.search_key() != key
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(keys) > 100
