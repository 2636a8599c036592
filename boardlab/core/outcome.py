"""The end of a game: a result for every player and the reason the game ended."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Result(Enum):
    """One player's result in a finished game."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"


class Termination(Enum):
    """Why a game ended (rules README §6.2); each game uses the reasons that apply to it.

    The last three come from outside the moves: a resignation, a player out of time and a
    draw agreed by the players (``docs/records.md``).
    """

    ALL_CAPTURED = "all_captured"
    EXHAUSTION = "exhaustion"
    HOME_ROW = "home_row"
    STALEMATE = "stalemate"
    LAST_FORTIFICATIONS = "last_fortifications"
    KING_CAPTURED = "king_captured"
    PLACEMENTS_COMPLETE = "placements_complete"
    FORCED_PASSES = "forced_passes"
    REPETITION = "repetition"
    NO_CAPTURE = "no_capture"
    PLY_CAP = "ply_cap"
    RESIGNATION = "resignation"
    TIMEOUT = "timeout"
    AGREEMENT = "agreement"

    @property
    def label(self) -> str:
        """A human-readable phrase, e.g. ``home row reached``."""
        return _LABELS[self]

    @property
    def reason(self) -> str:
        """Why the game ended as a sentence for players, with ``{winners}`` and ``{losers}``
        standing for seat names, e.g. ``{losers} resigned.``"""
        return _REASONS[self]


_LABELS = {
    Termination.ALL_CAPTURED: "all stacks captured",
    Termination.EXHAUSTION: "no stack and no reserve left",
    Termination.HOME_ROW: "home row reached",
    Termination.STALEMATE: "no move left",
    Termination.LAST_FORTIFICATIONS: "last Fortifications standing",
    Termination.KING_CAPTURED: "King captured",
    Termination.PLACEMENTS_COMPLETE: "placements complete",
    Termination.FORCED_PASSES: "no side could move",
    Termination.REPETITION: "repetition",
    Termination.NO_CAPTURE: "too long without a capture",
    Termination.PLY_CAP: "move limit reached",
    Termination.RESIGNATION: "resignation",
    Termination.TIMEOUT: "out of time",
    Termination.AGREEMENT: "draw agreed",
}

_REASONS = {
    Termination.ALL_CAPTURED: "{losers} lost every stack.",
    Termination.EXHAUSTION: "{losers} had no stack on the board and none left to bring in.",
    Termination.HOME_ROW: "{winners} reached the far home row.",
    Termination.STALEMATE: "{losers} had no move left, and a side that cannot move loses.",
    Termination.LAST_FORTIFICATIONS: "{winners} kept the last Fortifications standing.",
    Termination.KING_CAPTURED: "{losers} lost their King.",
    Termination.PLACEMENTS_COMPLETE: "Every placement was made; the higher score wins.",
    Termination.FORCED_PASSES: "No side could move any more.",
    Termination.REPETITION: "The same position came back again.",
    Termination.NO_CAPTURE: "Too many turns went by without a capture.",
    Termination.PLY_CAP: "The game reached its move limit.",
    Termination.RESIGNATION: "{losers} resigned.",
    Termination.TIMEOUT: "{losers} ran out of time.",
    Termination.AGREEMENT: "The players agreed to a draw.",
}

_REWARD = {Result.WIN: 1.0, Result.DRAW: 0.0, Result.LOSS: -1.0}


@dataclass(frozen=True)
class Outcome:
    """Per-player results (indexed by seat), the termination reason, and scores if any."""

    results: tuple[Result, ...]
    termination: Termination
    scores: tuple[int, ...] | None = None

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats that won (empty for a shared draw)."""
        return tuple(i for i, r in enumerate(self.results) if r is Result.WIN)

    def rewards(self) -> tuple[float, ...]:
        """+1 for a win, 0 for a draw, -1 for a loss, per seat."""
        return tuple(_REWARD[r] for r in self.results)

    @classmethod
    def win_for(cls, winner: int, players: int, termination: Termination) -> Outcome:
        """One seat wins, every other seat loses."""
        results = tuple(Result.WIN if i == winner else Result.LOSS for i in range(players))
        return cls(results, termination)

    @classmethod
    def draw(cls, players: int, termination: Termination) -> Outcome:
        """Every seat draws."""
        return cls((Result.DRAW,) * players, termination)

    def describe(self, player_names: tuple[str, ...]) -> str:
        """E.g. ``Romans won (home row reached)`` or ``draw (repetition)``."""
        winners = self.winners
        head = " and ".join(player_names[i] for i in winners) + " won" if winners else "draw"
        text = f"{head} ({self.termination.label})"
        if self.scores is not None:
            score = ", ".join(f"{n} {s}" for n, s in zip(player_names, self.scores, strict=True))
            text += f"; score {score}"
        return text
