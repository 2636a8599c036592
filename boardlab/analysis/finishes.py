"""How a game ended for its players, as a ranking: the input of ratings and crosstables."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from boardlab.core.outcome import Result

RANK = {Result.WIN: 0, Result.DRAW: 1, Result.LOSS: 2}
"""Finishing rank of a result: winners first, then drawn seats, then losers; equal is a tie."""


@dataclass(frozen=True)
class Finish:
    """How one game ended for the players in it: a player label and a rank per seat."""

    players: tuple[str, ...]
    ranks: tuple[int, ...]
    """0 is first; seats with equal ranks tied."""

    @classmethod
    def from_results(cls, players: Sequence[str], results: Sequence[Result]) -> Finish:
        """The finish of a game with ``results[seat]`` for ``players[seat]``."""
        return cls(tuple(players), tuple(RANK[result] for result in results))


def pair_score(ranks: Sequence[int], a: int, b: int) -> float:
    """Seat ``a``'s score against seat ``b`` in one game: 1 ahead, 0.5 tied, 0 behind."""
    if ranks[a] == ranks[b]:
        return 0.5
    return 1.0 if ranks[a] < ranks[b] else 0.0
