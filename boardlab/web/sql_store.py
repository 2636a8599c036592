"""The store's calls written once in SQL that SQLite and PostgreSQL both run, and the rows both
keep: a match's configuration as JSON text, the lobby's lines, accounts, their sessions and seats.

A backend (``sqlite_store.py``, ``postgres_store.py``) opens and migrates its database and
gives its transactions: a context whose value runs one statement (``?`` placeholders) and
returns its rows, committed when the block ends and rolled back if it raises. Everything a
match is — its row, its events, its summary, an invite's compare-and-set, the lobby's order,
matches set aside — is then the same on both, by construction.
"""

from __future__ import annotations

import builtins
import json
import logging
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from boardlab.web.accounts_store import SqlPasswords
from boardlab.web.archive_store import SqlArchive, forget_account
from boardlab.web.leases import SqlLeases
from boardlab.web.migrations import Run
from boardlab.web.notifications_store import SqlNotifications
from boardlab.web.open_pages_store import SqlOpenPages
from boardlab.web.player_ratings_store import SqlRatings
from boardlab.web.playtest_store import SqlPlaytests
from boardlab.web.seeks_store import SqlSeeks
from boardlab.web.store import (
    Account,
    Channel,
    ChatLine,
    Event,
    MatchConfig,
    SeatConfig,
    SetAside,
    Status,
    StoreConflict,
    StoredMatch,
    Summary,
)

LOG = logging.getLogger("boardlab.web")

NOT_SET_ASIDE = "NOT EXISTS (SELECT 1 FROM set_aside WHERE set_aside.match_id = matches.id)"
HOUR = len("2026-01-01T00")
"""How much of a time in the store's format names its hour."""
MAX_SEATS = 5
"""The most seats a match has (Colosseum Offcuts)."""
ACCOUNT_COLUMNS = "id, name, name_key, password, created"
"""The columns of ``accounts``, in the order of :class:`~boardlab.web.store.Account`'s fields."""
LISTED_COLUMNS = "id, config, status, result, plies, updated, deadline, to_move"
"""The columns of ``matches`` that :func:`listed` reads, in order."""


