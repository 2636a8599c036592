"""What the store keeps of playtests (issue 42), and the calls that keep it on both backends.

A playtest is a designer's settings (game, variants, who plays, survey; JSON text that
:mod:`boardlab.web.playtest` reads), the SHA-256 of its dashboard token and, optionally, the
account that owns it. Each of its matches is an ordinary match with a row naming its variant;
the seats still open for people wait in ``playtest_waiting`` until someone takes them. Of a
playtester nothing is kept but their games, the survey they answer (once per seat) and the
turns the server refused them (a count of rule-entry errors, with what was typed).
"""

from __future__ import annotations

import builtins
from abc import abstractmethod
from collections.abc import Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol

from boardlab.web.migrations import Run

MAX_REFUSALS = 200
"""Refused turns kept per match at most (more are only refused, not written down)."""
PLAYTEST_COLUMNS = "id, game, settings, token_hash, account_id, created, ends"


@dataclass(frozen=True)
class Playtest:
    """A playtest: its public id, game, settings as JSON text, the SHA-256 of its dashboard
    token, the account that owns it (None: the token alone), when it was made and until when
    (ISO 8601) it takes new playtesters."""

    id: str
    game: str
    settings: str
    token_hash: str
    account_id: str | None
    created: str
    ends: str


@dataclass(frozen=True)
class PlaytestMatch:
    """A match of a playtest and the number of the variant it plays."""

    match_id: str
    playtest_id: str
    variant: int
    created: str


@dataclass(frozen=True)
class SurveyAnswer:
    """One seat's survey of one match: a score 1-5 per question (None: left blank) as JSON
    text, and the free text."""

    match_id: str
    seat: int
    playtest_id: str
    scores: str
    text: str
    at: str


@dataclass(frozen=True)
class RefusedTurn:
    """A turn the server refused a seat of a playtest match: what was typed and why."""

    match_id: str
    index: int
    seat: int
    ply: int
    turn: str
    reason: str
    at: str


class PlaytestStore(Protocol):
    """The store's calls for playtests."""

    def create_playtest(self, playtest: Playtest) -> None:
        """Add a new playtest."""

    def playtest(self, playtest_id: str) -> Playtest | None:
        """The playtest with this id, or None."""

    def account_playtests(self, account_id: str) -> builtins.list[Playtest]:
        """The playtests the account owns, newest first."""

    def add_playtest_match(self, match: PlaytestMatch, open_seats: Iterable[int]) -> None:
        """Note a new match of a playtest, and its seats that wait for a playtester."""

    def take_open_seat(self, playtest_id: str, variant: int | None) -> tuple[str, int] | None:
        """The oldest open seat of the playtest (of ``variant`` only, unless None) as
        ``(match id, seat)``, no longer open; None when no seat is open. Taken once, whoever
        else asks at the same time."""

    def reopen_seat(self, playtest_id: str, match_id: str, seat: int, since: str) -> None:
        """Open a seat again (its taker could not be seated)."""

    def playtest_matches(self, playtest_id: str) -> builtins.list[PlaytestMatch]:
        """The playtest's matches, oldest first."""

    def playtest_of(self, match_id: str) -> PlaytestMatch | None:
        """The playtest row of a match, or None for a match of no playtest."""

    def open_seats(self, playtest_id: str) -> builtins.list[tuple[str, int]]:
        """The playtest's seats still waiting for a playtester, oldest first."""

    def add_answer(self, answer: SurveyAnswer) -> bool:
        """Keep a seat's survey; False (nothing kept) if that seat has answered already."""

    def answers(self, playtest_id: str) -> builtins.list[SurveyAnswer]:
        """The playtest's survey answers, in the order they came."""

    def add_refused_turn(
        self, match_id: str, seat: int, ply: int, turn: str, reason: str, at: str
    ) -> None:
        """Write down a refused turn of a playtest match (nothing past ``MAX_REFUSALS``)."""

    def refused_turns(self, playtest_id: str) -> builtins.list[RefusedTurn]:
        """The refused turns of the playtest's matches, match by match, in order."""

    def set_bot_result(self, playtest_id: str, variant: int, result: str, at: str) -> None:
        """Keep (or replace) the bot self-play summary of a variant, JSON text."""

    def bot_results(self, playtest_id: str) -> dict[int, str]:
        """The bot self-play summaries kept for the playtest's variants."""


