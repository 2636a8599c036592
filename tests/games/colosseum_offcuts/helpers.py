"""Helpers shared by this game's tests."""

from __future__ import annotations

from boardlab.core.registry import make
from boardlab.games.colosseum_offcuts import ColosseumState

GAME_ID = "colosseum-offcuts"


def state(text: str, **options: object) -> ColosseumState:
    """A state parsed from a position text under the given options."""
    parsed = make(GAME_ID, **options).state_from_text(text)
    assert isinstance(parsed, ColosseumState)
    return parsed
