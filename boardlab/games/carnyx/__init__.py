"""Carnyx (spec ``rules/carnyx.md``): a two-player stacking and capture game on a 5x5 board."""

from boardlab.games.carnyx.game import Carnyx
from boardlab.games.carnyx.state import CarnyxState

__all__ = ["Carnyx", "CarnyxState"]