class SqlPlaytests:
    """:class:`PlaytestStore` in the SQL both backends run (mixed into ``SqlStore``)."""

    conflicts: tuple[type[Exception], ...]
    row_lock: str

    @abstractmethod
    def _transaction(self, reading: bool = False) -> AbstractContextManager[Run]:
        """A transaction (a snapshot that only reads, when ``reading``)."""

    def create_playtest(self, playtest: Playtest) -> None:
        """Add a new playtest."""
        with self._transaction() as run:
            run(
                f"INSERT INTO playtests ({PLAYTEST_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    playtest.id,
                    playtest.game,
                    playtest.settings,
                    playtest.token_hash,
                    playtest.account_id,
                    playtest.created,
                    playtest.ends,
                ),
            )

    def playtest(self, playtest_id: str) -> Playtest | None:
        """The playtest with this id, or None."""
        with self._transaction(reading=True) as run:
            rows = run(f"SELECT {PLAYTEST_COLUMNS} FROM playtests WHERE id = ?", (playtest_id,))
        return Playtest(*rows[0]) if rows else None

    def account_playtests(self, account_id: str) -> builtins.list[Playtest]:
        """The playtests the account owns, newest first."""
        with self._transaction(reading=True) as run:
            rows = run(
                f"SELECT {PLAYTEST_COLUMNS} FROM playtests WHERE account_id = ? "
                "ORDER BY created DESC, id",
                (account_id,),
            )
        return [Playtest(*row) for row in rows]

    def add_playtest_match(self, match: PlaytestMatch, open_seats: Iterable[int]) -> None:
        """The match's row and its open seats, in one transaction."""
        with self._transaction() as run:
            run(
                "INSERT INTO playtest_matches (match_id, playtest_id, variant, created) "
                "VALUES (?, ?, ?, ?)",
                (match.match_id, match.playtest_id, match.variant, match.created),
            )
            for seat in open_seats:
                run(
                    "INSERT INTO playtest_waiting (match_id, seat, playtest_id, since) "
                    "VALUES (?, ?, ?, ?)",
                    (match.match_id, seat, match.playtest_id, match.created),
                )

    def take_open_seat(self, playtest_id: str, variant: int | None) -> tuple[str, int] | None:
        """The oldest open seat, deleted in the transaction that read it (the row is locked
        on PostgreSQL; SQLite's writer holds the file): of two takers only one gets it."""
        clause = ""
        values: tuple[str | int, ...] = (playtest_id,)
        if variant is not None:
            clause = (
                " AND match_id IN (SELECT match_id FROM playtest_matches "
                "WHERE playtest_id = ? AND variant = ?)"
            )
            values = (playtest_id, playtest_id, variant)
        with self._transaction() as run:
            rows = run(
                f"SELECT match_id, seat FROM playtest_waiting WHERE playtest_id = ?{clause} "
                f"ORDER BY since, match_id, seat LIMIT 1{self.row_lock}",
                values,
            )
            if not rows:
                return None
            match_id, seat = str(rows[0][0]), int(rows[0][1])
            run("DELETE FROM playtest_waiting WHERE match_id = ? AND seat = ?", (match_id, seat))
        return match_id, seat

    def reopen_seat(self, playtest_id: str, match_id: str, seat: int, since: str) -> None:
        """Open a seat again (nothing if it is open already)."""
        with self._transaction() as run:
            run(
                "INSERT INTO playtest_waiting (match_id, seat, playtest_id, since) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (match_id, seat) DO NOTHING",
                (match_id, seat, playtest_id, since),
            )

    def playtest_matches(self, playtest_id: str) -> builtins.list[PlaytestMatch]:
        """The playtest's matches, oldest first."""
        with self._transaction(reading=True) as run:
            rows = run(
                "SELECT match_id, playtest_id, variant, created FROM playtest_matches "
                "WHERE playtest_id = ? ORDER BY created, match_id",
                (playtest_id,),
            )
        return [PlaytestMatch(*row) for row in rows]

    def playtest_of(self, match_id: str) -> PlaytestMatch | None:
        """The playtest row of a match, or None."""
        with self._transaction(reading=True) as run:
            rows = run(
                "SELECT match_id, playtest_id, variant, created FROM playtest_matches "
                "WHERE match_id = ?",
                (match_id,),
            )
        return PlaytestMatch(*rows[0]) if rows else None

    def open_seats(self, playtest_id: str) -> builtins.list[tuple[str, int]]:
        """The seats still waiting, oldest first."""
        with self._transaction(reading=True) as run:
            rows = run(
                "SELECT match_id, seat FROM playtest_waiting WHERE playtest_id = ? "
                "ORDER BY since, match_id, seat",
                (playtest_id,),
            )
        return [(str(match_id), int(seat)) for match_id, seat in rows]

    def add_answer(self, answer: SurveyAnswer) -> bool:
        """Keep the answer; False if the seat answered already (the key decides a race)."""
        try:
            with self._transaction() as run:
                run(
                    "INSERT INTO playtest_answers (match_id, seat, playtest_id, scores, text, at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        answer.match_id,
                        answer.seat,
                        answer.playtest_id,
                        answer.scores,
                        answer.text,
                        answer.at,
                    ),
                )
        except self.conflicts:
            return False
        return True

    def answers(self, playtest_id: str) -> builtins.list[SurveyAnswer]:
        """The playtest's answers, in the order they came."""
        with self._transaction(reading=True) as run:
            rows = run(
                "SELECT match_id, seat, playtest_id, scores, text, at FROM playtest_answers "
                "WHERE playtest_id = ? ORDER BY at, match_id, seat",
                (playtest_id,),
            )
        return [SurveyAnswer(*row) for row in rows]

    def add_refused_turn(
        self, match_id: str, seat: int, ply: int, turn: str, reason: str, at: str
    ) -> None:
        """Number the refusal after the match's last one; past ``MAX_REFUSALS``, nothing."""
        with self._transaction() as run:
            ((count,),) = run(
                "SELECT count(*) FROM playtest_refusals WHERE match_id = ?", (match_id,)
            )
            if count >= MAX_REFUSALS:
                return
            run(
                "INSERT INTO playtest_refusals (match_id, idx, seat, ply, turn, reason, at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (match_id, count, seat, ply, turn, reason, at),
            )

    def refused_turns(self, playtest_id: str) -> builtins.list[RefusedTurn]:
        """The refused turns of the playtest's matches."""
        with self._transaction(reading=True) as run:
            rows = run(
                "SELECT r.match_id, r.idx, r.seat, r.ply, r.turn, r.reason, r.at "
                "FROM playtest_refusals r JOIN playtest_matches m ON m.match_id = r.match_id "
                "WHERE m.playtest_id = ? ORDER BY r.match_id, r.idx",
                (playtest_id,),
            )
        return [RefusedTurn(*row) for row in rows]

    def set_bot_result(self, playtest_id: str, variant: int, result: str, at: str) -> None:
        """Keep or replace a variant's bot self-play summary."""
        with self._transaction() as run:
            run(
                "INSERT INTO playtest_bots (playtest_id, variant, result, at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (playtest_id, variant) DO UPDATE SET result = excluded.result, "
                "at = excluded.at",
                (playtest_id, variant, result, at),
            )

    def bot_results(self, playtest_id: str) -> dict[int, str]:
        """The bot self-play summaries kept, by variant."""
        with self._transaction(reading=True) as run:
            rows = run(
                "SELECT variant, result FROM playtest_bots WHERE playtest_id = ? ORDER BY variant",
                (playtest_id,),
            )
        return {int(variant): str(result) for variant, result in rows}
