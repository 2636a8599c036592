"""Anacund: a two-player placement game on a ring of 36 valued squares (rules/anacund.md)."""

from boardlab.games.anacund.game import Anacund
from boardlab.games.anacund.state import AnacundState

__all__ = ["Anacund", "AnacundState"]
