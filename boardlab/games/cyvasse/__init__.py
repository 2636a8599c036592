"""Cyvasse: secret deployment, then hex-board combat to capture the enemy King."""

from boardlab.games.cyvasse.game import Cyvasse
from boardlab.games.cyvasse.state import CyvasseState

__all__ = ["Cyvasse", "CyvasseState"]
