"""The default store: one embedded SQLite file (WAL journal, one writer).

``synchronous=NORMAL`` in WAL mode: a commit is in the database file's log before the call
returns, so a killed server (even SIGKILL) loses nothing; only a power cut or an operating
system crash could lose the last commits, and never corrupts the file. ``FULL`` would fsync
every decision (about 15 ms each here), serialising all matches behind the disk.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from boardlab.web.migrations import Migration, migrate
from boardlab.web.store import (
    Event,
    MatchConfig,
    SetAside,
    Status,
    StoreConflict,
    StoredMatch,
    Summary,
)
from boardlab.web.store_rows import LISTED_COLUMNS, config_from_text, config_text, listed

NOT_SET_ASIDE = "id NOT IN (SELECT match_id FROM set_aside)"
LEGACY_COLUMNS = (
    ("matches", "deadline", "TEXT"),
    ("events", "at", "TEXT NOT NULL DEFAULT ''"),
    ("matches", "to_move", "INTEGER"),
)
"""Columns added before the migration table (``migrations.py``): a database made before them
gets them when it is first opened, and is then at the first step's schema."""


class SqliteStore:
    """A :class:`~boardlab.web.store.Store` in one SQLite file.

    Each call is one transaction, committed before it returns, so a server killed at any
    moment loses nothing it has told anyone about. Use it from one thread.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db = sqlite3.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        try:
            with self._transaction():
                self._adopt_legacy()
                when = datetime.now(UTC).isoformat()
                self.applied: tuple[Migration, ...] = migrate(self._run, "sqlite", when)
        except BaseException:
            self._db.close()
            raise

    def _run(self, statement: str, values: Sequence[Any]) -> Any:
        """Run one statement for the migrations; its first row, if any."""
        return self._db.execute(statement, values).fetchone()

    def _adopt_legacy(self) -> None:
        """Bring a database made before the migration table to the first step's schema."""
        query = "SELECT name FROM sqlite_master WHERE type = 'table'"
        tables = {name for (name,) in self._db.execute(query)}
        if "schema_migrations" in tables or "matches" not in tables:
            return
        for table, column, kind in LEGACY_COLUMNS:
            names = [row[1] for row in self._db.execute(f"PRAGMA table_info({table})")]
            if column not in names:
                self._db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")

    def create(self, config: MatchConfig, summary: Summary) -> None:
        """Add a new match with no events."""
        with self._transaction():
            self._db.execute(
                "INSERT INTO matches (id, game, config, created, status, result, plies, updated, "
                "deadline, to_move) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
        """The match with this id, or None; raises SetAside for a match set aside."""
        aside = self._db.execute(
            "SELECT reason FROM set_aside WHERE match_id = ?", (match_id,)
        ).fetchone()
        if aside is not None:
            raise SetAside(aside[0])
        row = self._db.execute(
            "SELECT config, status, result, plies, updated, deadline, to_move FROM matches "
            "WHERE id = ?",
            (match_id,),
        ).fetchone()
        if row is None:
            return None
        events = tuple(
            Event(kind, seat, text, at)
            for kind, seat, text, at in self._db.execute(
                "SELECT kind, seat, text, at FROM events WHERE match_id = ? ORDER BY idx",
                (match_id,),
            )
        )
        return StoredMatch(config_from_text(row[0]), events, Summary(*row[1:]))

    def append(self, match_id: str, index: int, event: Event, summary: Summary) -> None:
        """Add event number ``index`` and the new summary in one transaction."""
        try:
            with self._transaction():
                self._db.execute(
                    "INSERT INTO events (match_id, idx, kind, seat, text, at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (match_id, index, event.kind, event.seat, event.text, event.at),
                )
                self._db.execute(
                    "UPDATE matches SET status = ?, result = ?, plies = ?, updated = ?, "
                    "deadline = ?, to_move = ? WHERE id = ?",
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
        except sqlite3.IntegrityError as error:
            raise StoreConflict(f"match {match_id} already has event {index}") from error

    def claim_seat(self, match_id: str, seat: int, was: str, now: str) -> bool:
        """Swap the seat's token hash ``was`` for ``now`` in one transaction (False if the
        seat no longer has ``was``)."""
        with self._transaction():
            query = "SELECT config FROM matches WHERE id = ?"
            row = self._db.execute(query, (match_id,)).fetchone()
            if row is None:
                return False
            config = config_from_text(row[0])
            if not 0 <= seat < len(config.seats) or config.seats[seat].token_hash != was:
                return False
            seats = list(config.seats)
            seats[seat] = replace(seats[seat], token_hash=now)
            self._db.execute(
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
        rows = self._db.execute(
            f"SELECT {LISTED_COLUMNS} FROM matches WHERE {' AND '.join(clauses)} "
            "ORDER BY updated DESC, created DESC LIMIT ?",
            (*values, limit),
        ).fetchall()
        return listed(rows, self.set_aside)

    def set_aside(self, match_id: str, reason: str, when: str) -> None:
        """Keep the match out of every listing and load from now on, noting why and when."""
        with self._transaction():
            self._db.execute(
                "INSERT OR IGNORE INTO set_aside VALUES (?, ?, ?)", (match_id, reason, when)
            )

    def set_aside_matches(self) -> tuple[tuple[str, str, str], ...]:
        """The matches set aside: ``(id, reason, since)``, oldest first."""
        rows = self._db.execute("SELECT match_id, reason, since FROM set_aside ORDER BY since")
        return tuple((str(a), str(b), str(c)) for a, b, c in rows)

    def close(self) -> None:
        """Close the database file."""
        self._db.close()

    def _transaction(self) -> sqlite3.Connection:
        # In autocommit mode (isolation_level=None) the connection's context manager does not
        # open a transaction, so open it here and let the context manager commit or roll back.
        self._db.execute("BEGIN IMMEDIATE")
        return self._db
