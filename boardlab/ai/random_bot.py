"""The random bot: a uniformly random legal decision."""

from __future__ import annotations

import random

from boardlab.ai.base import Bot
from boardlab.core.state import State


class RandomBot(Bot):
    """Chooses uniformly among the legal decisions."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, "random")
        self._rng = random.Random(seed)

    def _choose(self, state: State) -> int:
        """A uniformly random legal action id."""
        return self._rng.choice(state.legal_actions())
