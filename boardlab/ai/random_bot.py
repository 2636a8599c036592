"""The random bot: a uniformly random legal decision, the same on either engine."""

from __future__ import annotations

import random

from boardlab.ai.base import Bot
from boardlab.core.state import State


class RandomBot(Bot):
    """Chooses uniformly among the legal decisions.

    The choice is drawn from the legal action ids in ascending order, not in the order the
    engine lists them: the compiled engine lists them in another order than the reference, and a
    seeded random bot must choose the same decisions on both (the lab's and the tournaments'
    results are then the same with and without the ``fast`` extra).
    """

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, "random")
        self._rng = random.Random(seed)

    def _choose(self, state: State) -> int:
        """A uniformly random legal action id."""
        return self.choose_among(state.legal_actions())

    def generator_state(self) -> tuple[int, ...]:
        """The Mersenne Twister state of the bot's generator: its 624 words and position (what
        ``random.Random.getstate`` holds), for a compiled game loop that draws as it would."""
        words: tuple[int, ...] = self._rng.getstate()[1]
        return words

    def choose_among(self, actions: list[int]) -> int:
        """A uniformly random one of ``actions`` (the legal action ids in any order; sorted in
        place): what :meth:`choose` plays, for a caller that has the legal ids but no State,
        such as a game loop on the compiled engine."""
        actions.sort()
        return self._rng.choice(actions)
