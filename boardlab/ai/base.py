"""The bot interface: given the acting player's view of a state, choose a legal decision."""

from __future__ import annotations

from abc import ABC, abstractmethod

from boardlab.core.state import State


class Bot(ABC):
    """A player that chooses decisions. Deterministic for a given seed."""

    spec: str
    """The player spec that made this bot, e.g. ``mcts:time=1.0``."""

    @abstractmethod
    def choose(self, state: State) -> int:
        """A legal action id for ``state``, which is the acting player's view (not over)."""
