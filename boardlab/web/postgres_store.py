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
as soon as it has, without a restart. A call that loses its connection while committing may or
may not have been applied: the caller reloads the match to know.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg import IsolationLevel
from psycopg.conninfo import conninfo_to_dict
from psycopg.rows import TupleRow
from psycopg_pool import ConnectionPool

from boardlab.web.migrations import Migration, Run, migrate
from boardlab.web.sql_store import SqlStore
from boardlab.web.store import StoreUnavailable

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
    """Statements run on ``connection``, their ``?`` placeholders as psycopg writes them."""

    def run(statement: str, values: Sequence[Any]) -> list[Any]:
        cursor = connection.execute(statement.replace("?", "%s"), values)
        return cursor.fetchall() if cursor.description is not None else []

    return run


class PostgresStore(SqlStore):
    """A :class:`~boardlab.web.store.Store` in a PostgreSQL database, given by its URL.

    Opening it connects once to migrate the schema: an unreachable server raises
    StoreUnavailable, a URL or a database that cannot be used ValueError, at once, with a
    sentence that names the database but not its password. ``applied`` holds the migration
    steps this opening applied.
    """

    conflicts = (psycopg.IntegrityError,)
    row_lock = " FOR UPDATE"
    shared = True

    def __init__(self, url: str) -> None:
        settings = connection_settings(url)
        self.name = describe(url)
        self.settings = settings
        """How to connect (the listener of other processes' changes opens its own connection)."""
        try:
            with psycopg.connect(**settings) as connection:
                run = _runner(connection)
                run("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
                when = datetime.now(UTC).isoformat()
                self.applied: tuple[Migration, ...] = migrate(run, "postgres", when)
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
    def _transaction(self, reading: bool = False) -> Iterator[Run]:
        """A transaction on a pooled connection (a read-only snapshot when ``reading``),
        committed when the block ends; a database that cannot be reached is StoreUnavailable."""
        ready = self._pool.get_stats().get("pool_available", 0)
        wait = OUTAGE_WAIT_SECONDS if self._down and not ready else WAIT_SECONDS
        try:
            with self._pool.connection(timeout=wait) as connection:
                self._down = False
                # Said in the transaction's BEGIN, which psycopg sends with the first statement:
                # no round trip of its own.
                connection.read_only = reading
                connection.isolation_level = IsolationLevel.REPEATABLE_READ if reading else None
                yield _runner(connection)
        except psycopg.OperationalError as error:
            self._down = True
            raise StoreUnavailable(f"{self.name} is unavailable: {_reason(error)}") from error

    def close(self) -> None:
        """Close every connection."""
        self._pool.close()
