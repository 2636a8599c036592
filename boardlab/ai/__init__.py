"""Bots behind one interface; they use only the game protocol."""

from boardlab.ai.base import Bot
from boardlab.ai.players import HUMAN, make_bot

__all__ = ["HUMAN", "Bot", "make_bot"]
