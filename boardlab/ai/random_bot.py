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
        # The seed while the generator has not drawn: a compiled loop can seed its own copy
        # rather than copy the 625-word state (which costs more than a random game's decisions).
        self._fresh = seed if isinstance(seed, int) and 0 <= seed < 2**32 else None

    def _choose(self, state: State) -> int:
        """A uniformly random legal action id."""
        return self.choose_among(state.legal_actions())

    def in_preset(self) -> bool:
        """Whether the bot is playing a preset's decisions (it then needs reference states)."""
        return bool(self._plan)

    def generator(self) -> tuple[int, ...] | int:
        """What a compiled game loop needs to draw as this bot would: the seed of a generator
        that has not drawn yet (an int below 2**32), else its Mersenne Twister state (624 words
        and the position, as ``random.Random.getstate`` holds it)."""
        if self._fresh is not None:
            return self._fresh
        words: tuple[int, ...] = self._rng.getstate()[1]
        return words

    def choose_among(self, actions: list[int]) -> int:
        """A uniformly random one of ``actions`` (the legal action ids in any order; sorted in
        place): what :meth:`choose` plays, for a caller that has the legal ids but no State,
        such as a game loop on the compiled engine."""
        actions.sort()
        self._fresh = None
        return self._rng.choice(actions)
