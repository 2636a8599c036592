"""Player specs (``human``, ``random``, ``mcts:time=1.0``, ...) and the bots they make."""

from __future__ import annotations

from boardlab.ai.base import Bot
from boardlab.ai.random_bot import RandomBot
from boardlab.core.errors import OptionError
from boardlab.core.game import Game

HUMAN = "human"
KNOWN = (HUMAN, "random")


def make_bot(spec: str, game: Game, seed: int | None = None) -> Bot | None:
    """The bot a spec names, or None for ``human``; raises OptionError for a bad spec."""
    kind, _, params = spec.partition(":")
    if kind == HUMAN and not params:
        return None
    if kind == "random" and not params:
        return RandomBot(seed)
    raise OptionError(f"unknown player {spec!r}; players are: {', '.join(KNOWN)}")
