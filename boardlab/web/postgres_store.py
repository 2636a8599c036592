"""The PostgreSQL store: the same matches, events and summaries as SQLite, in a database server.

``boardlab serve --db postgresql://…`` uses it (the ``postgres`` extra: psycopg 3 and its
pool). The schema is created and migrated when the store is opened (``migrations.py``), under
an advisory lock, so servers started together migrate once. Each call is one transaction on a
pooled connection, committed before it returns; the unique ``(match_id, idx)`` key of
``events`` makes the append the one point where concurrent writers of a match are ordered
(the loser gets ``StoreConflict``), whichever process they run in.

While the database cannot be reached (stopped, restarting, refusing connections) every call
raises ``StoreUnavailable``: the first after ``WAIT_SECONDS``, the next ones at once while the
pool has no connection. The pool keeps reconnecting in the background, and calls succeed again
as soon as it has, without a restart. A call that
loses its connection while committing may or may not have been applied: the caller reloads
the match to know.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg.rows import TupleRow
from psycopg_pool import ConnectionPool

from boardlab.web.migrations import Migration, Run, migrate
from boardlab.web.store import (
    Event,
    MatchConfig,
    SetAside,
    Status,
    StoreConflict,
    StoredMatch,
    StoreUnavailable,
    Summary,
)
from boardlab.web.store_rows import LISTED_COLUMNS, config_from_text, config_text, listed

CONNECT_SECONDS = 5
"""How long one attempt to connect may take (an unreachable host, not a refused port)."""
WAIT_SECONDS = 2.0
"""How long a call waits for a working connection before it raises StoreUnavailable: long
enough for the pool to replace a connection the database closed while it restarted (it waits
about a second before that)."""
OUTAGE_WAIT_SECONDS = 0.05
"""How long a call waits while the last one found the database unreachable and the pool has
no connection yet: calls run on the server's event loop, which an outage must not hold."""
RECONNECT_SECONDS = 10.0
"""How long the pool's background reconnection backs off before it starts afresh on the next
call, so that the store recovers within seconds of the database whatever the outage's length."""
POOL_CONNECTIONS = 4
"""Connections kept at most; the server's calls come from one thread and use one at a time."""
MIGRATION_LOCK = 0x626F6172646C6162
"""The advisory lock key held while migrating (``boardlab`` in ASCII)."""
NOT_SET_ASIDE = "NOT EXISTS (SELECT 1 FROM set_aside WHERE set_aside.match_id = matches.id)"


def describe(url: str) -> str:
    """The database a URL names, for messages: never its password."""
    try:
        parts = conninfo_to_dict(url)
    except psycopg.Error:
        return "PostgreSQL (a URL that cannot be read)"
    where = f"{parts.get('host') or 'localhost'}:{parts.get('port') or 5432}"
    user = f" as {parts['user']}" if parts.get("user") else ""
    return f"PostgreSQL database {parts.get('dbname') or '(default)'!r} on {where}{user}"


def connection_settings(url: str) -> dict[str, Any]:
    """The URL's connection settings with Boardlab's defaults where it gives none; raises
    ValueError, with a sentence, for a URL that cannot be used."""
    try:
        settings: dict[str, Any] = conninfo_to_dict(url)
    except psycopg.Error as error:
        raise ValueError(f"the PostgreSQL URL cannot be read: {_reason(error)}") from error
    port = str(settings.get("port", "5432"))
    if not all(part.isdigit() for part in port.split(",")):
        raise ValueError(f"the PostgreSQL URL's port {port!r} is not a number")
    settings.setdefault("connect_timeout", CONNECT_SECONDS)
    settings.setdefault("application_name", "boardlab")
    return settings


def _reason(error: Exception) -> str:
    """The first line of a driver error, without libpq's 'connection failed:' prefix."""
    text = str(error).strip() or type(error).__name__
    line = text.splitlines()[0]
    return re.sub(r"^connection (failed|is bad): ", "", line)


def _runner(connection: psycopg.Connection[TupleRow]) -> Run:
    """Statements run on ``connection``, for the migrations."""

    def run(statement: str, values: Sequence[Any]) -> TupleRow | None:
        cursor = connection.execute(statement, values)
        return cursor.fetchone() if cursor.description is not None else None

    return run


