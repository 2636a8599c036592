"""Moving a SQLite store into PostgreSQL (``boardlab db copy``) without losing a match.

Every row of every table is copied as it is (matches set aside stay set aside, a row the web
app could not read is copied too and set aside by the new server as by the old), in one
PostgreSQL transaction that also holds the target's tables against writers. Before it commits,
the rows are read back from the target and compared with the source, table by table (count and
a SHA-256 of every row in key order): on any difference, error or interruption the transaction
is rolled back and the target is as it was.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

from boardlab.web.postgres_store import connection_settings, describe

TABLES = {
    "matches": (
        "id",
        "game",
        "config",
        "created",
        "status",
        "result",
        "plies",
        "updated",
        "deadline",
        "to_move",
    ),
    "events": ("match_id", "idx", "kind", "seat", "text", "at"),
    "set_aside": ("match_id", "reason", "since"),
    "accounts": ("id", "name", "name_key", "password", "created"),
    "account_sessions": ("hash", "account_id", "created", "seen"),
    "account_seats": ("account_id", "match_id", "seat"),
    "chat": ("match_id", "idx", "channel", "seat", "name", "text", "at"),
    "chat_closed": ("match_id", "seat", "since"),
    "bot_leases": ("match_id", "version", "holder", "expires"),
    "open_pages": ("match_id", "account_id", "holder", "seen"),
    "ratings": ("account_id", "game", "speed", "mu", "sigma", "games", "updated"),
    "rating_changes": ("account_id", "match_id", "game", "speed", "at", "mu", "sigma", "games"),
    "rated_matches": ("match_id", "at"),
    "archive_games": (
        "id",
        "game",
        "ended",
        "result",
        "clock",
        "rated",
        "plies",
        "imported_by",
        "record",
    ),
    "archive_players": ("game_id", "seat", "account_id", "player", "result", "ended"),
    "archive_options": ("game_id", "key", "value"),
    "seeks": (
        "id",
        "token_hash",
        "account_id",
        "address",
        "name",
        "game",
        "options",
        "clock",
        "rated",
        "min_rating",
        "max_rating",
        "created",
        "seen",
        "match_id",
        "seat",
        "seats",
        "joined",
    ),
    "seek_joins": (
        "seek_id",
        "token_hash",
        "account_id",
        "address",
        "name",
        "joined",
        "seen",
        "seat",
    ),
    "notify_settings": ("account_id", "address", "enabled", "unsubscribe", "updated"),
    "playtests": ("id", "game", "settings", "token_hash", "account_id", "created", "ends"),
    "playtest_matches": ("match_id", "playtest_id", "variant", "created"),
    "playtest_waiting": ("match_id", "seat", "playtest_id", "since"),
    "playtest_answers": ("match_id", "seat", "playtest_id", "scores", "text", "at"),
    "playtest_refusals": ("match_id", "idx", "seat", "ply", "turn", "reason", "at"),
    "playtest_bots": ("playtest_id", "variant", "result", "at"),
}
"""The tables copied, in the order they are (events refer to matches), with every column of
the schema's latest step (a test compares them with the schema)."""
KEYS = {
    "matches": ("id",),
    "events": ("match_id", "idx"),
    "set_aside": ("match_id",),
    "accounts": ("id",),
    "account_sessions": ("hash",),
    "account_seats": ("match_id", "seat"),
    "chat": ("match_id", "idx"),
    "chat_closed": ("match_id",),
    "bot_leases": ("match_id",),
    "open_pages": ("match_id", "account_id", "holder"),
    "ratings": ("account_id", "game", "speed"),
    "rating_changes": ("account_id", "match_id"),
    "rated_matches": ("match_id",),
    "archive_games": ("id",),
    "archive_players": ("game_id", "seat"),
    "archive_options": ("game_id", "key"),
    "seeks": ("id",),
    "seek_joins": ("seek_id", "token_hash"),
    "notify_settings": ("account_id",),
    "playtests": ("id",),
    "playtest_matches": ("match_id",),
    "playtest_waiting": ("match_id", "seat"),
    "playtest_answers": ("match_id", "seat"),
    "playtest_refusals": ("match_id", "idx"),
    "playtest_bots": ("playtest_id", "variant"),
}
"""Each table's key: the order in which rows are copied and compared (by bytes, on both)."""
OWNERS = {
    "matches": ("id", "match"),
    "events": ("match_id", "match"),
    "set_aside": ("match_id", "match"),
    "accounts": ("id", "account"),
    "account_sessions": ("account_id", "account"),
    "account_seats": ("match_id", "match"),
    "chat": ("match_id", "match"),
    "chat_closed": ("match_id", "match"),
    "bot_leases": ("match_id", "match"),
    "open_pages": ("match_id", "match"),
    "ratings": ("account_id", "account"),
    "rating_changes": ("account_id", "account"),
    "rated_matches": ("match_id", "match"),
    "archive_games": ("id", "archived"),
    "archive_players": ("game_id", "archived"),
    "archive_options": ("game_id", "archived"),
    "seeks": ("id", "seek"),
    "seek_joins": ("seek_id", "seek"),
    "notify_settings": ("account_id", "account"),
    "playtests": ("id", "playtest"),
    "playtest_matches": ("match_id", "match"),
    "playtest_waiting": ("match_id", "match"),
    "playtest_answers": ("match_id", "match"),
    "playtest_refusals": ("match_id", "match"),
    "playtest_bots": ("playtest_id", "playtest"),
}
"""The column naming the match, account or playtest of each row: how copied rows are read back."""
PROGRESS_ROWS = 10_000
"""Progress is told at most every this many rows, and only for tables at least this long."""


