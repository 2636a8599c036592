"""The bot interface: given the acting player's view of a state, choose a legal decision.

Budgets: a bot searches within an iteration or depth budget (deterministic for a seed) and/or
a time budget (not reproducible by nature). :class:`Deadline` is the shared clock.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod

from boardlab.core.state import State


class Bot(ABC):
    """A player that chooses decisions. Deterministic for a given seed and a non-time budget."""

    spec: str
    """The player spec that made this bot, e.g. ``mcts:time=1.0``."""

    @abstractmethod
    def choose(self, state: State) -> int:
        """A legal action id for ``state``, which is the acting player's view (not over)."""

    def stats(self) -> dict[str, float]:
        """Figures about the last :meth:`choose` (e.g. nodes, simulations, seconds)."""
        return {}


class Deadline:
    """A wall-clock limit; ``seconds=None`` (or <= 0) means no limit."""

    __slots__ = ("_end", "start")

    def __init__(self, seconds: float | None) -> None:
        self.start = time.perf_counter()
        self._end = self.start + seconds if seconds and seconds > 0 else None

    def passed(self) -> bool:
        """True once the limit has passed."""
        return self._end is not None and time.perf_counter() >= self._end

    def elapsed(self) -> float:
        """Seconds since the deadline was set."""
        return time.perf_counter() - self.start