class PostgresStore:
    """A :class:`~boardlab.web.store.Store` in a PostgreSQL database, given by its URL.

    Opening it connects once to migrate the schema: an unreachable server raises
    StoreUnavailable, a URL or a database that cannot be used ValueError, at once, with a
    sentence that names the database but not its password. ``applied`` holds the migration
    steps this opening applied.
    """

    def __init__(self, url: str) -> None:
        settings = connection_settings(url)
        self.name = describe(url)
        try:
            with psycopg.connect(**settings) as connection:
                connection.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
                when = datetime.now(UTC).isoformat()
                self.applied: tuple[Migration, ...] = migrate(_runner(connection), "postgres", when)
        except psycopg.OperationalError as error:
            raise StoreUnavailable(f"cannot reach {self.name}: {_reason(error)}") from error
        except psycopg.Error as error:
            # Reached but refused: no such role's rights, a damaged schema...
            raise ValueError(f"cannot use {self.name}: {_reason(error)}") from error
        self._pool: ConnectionPool[psycopg.Connection[TupleRow]] = ConnectionPool(
            kwargs=settings,
            min_size=1,
            max_size=POOL_CONNECTIONS,
            open=False,
            check=ConnectionPool.check_connection,
            reconnect_timeout=RECONNECT_SECONDS,
            name="boardlab-store",
        )
        self._down = False
        """Whether the last call found the database unreachable."""
        try:
            self._pool.open(wait=True, timeout=CONNECT_SECONDS)
        except psycopg.OperationalError as error:
            self._pool.close()
            raise StoreUnavailable(f"cannot reach {self.name}: {_reason(error)}") from error

    @contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection[TupleRow]]:
        """A pooled connection in a transaction, committed when the block ends (rolled back if
        it raises); a database that cannot be reached is StoreUnavailable."""
        ready = self._pool.get_stats().get("pool_available", 0)
        wait = OUTAGE_WAIT_SECONDS if self._down and not ready else WAIT_SECONDS
        try:
            with self._pool.connection(timeout=wait) as connection:
                self._down = False
                yield connection
        except psycopg.OperationalError as error:
            self._down = True
            raise StoreUnavailable(f"{self.name} is unavailable: {_reason(error)}") from error

    def create(self, config: MatchConfig, summary: Summary) -> None:
        """Add a new match with no events."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO matches (id, game, config, created, status, result, plies, updated, "
                "deadline, to_move) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (
                    config.id,
                    config.game,
                    config_text(config),
                    config.created,
                    summary.status,
                    summary.result,
                    summary.plies,
                    summary.updated,
                    summary.deadline,
                    summary.to_move,
                ),
            )

    def load(self, match_id: str) -> StoredMatch | None:
        """The match with this id, or None; raises SetAside for a match set aside. Read in
        one snapshot, so its events and summary agree whatever is appended meanwhile."""
        with self._transaction() as db:
            db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            aside = db.execute(
                "SELECT reason FROM set_aside WHERE match_id = %s", (match_id,)
            ).fetchone()
            if aside is not None:
                raise SetAside(aside[0])
            row = db.execute(
                "SELECT config, status, result, plies, updated, deadline, to_move FROM matches "
                "WHERE id = %s",
                (match_id,),
            ).fetchone()
            if row is None:
                return None
            events = tuple(
                Event(kind, seat, text, at)
                for kind, seat, text, at in db.execute(
                    "SELECT kind, seat, text, at FROM events WHERE match_id = %s ORDER BY idx",
                    (match_id,),
                )
            )
        return StoredMatch(config_from_text(row[0]), events, Summary(*row[1:]))

    def append(self, match_id: str, index: int, event: Event, summary: Summary) -> None:
        """Add event number ``index`` and the new summary in one transaction. Of two writers
        of the same index, the second waits for the first to commit and then conflicts."""
        try:
            with self._transaction() as db:
                db.execute(
                    "INSERT INTO events (match_id, idx, kind, seat, text, at) "
                    "VALUES (%s, %s, %s, %s, %s, %s)",
                    (match_id, index, event.kind, event.seat, event.text, event.at),
                )
                db.execute(
                    "UPDATE matches SET status = %s, result = %s, plies = %s, updated = %s, "
                    "deadline = %s, to_move = %s WHERE id = %s",
                    (
                        summary.status,
                        summary.result,
                        summary.plies,
                        summary.updated,
                        summary.deadline,
                        summary.to_move,
                        match_id,
                    ),
                )
                # Telling other server processes (NOTIFY, issue 40) belongs here: in this
                # transaction, so that it is delivered exactly when the event is committed.
        except psycopg.IntegrityError as error:
            # A taken index, or (as in SQLite) a match that does not exist.
            raise StoreConflict(f"match {match_id} already has event {index}") from error

    def claim_seat(self, match_id: str, seat: int, was: str, now: str) -> bool:
        """Swap the seat's token hash ``was`` for ``now`` in one transaction, the match's row
        locked meanwhile (False if the seat no longer has ``was``)."""
        with self._transaction() as db:
            row = db.execute(
                "SELECT config FROM matches WHERE id = %s FOR UPDATE", (match_id,)
            ).fetchone()
            if row is None:
                return False
            config = config_from_text(row[0])
            if not 0 <= seat < len(config.seats) or config.seats[seat].token_hash != was:
                return False
            seats = list(config.seats)
            seats[seat] = replace(seats[seat], token_hash=now)
            db.execute(
                "UPDATE matches SET config = %s WHERE id = %s",
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
            clauses.append("game = %s")
            values.append(game)
        if status is not None:
            clauses.append("status = %s")
            values.append(status)
        with self._transaction() as db:
            rows = db.execute(
                f"SELECT {LISTED_COLUMNS} FROM matches WHERE {' AND '.join(clauses)} "
                "ORDER BY updated DESC, created DESC LIMIT %s",
                (*values, limit),
            ).fetchall()
        return listed(rows, self.set_aside)

    def set_aside(self, match_id: str, reason: str, when: str) -> None:
        """Keep the match out of every listing and load from now on, noting why and when."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO set_aside (match_id, reason, since) VALUES (%s, %s, %s) "
                "ON CONFLICT (match_id) DO NOTHING",
                (match_id, reason, when),
            )

    def set_aside_matches(self) -> tuple[tuple[str, str, str], ...]:
        """The matches set aside: ``(id, reason, since)``, oldest first."""
        with self._transaction() as db:
            rows = db.execute("SELECT match_id, reason, since FROM set_aside ORDER BY since")
            return tuple((str(a), str(b), str(c)) for a, b, c in rows)

    def close(self) -> None:
        """Close every connection."""
        self._pool.close()
