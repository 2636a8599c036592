"""The default store: one embedded SQLite file (WAL journal, one writer).

``synchronous=NORMAL`` in WAL mode: a commit is in the database file's log before the call
returns, so a killed server (even SIGKILL) loses nothing; only a power cut or an operating
system crash could lose the last commits, and never corrupts the file. ``FULL`` would fsync
every decision (about 15 ms each here), serialising all matches behind the disk.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from boardlab.web.migrations import Migration, Run, migrate
from boardlab.web.sql_store import SqlStore

LEGACY_COLUMNS = (
    ("matches", "deadline", "TEXT"),
    ("events", "at", "TEXT NOT NULL DEFAULT ''"),
    ("matches", "to_move", "INTEGER"),
)
"""Columns added before the migration table (``migrations.py``): a database made before them
gets them when it is first opened, and is then at the first step's schema."""


class SqliteStore(SqlStore):
    """A :class:`~boardlab.web.store.Store` in one SQLite file.

    Each call is one transaction, committed before it returns, so a server killed at any
    moment loses nothing it has told anyone about. Use it from one thread. ``applied`` holds
    the migration steps its opening applied.
    """

    conflicts = (sqlite3.IntegrityError,)

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db = sqlite3.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        try:
            with self._transaction() as run:
                _adopt_legacy(run)
                when = datetime.now(UTC).isoformat()
                self.applied: tuple[Migration, ...] = migrate(run, "sqlite", when)
        except BaseException:
            self._db.close()
            raise

    @contextmanager
    def _transaction(self, reading: bool = False) -> Iterator[Run]:
        """A transaction: reads share the file, a writer holds it from the start (so two
        writers queue instead of failing at their first write)."""
        # In autocommit mode (isolation_level=None) the connection's context manager does not
        # open a transaction, so open it here and let the context manager commit or roll back.
        self._db.execute("BEGIN" if reading else "BEGIN IMMEDIATE")
        with self._db:
            yield self._rows

    def _rows(self, statement: str, values: Sequence[Any]) -> list[Any]:
        return self._db.execute(statement, values).fetchall()

    def close(self) -> None:
        """Close the database file."""
        self._db.close()


def _adopt_legacy(run: Run) -> None:
    """Bring a database made before the migration table to the first step's schema."""
    tables = {name for (name,) in run("SELECT name FROM sqlite_master WHERE type = 'table'", ())}
    if "schema_migrations" in tables or "matches" not in tables:
        return
    for table, column, kind in LEGACY_COLUMNS:
        if column not in [row[1] for row in run(f"PRAGMA table_info({table})", ())]:
            run(f"ALTER TABLE {table} ADD COLUMN {column} {kind}", ())