class CopyRefused(Exception):
    """The copy was refused or failed; the target is as it was. The message says why."""


@dataclass(frozen=True)
class Copied:
    """How many rows of each table were copied, and whether the target held matches before."""

    rows: dict[str, int]
    had: int


def copy_store(
    source: Path, target: str, add: bool, progress: Callable[[str], None] = lambda line: None
) -> Copied:
    """Copy every row of the SQLite store ``source`` (migrated to the latest schema) into the
    PostgreSQL database ``target`` (migrated too), refusing a target that already holds
    matches unless ``add``, and a match already there in any case."""
    reader = sqlite3.connect(source, isolation_level=None)
    try:
        reader.execute("BEGIN")  # one snapshot of the source for the whole copy
        try:
            with psycopg.connect(**connection_settings(target)) as writer:
                return _copy(reader, writer, add, progress)
        except psycopg.Error as error:
            raise CopyRefused(
                f"copying into {describe(target)} failed, nothing was copied: "
                f"{str(error).strip().splitlines()[0]}"
            ) from error
    finally:
        reader.close()


def _copy(
    reader: sqlite3.Connection,
    writer: psycopg.Connection[Any],
    add: bool,
    progress: Callable[[str], None],
) -> Copied:
    """The copy in ``writer``'s transaction, committed by the caller's ``with``."""
    writer.execute(f"LOCK TABLE {', '.join(TABLES)} IN EXCLUSIVE MODE")
    (had,) = writer.execute("SELECT count(*) FROM matches").fetchone() or (0,)
    if had and not add:
        raise CopyRefused(
            f"the target already holds {had} matches: give --add to add these to them"
        )
    query = "SELECT id FROM matches UNION SELECT match_id FROM set_aside"
    ids = [row[0] for row in reader.execute(query)]
    taken = writer.execute(
        "SELECT id FROM matches WHERE id = ANY(%s) UNION "
        "SELECT match_id FROM set_aside WHERE match_id = ANY(%s) ORDER BY 1 LIMIT 3",
        (ids, ids),
    ).fetchall()
    if taken:
        shown = ", ".join(row[0] for row in taken)
        raise CopyRefused(f"the target already holds matches of the source ({shown}…)")
    owners = {
        "match": ids,
        "account": [row[0] for row in reader.execute("SELECT id FROM accounts")],
        "archived": [row[0] for row in reader.execute("SELECT id FROM archive_games")],
        "playtest": [row[0] for row in reader.execute("SELECT id FROM playtests")],
        "seek": [row[0] for row in reader.execute("SELECT id FROM seeks")],
    }
    rows: dict[str, int] = {}
    for table, columns in TABLES.items():
        owner, kind = OWNERS[table]
        listed, order = ", ".join(columns), ", ".join(KEYS[table])
        (total,) = reader.execute(f"SELECT count(*) FROM {table}").fetchone()
        written = hashlib.sha256()
        with writer.cursor().copy(f"COPY {table} ({listed}) FROM STDIN") as copy:
            rows_read = reader.execute(f"SELECT {listed} FROM {table} ORDER BY {order}")
            for row in _told(rows_read, table, total, progress):
                copy.write_row(row)
                written.update(_row_bytes(row))
        read_back = writer.execute(
            f"SELECT {listed} FROM {table} WHERE {owner} = ANY(%s) ORDER BY {order}",
            (owners[kind],),
        )
        found = hashlib.sha256()
        count = 0
        for row in read_back:
            found.update(_row_bytes(row))
            count += 1
        if count != total or found.digest() != written.digest():
            raise CopyRefused(
                f"the {table} read back from the target differ from the source "
                f"({count} rows for {total}); nothing was copied"
            )
        rows[table] = total
    return Copied(rows, had)


def _told(
    rows: Iterable[Sequence[Any]], table: str, total: int, progress: Callable[[str], None]
) -> Iterable[Sequence[Any]]:
    """``rows``, telling ``progress`` how far the copy of ``table`` has come."""
    step = max(PROGRESS_ROWS, total // 20)
    for done, row in enumerate(rows, 1):
        yield row
        if done % step == 0:
            progress(f"{table}: {done:,} of {total:,} rows copied")


def _row_bytes(row: Sequence[Any]) -> bytes:
    """A row as bytes that differ whenever a value or its type does."""
    return repr(tuple(row)).encode() + b"\n"
