"""Human ratings in the store: each account's rating per game and speed, every change kept, and
each rated match rated once.

A rating is an OpenSkill skill (``mu``, ``sigma``) and the number of rated games behind it.
:meth:`SqlRatings.rate_match` reads the players' ratings, computes the new ones and writes
them, with one row in ``rating_changes`` per player and the match in ``rated_matches``, in one
transaction: a match told twice (or by two server processes) is rated once, since the second
finds it in ``rated_matches``, or loses the race on its key and is rolled back whole.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Literal, Protocol

from boardlab.web.migrations import Run

Speed = Literal["realtime", "correspondence"]
RATE_ATTEMPTS = 3
"""Tries of a rating whose transaction lost a race on a new player's row (PostgreSQL)."""


@dataclass(frozen=True)
class Skill:
    """A rating: OpenSkill's mean and uncertainty, and the rated games it rests on."""

    mu: float
    sigma: float
    games: int = 0


@dataclass(frozen=True)
class PlayerRating:
    """An account's rating in one game at one speed, as of ``updated``."""

    game: str
    speed: Speed
    skill: Skill
    updated: str


@dataclass(frozen=True)
class RatingChange:
    """An account's rating in ``game`` at ``speed`` right after the rated match ``match_id``
    ended at ``at``."""

    match_id: str
    game: str
    speed: Speed
    at: str
    skill: Skill


Update = Callable[[Sequence[Skill]], Sequence[Skill]]
"""The new skills of a match's players (in seat order) from their skills before it."""


class RatingStore(Protocol):
    """The store's calls for human ratings."""

    def rate_match(
        self,
        match_id: str,
        game: str,
        speed: Speed,
        at: str,
        accounts: Sequence[str],
        update: Update,
        start: Skill,
    ) -> bool:
        """Rate the match's ``accounts`` (in seat order) by ``update`` of their current
        skills (``start`` for a first game), atomically; False (nothing changed) if the match
        was rated already."""

    def ratings(self, account_id: str) -> list[PlayerRating]:
        """The account's ratings, by game then speed."""

    def rating_changes(self, account_id: str, limit: int) -> list[RatingChange]:
        """The account's last ``limit`` rating changes, oldest first."""


class SqlRatings:
    """:class:`RatingStore` over a backend's transactions (a mixin of ``SqlStore``)."""

    conflicts: tuple[type[Exception], ...]
    row_lock: str

    @abstractmethod
    def _transaction(self, reading: bool = False) -> AbstractContextManager[Run]:
        """A transaction (a snapshot that only reads, when ``reading``)."""

    def rate_match(
        self,
        match_id: str,
        game: str,
        speed: Speed,
        at: str,
        accounts: Sequence[str],
        update: Update,
        start: Skill,
    ) -> bool:
        """Read, update and write the players' ratings and mark the match rated, in one
        transaction that holds the players' rows (tried again if a new player's first row was
        written meanwhile by another process)."""
        for attempt in range(RATE_ATTEMPTS):
            try:
                return self._rate_once(match_id, game, speed, at, accounts, update, start)
            except self.conflicts:
                if attempt == RATE_ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")

    def _rate_once(
        self,
        match_id: str,
        game: str,
        speed: Speed,
        at: str,
        accounts: Sequence[str],
        update: Update,
        start: Skill,
    ) -> bool:
        with self._transaction() as run:
            if run("SELECT 1 FROM rated_matches WHERE match_id = ?", (match_id,)):
                return False
            run("INSERT INTO rated_matches (match_id, at) VALUES (?, ?)", (match_id, at))
            before = []
            for account in accounts:
                rows = run(
                    "SELECT mu, sigma, games FROM ratings WHERE account_id = ? AND game = ? "
                    f"AND speed = ?{self.row_lock}",
                    (account, game, speed),
                )
                before.append(
                    Skill(float(rows[0][0]), float(rows[0][1]), int(rows[0][2])) if rows else start
                )
            after = update(before)
            for account, skill in zip(accounts, after, strict=True):
                games = skill.games
                run(
                    "INSERT INTO ratings (account_id, game, speed, mu, sigma, games, updated) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account_id, game, speed) DO UPDATE "
                    "SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, "
                    "updated = excluded.updated",
                    (account, game, speed, skill.mu, skill.sigma, games, at),
                )
                run(
                    "INSERT INTO rating_changes (account_id, match_id, game, speed, at, mu, "
                    "sigma, games) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (account, match_id, game, speed, at, skill.mu, skill.sigma, games),
                )
        return True

    def ratings(self, account_id: str) -> list[PlayerRating]:
        """The account's ratings, by game then speed."""
        with self._transaction(reading=True) as run:
            rows = run(
                "SELECT game, speed, mu, sigma, games, updated FROM ratings "
                "WHERE account_id = ? ORDER BY game, speed",
                (account_id,),
            )
        return [
            PlayerRating(game, speed, Skill(float(mu), float(sigma), int(games)), updated)
            for game, speed, mu, sigma, games, updated in rows
        ]

    def rating_changes(self, account_id: str, limit: int) -> list[RatingChange]:
        """The account's last ``limit`` changes, oldest first."""
        with self._transaction(reading=True) as run:
            rows = run(
                "SELECT match_id, game, speed, at, mu, sigma, games FROM rating_changes "
                "WHERE account_id = ? ORDER BY at DESC, match_id DESC LIMIT ?",
                (account_id, limit),
            )
        return [
            RatingChange(match, game, speed, at, Skill(float(mu), float(sigma), int(games)))
            for match, game, speed, at, mu, sigma, games in reversed(rows)
        ]
