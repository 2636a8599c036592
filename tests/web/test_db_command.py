"""``boardlab db migrate`` and ``boardlab db copy``: a SQLite store made by a real ``boardlab
serve`` moves into a real PostgreSQL (the session's cluster) row for row, and is served from
there; refusals (a target that holds matches, a server on the source, an unreachable
database) and failures change nothing and are one line, exit 2."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import psycopg
import pytest

from boardlab.cli.main import main
from boardlab.cli.serve import store_name
from boardlab.web.migrations import LATEST, MIGRATIONS
from boardlab.web.sql_store import config_text
from boardlab.web.store import Account, Event, MatchConfig, SeatConfig, Summary
from boardlab.web.store_copy import KEYS, TABLES
from boardlab.web.stores import open_store
from tests.web.conftest import free_port, start_server
from tests.web.test_api import MURUS_HOT_SEAT, create
from tests.web.test_postgres_serve import moves, play


def rows(target: str | Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every copied table, in key order."""
    found: dict[str, list[tuple[Any, ...]]] = {}
    for table, columns in TABLES.items():
        query = f"SELECT {', '.join(columns)} FROM {table} ORDER BY {', '.join(KEYS[table])}"
        if isinstance(target, Path):
            with sqlite3.connect(target) as lite:
                found[table] = lite.execute(query).fetchall()
            lite.close()
        else:
            with psycopg.connect(target) as server:
                found[table] = server.execute(query).fetchall()
    return found


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``boardlab ARGV`` in this process: (exit code, stdout, stderr)."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_served_sqlite_store_is_copied_row_for_row_and_served_from_postgresql(
    tmp_path: Path, postgres_url: str
) -> None:
    db = tmp_path / "boardlab.sqlite3"
    server = start_server(db)
    try:
        played: dict[str, tuple[list[str], list[str]]] = {}
        for turns in (0, 3, 5):
            match, seats = create(server, MURUS_HOT_SEAT)
            tokens = [str(token) for token in seats]
            played[match] = (tokens, play(server, match, tokens, turns))
        resigned = list(played)[1]
        status, _ = server.post(
            f"/api/matches/{resigned}/resign", {"seat": 1}, played[resigned][0][1]
        )
        assert status == 200
    finally:
        server.stop()
    aside = "a" * 16
    store = open_store(db)
    store.create(
        MatchConfig(aside, "carnyx", {}, (SeatConfig("bot", "x", None),), "t"),
        Summary("active", None, 0, "t"),
    )
    store.append(aside, 0, Event("turn", 0, "not a move"), Summary("active", None, 1, "t"))
    store.set_aside(aside, "its events cannot be replayed", "2026-11-29")
    store.create_account(Account("acc", "Ada", "ada", "hash", "2026-11-28"))
    store.open_session("digest", "acc", "2026-11-28", "2026-10-01")
    store.hold_seats("acc", resigned, [0, 1])
    store.add_chat(resigned, "players", 0, "Ada", "<b>gg</b> ☺", "2026-11-28")
    store.add_chat(resigned, "spectators", None, "Spectator", "well played", "2026-11-29")
    store.close_spectator_chat(resigned, 1, "2026-11-29")
    store.close()
    before = rows(db)
    assert before["accounts"] and before["account_sessions"] and before["account_seats"]
    assert len(before["chat"]) == 2 and before["chat_closed"]

    copy = subprocess.run(
        [sys.executable, "-m", "boardlab", "db", "copy", str(db), postgres_url],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert copy.returncode == 0, copy.stderr
    events = len(before["events"])
    assert copy.stdout.startswith(
        f"copied 4 matches, {events} events and 1 matches set aside from {db} into "
        "PostgreSQL database 'postgres'"
    )
    assert rows(postgres_url) == before == rows(db)
    assert events == 0 + 3 + 5 + 1 + 1

    server = start_server(tmp_path / "postgres.sqlite3", url=postgres_url)
    try:
        listing = server.get("/api/matches")[1]["matches"]
        assert {line["id"] for line in listing} == set(played)
        for match, (tokens, history) in played.items():
            status, view = server.get(f"/api/matches/{match}", tokens[0])
            assert status == 200 and moves(view) == history
        assert server.get(f"/api/matches/{aside}")[0] == 410
        assert [line["id"] for line in server.get("/api/health")[1]["set_aside"]] == [aside]
        last = list(played)[2]
        assert len(play(server, last, played[last][0], 1)) == 1
    finally:
        server.stop()


CARNYX = MatchConfig("", "carnyx", {}, (SeatConfig("human", None, "ab" * 32),) * 2, "t")


def filled(path: Path, matches: int, events: int) -> Path:
    """A SQLite store of ``matches`` matches of ``events`` events each, written directly."""
    open_store(path).close()
    with sqlite3.connect(path) as connection:
        connection.executemany(
            "INSERT INTO matches (id, game, config, created, status, plies, updated) "
            "VALUES (?, 'carnyx', ?, 't', 'active', ?, ?)",
            [
                (f"m{n:015d}", config_text(replace(CARNYX, id=f"m{n:015d}")), events, f"t{n}")
                for n in range(matches)
            ],
        )
        connection.executemany(
            "INSERT INTO events (match_id, idx, kind, seat, text, at) "
            "VALUES (?, ?, 'turn', ?, ?, 't')",
            [
                (f"m{n:015d}", i, i % 2, f"move {i} of match {n} — ü")
                for n in range(matches)
                for i in range(events)
            ],
        )
    connection.close()
    return path


def test_a_long_copy_tells_its_progress_and_a_second_is_refused(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = filled(tmp_path / "big.sqlite3", 500, 50)
    code, out, err = run(capsys, "db", "copy", str(source), postgres_url)
    assert code == 0, err
    assert "copied 500 matches, 25000 events and 0 matches set aside" in out
    assert err.splitlines() == [
        "boardlab: events: 10,000 of 25,000 rows copied",
        "boardlab: events: 20,000 of 25,000 rows copied",
    ]
    copied = rows(postgres_url)

    code, out, err = run(capsys, "db", "copy", "--quiet", str(source), postgres_url)
    assert (code, out) == (2, "")
    assert err == (
        "boardlab: error: the target already holds 500 matches: give --add to add these to them\n"
    )
    code, out, err = run(capsys, "db", "copy", "--add", str(source), postgres_url)
    assert code == 2 and "the target already holds matches of the source (m000000000000000" in err
    other = filled(tmp_path / "other.sqlite3", 0, 0)
    with sqlite3.connect(other) as connection:
        connection.execute("INSERT INTO set_aside VALUES ('z', 'reason', 't')")
    connection.close()
    code, out, err = run(capsys, "db", "copy", "--add", str(other), postgres_url)
    assert code == 0 and "copied 0 matches (beside the 500 it held), 0 events and 1" in out, err
    copied["set_aside"] = [("z", "reason", "t")]
    assert rows(postgres_url) == copied


def test_a_failed_copy_copies_nothing(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = filled(tmp_path / "bad.sqlite3", 3, 2)
    with sqlite3.connect(source) as connection:
        # A row edited by hand: SQLite keeps the text, PostgreSQL's integer column refuses it.
        connection.execute("UPDATE events SET seat = 'north' WHERE match_id = 'm000000000000002'")
    connection.close()
    code, out, err = run(capsys, "db", "copy", str(source), postgres_url)
    assert (code, out) == (2, "")
    assert err.startswith("boardlab: error: copying into PostgreSQL database 'postgres'")
    assert "failed, nothing was copied: invalid input syntax for type integer" in err
    assert rows(postgres_url) == {table: [] for table in TABLES}


def test_refusals_are_one_line_and_create_nothing(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = filled(tmp_path / "source.sqlite3", 1, 0)
    closed = f"postgresql://boardlab:s3cret@127.0.0.1:{free_port()}/boardlab"
    cases = [
        (("copy", str(tmp_path / "none.sqlite3"), postgres_url), "there is no SQLite store at"),
        (("copy", str(source), str(tmp_path / "x.sqlite3")), "is not a postgresql:// URL"),
        (("copy", postgres_url, postgres_url), "the source must be a SQLite file"),
        (("copy", str(source), closed), "cannot reach PostgreSQL database 'boardlab'"),
        (("copy", str(source), "postgresql://h/x?colour=red"), "URL cannot be read"),
        (("migrate", closed), "Connection refused"),
        (("migrate", str(tmp_path / "none.sqlite3")), "there is no SQLite store at"),
    ]
    for argv, words in cases:
        code, out, err = run(capsys, "db", *argv)
        assert (code, out) == (2, ""), argv
        assert err.startswith("boardlab: error: ") and err.count("\n") == 1, err
        assert words in err and "s3cret" not in err, err
    assert not (tmp_path / "none.sqlite3").exists()
    assert len(rows(source)["matches"]) == 1  # the source is untouched

    server = start_server(source)
    try:
        code, out, err = run(capsys, "db", "copy", str(source), postgres_url)
        assert code == 2 and "another boardlab serve is using" in err
        code, out, err = run(capsys, "db", "migrate", str(source))
        assert code == 2 and "another boardlab serve is using" in err
    finally:
        server.stop()


def test_migrate_creates_or_updates_the_schema_and_says_so(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "old.sqlite3"
    with sqlite3.connect(old) as connection:
        connection.execute(
            "CREATE TABLE matches (id TEXT PRIMARY KEY, game TEXT NOT NULL, "
            "config TEXT NOT NULL, created TEXT NOT NULL, status TEXT NOT NULL, "
            "result TEXT, plies INTEGER NOT NULL, updated TEXT NOT NULL)"
        )
        connection.execute(
            "CREATE TABLE events (match_id TEXT NOT NULL, idx INTEGER NOT NULL, "
            "kind TEXT NOT NULL, seat INTEGER NOT NULL, text TEXT NOT NULL, "
            "PRIMARY KEY (match_id, idx))"
        )
    connection.close()
    for target in (str(old), postgres_url):
        name = store_name(target)
        code, out, err = run(capsys, "db", "migrate", target)
        assert code == 0, err
        assert out.splitlines() == [
            f"{name}: applied step {step.version} of the schema ({step.name})"
            for step in MIGRATIONS
        ]
        code, out, err = run(capsys, "db", "migrate", target)
        assert (code, out) == (
            0,
            f"{name}: the schema is at version {LATEST}, the latest; nothing to do\n",
        )
    assert "PostgreSQL database 'postgres' on 127.0.0.1:" in store_name(postgres_url)


def test_the_copy_knows_every_column_of_the_schema(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    open_store(path).close()
    with sqlite3.connect(path) as connection:
        tables = [
            name
            for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if name != "schema_migrations"
        ]
        schema = {
            table: tuple(row[1] for row in connection.execute(f"PRAGMA table_info({table})"))
            for table in tables
        }
    connection.close()
    assert schema == TABLES


def test_the_help_names_both_kinds_of_store(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "serve", "--help")
    assert code == 0 and "postgresql://" in out
    code, out, _ = run(capsys, "db", "--help")
    assert code == 0 and "migrate" in out and "copy" in out