class SqlStore(
    SqlRatings,
    SqlArchive,
    SqlPlaytests,
    SqlSeeks,
    SqlNotifications,
    SqlPasswords,
    SqlLeases,
    SqlOpenPages,
    ABC,
):
    """A :class:`~boardlab.web.store.Store` over a backend's transactions."""

    conflicts: tuple[type[Exception], ...]
    """The backend's errors for a broken key: an event index taken, a match that is not."""
    row_lock = ""
    """What ``SELECT … FOR UPDATE`` is in the backend (SQLite's writers lock the whole file)."""

    @abstractmethod
    def _transaction(self, reading: bool = False) -> AbstractContextManager[Run]:
        """A transaction (a snapshot that only reads, when ``reading``)."""

    def create(self, config: MatchConfig, summary: Summary) -> None:
        """Add a new match with no events."""
        with self._transaction() as run:
            run(
                "INSERT INTO matches (id, game, config, created, status, result, plies, updated, "
                "deadline, to_move) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (config.id, config.game, config_text(config), config.created, *_line(summary)),
            )

    def load(self, match_id: str) -> StoredMatch | None:
        """The match with this id, or None; raises SetAside for a match set aside. Read in
        one snapshot, so its events and summary agree whatever is appended meanwhile."""
        with self._transaction(reading=True) as run:
            aside = run("SELECT reason FROM set_aside WHERE match_id = ?", (match_id,))
            if aside:
                raise SetAside(aside[0][0])
            row = run(
                "SELECT config, status, result, plies, updated, deadline, to_move FROM matches "
                "WHERE id = ?",
                (match_id,),
            )
            if not row:
                return None
            events = run(
                "SELECT kind, seat, text, at FROM events WHERE match_id = ? ORDER BY idx",
                (match_id,),
            )
        return StoredMatch(
            config_from_text(row[0][0]),
            tuple(Event(*event) for event in events),
            Summary(*row[0][1:]),
        )

    def append(self, match_id: str, index: int, event: Event, summary: Summary) -> None:
        """Add event number ``index`` and the new summary in one transaction. Of two writers
        of the same index, the second waits for the first to commit and then conflicts."""
        try:
            with self._transaction() as run:
                run(
                    "INSERT INTO events (match_id, idx, kind, seat, text, at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (match_id, index, event.kind, event.seat, event.text, event.at),
                )
                run(
                    "UPDATE matches SET status = ?, result = ?, plies = ?, updated = ?, "
                    "deadline = ?, to_move = ? WHERE id = ?",
                    (*_line(summary), match_id),
                )
                # PostgreSQL tells the other server processes in this transaction (a trigger's
                # NOTIFY, migration step 7): delivered exactly when the event commits.
        except self.conflicts as error:
            # A taken index, or a match that does not exist (the events' foreign key).
            raise StoreConflict(f"match {match_id} already has event {index}") from error

    def claim_seat(self, match_id: str, seat: int, was: str, now: str) -> bool:
        """Swap the seat's token hash ``was`` for ``now`` in one transaction that holds the
        match's row (False, nothing changed, if the seat no longer has ``was``)."""
        with self._transaction() as run:
            row = run(f"SELECT config FROM matches WHERE id = ?{self.row_lock}", (match_id,))
            if not row:
                return False
            config = config_from_text(row[0][0])
            if not 0 <= seat < len(config.seats) or config.seats[seat].token_hash != was:
                return False
            seats = list(config.seats)
            seats[seat] = replace(seats[seat], token_hash=now, claimed=True)
            run(
                "UPDATE matches SET config = ? WHERE id = ?",
                (config_text(replace(config, seats=tuple(seats))), match_id),
            )
            return True

    def list(
        self, game: str | None = None, status: Status | None = None, limit: int = 50
    ) -> list[tuple[MatchConfig, Summary]]:
        """Matches, most recently updated first, never one set aside; a row that cannot be
        read is set aside (and logged) instead of failing the whole list."""
        clauses, values = [NOT_SET_ASIDE], []
        if game is not None:
            clauses.append("game = ?")
            values.append(game)
        if status is not None:
            clauses.append("status = ?")
            values.append(status)
        with self._transaction(reading=True) as run:
            rows = run(
                f"SELECT {LISTED_COLUMNS} FROM matches WHERE {' AND '.join(clauses)} "
                "ORDER BY updated DESC, created DESC LIMIT ?",
                (*values, limit),
            )
        return listed(rows, self.set_aside)

    def set_aside(self, match_id: str, reason: str, when: str) -> None:
        """Keep the match out of every listing and load from now on, noting why and when (the
        first reason is kept)."""
        with self._transaction() as run:
            run(
                "INSERT INTO set_aside (match_id, reason, since) VALUES (?, ?, ?) "
                "ON CONFLICT (match_id) DO NOTHING",
                (match_id, reason, when),
            )

    def set_aside_matches(self) -> tuple[tuple[str, str, str], ...]:
        """The matches set aside: ``(id, reason, since)``, oldest first."""
        with self._transaction(reading=True) as run:
            rows = run("SELECT match_id, reason, since FROM set_aside ORDER BY since", ())
        return tuple((str(a), str(b), str(c)) for a, b, c in rows)

    # -- accounts -------------------------------------------------------------------------

    def create_account(self, account: Account) -> bool:
        """Add ``account``; False if its name is taken (the unique ``name_key`` decides)."""
        try:
            with self._transaction() as run:
                run(
                    "INSERT INTO accounts (id, name, name_key, password, created) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (account.id, account.name, account.name_key, account.password, account.created),
                )
        except self.conflicts:
            return False
        return True

    def account_named(self, name_key: str) -> Account | None:
        """The account of this lower-case name, or None."""
        with self._transaction(reading=True) as run:
            rows = run(f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = ?", (name_key,))
        return Account(*rows[0]) if rows else None

    def set_password(self, account_id: str, password: str) -> None:
        """The new hash, and every session of the account ended, in one transaction."""
        with self._transaction() as run:
            run("UPDATE accounts SET password = ? WHERE id = ?", (password, account_id))
            run("DELETE FROM account_sessions WHERE account_id = ?", (account_id,))

    def delete_account(self, account_id: str) -> None:
        """The account, its sessions and its seats removed in one transaction."""
        with self._transaction() as run:
            run("DELETE FROM account_seats WHERE account_id = ?", (account_id,))
            run("DELETE FROM account_sessions WHERE account_id = ?", (account_id,))
            forget_account(run, account_id)
            run("DELETE FROM accounts WHERE id = ?", (account_id,))

    def open_session(self, digest: str, account_id: str, when: str, since: str) -> None:
        """A new session row; the sessions idle since before ``since`` are swept meanwhile."""
        with self._transaction() as run:
            run("DELETE FROM account_sessions WHERE seen < ?", (since,))
            run(
                "INSERT INTO account_sessions (hash, account_id, created, seen) "
                "VALUES (?, ?, ?, ?)",
                (digest, account_id, when, when),
            )

    def session_account(self, digest: str, since: str, when: str) -> Account | None:
        """The session's account if seen since ``since``; its ``seen`` becomes ``when`` if that
        is another hour (pages ask every few seconds: a write for each would be waste)."""
        columns = ", ".join(f"accounts.{column}" for column in ACCOUNT_COLUMNS.split(", "))
        with self._transaction() as run:
            rows = run(
                f"SELECT account_sessions.seen, {columns} FROM account_sessions JOIN accounts "
                "ON accounts.id = account_sessions.account_id "
                "WHERE account_sessions.hash = ? AND account_sessions.seen >= ?",
                (digest, since),
            )
            if rows and str(rows[0][0])[:HOUR] != when[:HOUR]:
                run("UPDATE account_sessions SET seen = ? WHERE hash = ?", (when, digest))
        return Account(*rows[0][1:]) if rows else None

    def close_session(self, digest: str) -> None:
        """The session's row removed."""
        with self._transaction() as run:
            run("DELETE FROM account_sessions WHERE hash = ?", (digest,))

    def hold_seats(
        self, account_id: str, match_id: str, seats: Iterable[int], take: bool = False
    ) -> None:
        """One row per seat; a seat already held by an account is kept, or moved if ``take``."""
        conflict = "DO UPDATE SET account_id = excluded.account_id" if take else "DO NOTHING"
        with self._transaction() as run:
            for seat in seats:
                run(
                    "INSERT INTO account_seats (account_id, match_id, seat) VALUES (?, ?, ?) "
                    f"ON CONFLICT (match_id, seat) {conflict}",
                    (account_id, match_id, seat),
                )

    def session_seats(self, digest: str, match_id: str, since: str) -> frozenset[int]:
        """The seats of the match that the live session's account holds."""
        with self._transaction(reading=True) as run:
            rows = run(
                "SELECT account_seats.seat FROM account_sessions JOIN account_seats "
                "ON account_seats.account_id = account_sessions.account_id "
                "WHERE account_sessions.hash = ? AND account_sessions.seen >= ? "
                "AND account_seats.match_id = ?",
                (digest, since, match_id),
            )
        return frozenset(int(seat) for (seat,) in rows)

    def seat_accounts(self, match_id: str) -> dict[int, str]:
        """Seat to account id, for the seats of the match that accounts hold."""
        with self._transaction(reading=True) as run:
            rows = run("SELECT seat, account_id FROM account_seats WHERE match_id = ?", (match_id,))
        return {int(seat): str(account) for seat, account in rows}

    def account_matches(self, account_id: str, limit: int) -> dict[str, frozenset[int]]:
        """The account's matches, most recently updated first, and its seats in each."""
        with self._transaction(reading=True) as run:
            # An account holds at most every seat of a match: enough rows for ``limit`` matches.
            rows = run(
                "SELECT matches.id, account_seats.seat FROM account_seats JOIN matches "
                "ON matches.id = account_seats.match_id WHERE account_seats.account_id = ? "
                f"AND {NOT_SET_ASIDE} ORDER BY matches.updated DESC, matches.id LIMIT ?",
                (account_id, limit * MAX_SEATS),
            )
        found: dict[str, set[int]] = {}
        for match, seat in rows:
            if len(found) == limit and match not in found:
                break
            found.setdefault(str(match), set()).add(int(seat))
        return {match: frozenset(seats) for match, seats in found.items()}

    # -- chat -----------------------------------------------------------------------------

    def add_chat(
        self, match_id: str, channel: Channel, seat: int | None, name: str, text: str, at: str
    ) -> ChatLine:
        """The line numbered after the match's last one, in one transaction (of two writers
        of a match, the second waits on SQLite, or conflicts on PostgreSQL's key)."""
        with self._transaction() as run:
            ((index,),) = run(
                "SELECT COALESCE(max(idx) + 1, 0) FROM chat WHERE match_id = ?", (match_id,)
            )
            run(
                "INSERT INTO chat (match_id, idx, channel, seat, name, text, at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (match_id, index, channel, seat, name, text, at),
            )
        return ChatLine(int(index), channel, seat, name, text, at)

    def chat(
        self, match_id: str, channels: Iterable[Channel], limit: int
    ) -> builtins.list[ChatLine]:
        """The last lines of the match's chat in ``channels``, oldest first."""
        wanted = sorted(set(channels))
        if not wanted:
            return []
        marks = ", ".join("?" for _ in wanted)
        with self._transaction(reading=True) as run:
            rows = run(
                "SELECT idx, channel, seat, name, text, at FROM chat WHERE match_id = ? "
                f"AND channel IN ({marks}) ORDER BY idx DESC LIMIT ?",
                (match_id, *wanted, limit),
            )
        return [ChatLine(*row) for row in reversed(rows)]

    def close_spectator_chat(self, match_id: str, seat: int | None, when: str) -> None:
        """A row in ``chat_closed`` while the spectators' chat is off."""
        with self._transaction() as run:
            if seat is None:
                run("DELETE FROM chat_closed WHERE match_id = ?", (match_id,))
            else:
                run(
                    "INSERT INTO chat_closed (match_id, seat, since) VALUES (?, ?, ?) "
                    "ON CONFLICT (match_id) DO NOTHING",
                    (match_id, seat, when),
                )

    def spectator_chat_closed(self, match_id: str) -> bool:
        """Whether the match has a row in ``chat_closed``."""
        with self._transaction(reading=True) as run:
            rows = run("SELECT 1 FROM chat_closed WHERE match_id = ?", (match_id,))
        return bool(rows)


def _line(summary: Summary) -> tuple[Any, ...]:
    """The summary's columns, in the order the statements above name them."""
    return (
        summary.status,
        summary.result,
        summary.plies,
        summary.updated,
        summary.deadline,
        summary.to_move,
    )


def config_text(config: MatchConfig) -> str:
    """The configuration as the store keeps it (JSON)."""
    seats: list[dict[str, Any]] = [
        {"kind": seat.kind, "bot": seat.bot, "token_hash": seat.token_hash} for seat in config.seats
    ]
    for seat, kept in zip(config.seats, seats, strict=True):
        if seat.claimed:
            kept["claimed"] = True  # written only when true: older rows stay as they were
    data: dict[str, Any] = {
        "options": config.options,
        "seats": seats,
        "game": config.game,
        "id": config.id,
        "created": config.created,
        "clock": config.clock,
    }
    if config.rated:
        data["rated"] = True  # written only when true: older rows read as casual
    return json.dumps(data)


def config_from_text(text: str) -> MatchConfig:
    """The configuration a store kept (raises ValueError, TypeError or KeyError for a row that
    cannot be read)."""
    data: dict[str, Any] = json.loads(text)
    seats = tuple(
        SeatConfig(s["kind"], s["bot"], s["token_hash"], s.get("claimed") is True)
        for s in data["seats"]
    )
    clock = data.get("clock", "")
    if not isinstance(clock, str):
        raise TypeError("the time control is not text")
    rated = data.get("rated", False) is True
    return MatchConfig(
        data["id"], data["game"], data["options"], seats, data["created"], clock, rated
    )


def listed(
    rows: Iterable[Sequence[Any]], set_aside: Callable[[str, str, str], None]
) -> list[tuple[MatchConfig, Summary]]:
    """The lobby's lines of ``rows`` (:data:`LISTED_COLUMNS`); a row whose configuration cannot
    be read is logged and passed to ``set_aside`` (id, reason, when) instead."""
    lines = []
    for row in rows:
        try:
            lines.append((config_from_text(row[1]), Summary(*row[2:])))
        except (ValueError, TypeError, KeyError, RecursionError) as error:
            reason = f"its configuration cannot be read ({type(error).__name__}: {error})"
            LOG.error("match %s cannot be loaded and is set aside: %s", row[0], reason)
            set_aside(row[0], reason, datetime.now(UTC).isoformat())
    return lines
