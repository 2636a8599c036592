"""A playtest's games as its evidence reads them: each game and each decision a person made.

Kept apart from :mod:`boardlab.web.playtest_stats`, whose statistics (SciPy) and the report's
plots (Matplotlib) take seconds to import: a server loads them when a dashboard is first asked
for, not at its start.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Decision:
    """One decision a person made: the seat, the ply it was made at, the turn (None while it
    is hidden from onlookers) and the seconds it took."""

    seat: int
    ply: int
    turn: str | None
    seconds: float


@dataclass
class Game:
    """One game of a variant: ``status`` is ``finished``, ``playing``, ``waiting`` (seats
    still open), ``aborted`` or ``abandoned``; ``results`` each seat's ``win``, ``loss`` or
    ``draw`` once finished; ``people`` the seats people played."""

    match_id: str
    variant: int
    seats: tuple[str, ...]
    people: tuple[int, ...]
    status: str
    results: tuple[str, ...] = ()
    termination: str = ""
    plies: int = 0
    decisions: list[Decision] = field(default_factory=list)
    refused: list[tuple[int, str, str]] = field(default_factory=list)
    """Each refused turn of the game: seat, what was typed, why."""
