"""Helpers shared by this game's tests."""

from __future__ import annotations

import boardlab
from boardlab.games.anacund import Anacund


def l0(**options: object) -> Anacund:
    game = boardlab.make("anacund", layout="l0", **options)
    assert isinstance(game, Anacund)
    return game
