"""Colosseum Offcuts: 2-5 players lay, stack and flip counters on an unbounded square grid."""

from boardlab.games.colosseum_offcuts.game import ColosseumOffcuts
from boardlab.games.colosseum_offcuts.state import ColosseumState

__all__ = ["ColosseumOffcuts", "ColosseumState"]
