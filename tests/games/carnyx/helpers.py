"""Helpers shared by this game's tests."""

from __future__ import annotations

import boardlab
from boardlab.games.carnyx import CarnyxState


def state(text: str, **options: object) -> CarnyxState:
    """A state from a position text under the given options."""
    result = boardlab.make("carnyx", **options).state_from_text(text)
    assert isinstance(result, CarnyxState)
    return result


def after(start: CarnyxState, moves: str) -> CarnyxState:
    """A copy of ``start`` with the space-separated ``moves`` played."""
    new = start.clone()
    for move in moves.split():
        new.play(move)
    return new
