"""Helpers shared by this game's tests."""

from __future__ import annotations

from boardlab.games.murus_gallicus.state import MurusGallicusState


def moves_of(position: MurusGallicusState, origin: str) -> list[str]:
    return [m for m in position.legal_moves() if m.startswith(origin)]
