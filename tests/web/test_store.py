"""The store contract, held by both backends: SQLite (a file) and PostgreSQL (a real server).

Every test here runs once per backend: what is kept survives reopening, an event index is taken
once even by two writers racing in two threads with their own connections, an invite is
claimed once, the lobby's order and filters, matches set aside, any text, large events,
accounts with their sessions and seats, and the migration table.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest

from boardlab.web.migrations import LATEST, MIGRATIONS, SchemaTooNew, migrate
from boardlab.web.sql_store import config_text
from boardlab.web.store import (
    Account,
    ChatLine,
    Event,
    MatchConfig,
    SeatConfig,
    SetAside,
    Store,
    StoreConflict,
    StoreUnavailable,
    Summary,
)
from boardlab.web.stores import open_store
from tests.web.postgres import Cluster

RACE_ROUNDS = 25


@dataclass
class Backend:
    """Where a test's store lives, and a side door to its tables."""

    name: str
    target: str | Path

    def open(self) -> Store:
        """A new store on this database (a connection of its own)."""
        return open_store(self.target)

    def query(self, sql: str) -> list[tuple[Any, ...]]:
        """Run ``sql`` on a connection of its own, committed; the rows it returns."""
        if self.name == "sqlite":
            with sqlite3.connect(self.target) as connection:
                return connection.execute(sql).fetchall()
        with psycopg.connect(str(self.target), autocommit=True) as connection:
            cursor = connection.execute(sql)
            return cursor.fetchall() if cursor.description is not None else []


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    """An empty database of each backend (the PostgreSQL one in the session's cluster)."""
    if request.param == "sqlite":
        return Backend("sqlite", tmp_path / "store.sqlite3")
    return Backend("postgres", request.getfixturevalue("postgres_url"))


@pytest.fixture
def store(backend: Backend) -> Iterator[Store]:
    """A store on the test's database, closed after the test."""
    opened = backend.open()
    try:
        yield opened
    finally:
        opened.close()


def config(
    match_id: str, game: str = "murus-gallicus", created: str = "2026-01-01", **options: str
) -> MatchConfig:
    seats = (SeatConfig("human", None, "ab" * 32), SeatConfig("bot", "level:easy", None))
    return MatchConfig(match_id, game, options or {"board": "8x7"}, seats, created)


def test_a_match_and_its_events_survive_reopening(backend: Backend) -> None:
    store = backend.open()
    store.create(config("m" * 16), Summary("active", None, 0, "t0", None, 0))
    store.append("m" * 16, 0, Event("turn", 0, "d1-d3", "a0"), Summary("active", None, 1, "t1"))
    finished = Summary("finished", "Romans won", 1, "t2", "d2", None)
    store.append("m" * 16, 1, Event("resign", 1, ""), finished)
    store.close()

    reopened = backend.open()
    stored = reopened.load("m" * 16)
    reopened.close()
    assert stored is not None
    assert stored.config == config("m" * 16)
    assert stored.events == (Event("turn", 0, "d1-d3", "a0"), Event("resign", 1, ""))
    assert stored.summary == finished


def test_an_event_index_is_taken_only_once(store: Store) -> None:
    store.create(config("a" * 16), Summary("active", None, 0, "t0"))
    store.append("a" * 16, 0, Event("turn", 0, "d1-d3"), Summary("active", None, 1, "t1"))
    with pytest.raises(StoreConflict, match=f"match {'a' * 16} already has event 0"):
        store.append("a" * 16, 0, Event("turn", 0, "c1-c3"), Summary("active", None, 1, "t2"))
    stored = store.load("a" * 16)
    assert stored is not None
    # The refused append changed nothing, not even the summary.
    assert stored.events == (Event("turn", 0, "d1-d3"),)
    assert stored.summary.updated == "t1"


def test_an_event_of_a_match_that_does_not_exist_is_refused(store: Store) -> None:
    with pytest.raises(StoreConflict):
        store.append("n" * 16, 0, Event("turn", 0, "d1-d3"), Summary("active", None, 1, "t1"))
    assert store.load("n" * 16) is None
    assert store.list() == []


def test_two_writers_racing_for_one_index_one_wins(backend: Backend) -> None:
    """Two threads, each with its own store (its own connection), append the same index at
    once, round after round: exactly one wins each round, and the store keeps its event."""
    setup = backend.open()
    setup.create(config("r" * 16), Summary("active", None, 0, "t0"))
    setup.close()
    start = threading.Barrier(2, timeout=30)
    won: list[list[int]] = [[], []]
    failures: list[BaseException] = []

    def writer(seat: int) -> None:
        store = backend.open()
        try:
            for index in range(RACE_ROUNDS):
                start.wait()
                event = Event("turn", seat, f"writer {seat} at {index}")
                try:
                    store.append("r" * 16, index, event, Summary("active", None, index, "t"))
                except StoreConflict:
                    continue
                won[seat].append(index)
        except BaseException as error:  # reported by the test, not lost in the thread
            failures.append(error)
            start.abort()
        finally:
            store.close()

    threads = [threading.Thread(target=writer, args=(seat,)) for seat in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not failures
    assert sorted(won[0] + won[1]) == list(range(RACE_ROUNDS)), won
    check = backend.open()
    stored = check.load("r" * 16)
    check.close()
    assert stored is not None
    winners = [0 if index in won[0] else 1 for index in range(RACE_ROUNDS)]
    assert stored.events == tuple(
        Event("turn", seat, f"writer {seat} at {index}") for index, seat in enumerate(winners)
    )


def test_unknown_match_is_none(store: Store) -> None:
    assert store.load("x" * 16) is None


def test_list_filters_by_game_and_status_newest_first(store: Store) -> None:
    store.create(config("a" * 16), Summary("active", None, 0, "t1"))
    store.create(config("b" * 16, "carnyx"), Summary("active", None, 0, "t2"))
    store.create(config("c" * 16), Summary("active", None, 0, "t3"))
    store.append("a" * 16, 0, Event("resign", 0, ""), Summary("finished", "Gauls won", 0, "t4"))
    # Equal times: the one created later first.
    store.create(config("d" * 16, created="2026-01-02"), Summary("active", None, 0, "t3"))

    assert [c.id[0] for c, _ in store.list()] == ["a", "d", "c", "b"]
    assert [c.id[0] for c, _ in store.list(game="murus-gallicus")] == ["a", "d", "c"]
    assert [c.id[0] for c, _ in store.list(status="active")] == ["d", "c", "b"]
    assert [c.id[0] for c, _ in store.list(game="carnyx", status="finished")] == []
    assert [c.id[0] for c, _ in store.list(limit=2)] == ["a", "d"]
    assert store.list()[0][1] == Summary("finished", "Gauls won", 0, "t4")


def test_list_orders_times_by_their_characters(store: Store) -> None:
    """ISO times sort as text, whatever the database's locale would do with punctuation."""
    times = ["2026-11-29T08:00:00.000001+00:00", "2026-11-29T08:00:00.000010+00:00"]
    store.create(config("a" * 16), Summary("active", None, 0, times[1]))
    store.create(config("b" * 16), Summary("active", None, 0, times[0]))
    assert [c.id[0] for c, _ in store.list()] == ["a", "b"]


def test_a_seat_is_claimed_once_even_from_two_connections(backend: Backend) -> None:
    first, second = backend.open(), backend.open()
    first.create(config("c" * 16), Summary("active", None, 0, "t0"))
    invite, mine, theirs = "ab" * 32, "cd" * 32, "ef" * 32
    assert first.claim_seat("c" * 16, 0, invite, mine)
    assert not second.claim_seat("c" * 16, 0, invite, theirs), "the invite is used up"
    assert not second.claim_seat("c" * 16, 1, invite, theirs), "seat 1 never had that hash"
    assert not second.claim_seat("c" * 16, 5, invite, theirs)
    assert not second.claim_seat("x" * 16, 0, invite, theirs)
    first.close()
    second.close()
    check = backend.open()
    stored = check.load("c" * 16)
    check.close()
    assert stored is not None
    assert [seat.token_hash for seat in stored.config.seats] == [mine, None]
    assert stored.config.seats[0].kind == "human" and stored.config.options == {"board": "8x7"}


def test_an_invite_raced_by_four_threads_is_claimed_once(backend: Backend) -> None:
    setup = backend.open()
    setup.create(config("i" * 16), Summary("active", None, 0, "t0"))
    setup.close()
    start = threading.Barrier(4, timeout=30)
    claimed: list[str] = []

    def claim(token: str) -> None:
        store = backend.open()
        try:
            start.wait()
            if store.claim_seat("i" * 16, 0, "ab" * 32, token):
                claimed.append(token)
        finally:
            store.close()

    tokens = [digit * 64 for digit in "1234"]
    threads = [threading.Thread(target=claim, args=(token,)) for token in tokens]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(claimed) == 1
    check = backend.open()
    stored = check.load("i" * 16)
    check.close()
    assert stored is not None and stored.config.seats[0].token_hash == claimed[0]


def test_a_match_set_aside_is_neither_loaded_nor_listed(store: Store) -> None:
    store.create(config("a" * 16), Summary("active", None, 0, "t1"))
    store.create(config("b" * 16), Summary("active", None, 0, "t2"))
    store.set_aside("b" * 16, "its events cannot be replayed", "2026-02-02")
    store.set_aside("a" * 16, "a hand-edited row", "2026-02-01")
    store.set_aside("b" * 16, "a second reason is not kept", "2026-02-03")

    with pytest.raises(SetAside, match="its events cannot be replayed"):
        store.load("b" * 16)
    assert store.list() == []
    assert store.set_aside_matches() == (
        ("a" * 16, "a hand-edited row", "2026-02-01"),
        ("b" * 16, "its events cannot be replayed", "2026-02-02"),
    )


def test_a_row_that_cannot_be_read_is_set_aside_by_the_list(backend: Backend, store: Store) -> None:
    store.create(config("a" * 16), Summary("active", None, 0, "t1"))
    store.create(config("b" * 16), Summary("active", None, 0, "t2"))
    backend.query(f"UPDATE matches SET config = '{{\"seats\": 1}}' WHERE id = '{'b' * 16}'")

    assert [c.id for c, _ in store.list()] == ["a" * 16]
    ((match, reason, _),) = store.set_aside_matches()
    assert match == "b" * 16 and "cannot be read" in reason
    assert [c.id for c, _ in store.list()] == ["a" * 16]


TEXTS = (
    "Ω≈ç√ 漢字 ‮right-to-left‬ e\u0301 🎲🐍 \U0010fffd",
    '\'; DROP TABLE events; -- "quoted" \\back\\slash %s %(x)s ?',
    "tab\tnew\nline\r\x01\x7f",
)


@pytest.mark.parametrize("text", TEXTS)
def test_any_text_is_kept_exactly(store: Store, text: str) -> None:
    store.create(config("u" * 16, **{"note": text}), Summary("active", text, 0, "t0"))
    store.append("u" * 16, 0, Event("turn", 0, text, text), Summary("finished", text, 1, "t1"))
    store.set_aside("v" * 16, text, "t2")

    stored = store.load("u" * 16)
    assert stored is not None
    assert stored.config.options == {"note": text}
    assert stored.events == (Event("turn", 0, text, text),)
    assert stored.summary.result == text
    assert store.set_aside_matches() == (("v" * 16, text, "t2"),)


def test_large_events_and_many_events_are_kept_in_order(store: Store) -> None:
    store.create(config("l" * 16), Summary("active", None, 0, "t0"))
    big = "".join(chr(0x41 + i % 26) for i in range(1 << 20))  # 1 MiB of text
    store.append("l" * 16, 0, Event("turn", 0, big), Summary("active", None, 1, "t1"))
    for index in range(1, 600):
        event = Event("turn", index % 2, f"move {index}")
        store.append("l" * 16, index, event, Summary("active", None, index + 1, f"t{index}"))

    stored = store.load("l" * 16)
    assert stored is not None
    assert stored.events[0].text == big
    assert [event.text for event in stored.events[1:]] == [f"move {i}" for i in range(1, 600)]
    assert stored.summary.plies == 600


def account(name: str, password: str = "hash") -> Account:
    return Account(f"id-{name.lower()}", name, name.lower(), password, "2026-03-01")


def test_an_account_name_is_taken_once_whatever_its_case(store: Store) -> None:
    assert store.create_account(account("Ada"))
    assert not store.create_account(Account("other", "ADA", "ada", "x", "2026-03-02"))
    assert store.account_named("ada") == account("Ada")
    assert store.account_named("bob") is None


def test_a_session_lives_until_it_is_idle_too_long_closed_or_its_password_changes(
    store: Store,
) -> None:
    store.create_account(account("Ada"))
    store.open_session("s1", "id-ada", "2026-03-02", "2026-02-01")
    store.open_session("s2", "id-ada", "2026-03-02", "2026-02-01")
    assert store.session_account("s1", "2026-03-01", "2026-03-05T10:00") == account("Ada")
    # Seen again in the same hour: no write; the time kept is still a time of that hour.
    assert store.session_account("s1", "2026-03-01", "2026-03-05T10:59") is not None
    assert store.session_account("s1", "2026-03-05T10:00", "2026-03-05T11:00") is not None
    assert store.session_account("s1", "2026-03-05T11:00", "2026-03-05T12:00") is not None
    # Seen on 03-05 now: alive since 03-04, while s2 (last seen 03-02) is not.
    assert store.session_account("s1", "2026-03-04", "2026-03-06") is not None
    assert store.session_account("s2", "2026-03-04", "2026-03-06") is None
    assert store.session_account("nobody", "2000", "2026-03-06") is None
    store.close_session("s1")
    assert store.session_account("s1", "2000", "2026-03-06") is None
    # A new session sweeps those idle since before its ``since``.
    store.open_session("s3", "id-ada", "2026-03-07", "2026-03-03")
    assert store.session_account("s2", "2000", "2026-03-07") is None
    store.set_password("id-ada", "new hash")
    assert store.session_account("s3", "2000", "2026-03-08") is None
    assert store.account_named("ada") == account("Ada", "new hash")


def test_seats_follow_an_account_and_go_back_to_their_tokens_when_it_is_deleted(
    store: Store,
) -> None:
    for name in ("Ada", "Bob"):
        store.create_account(account(name))
        store.open_session(f"s-{name}", f"id-{name.lower()}", "2026-03-02", "2026-02-01")
    store.create(config("a" * 16), Summary("active", None, 0, "t1"))
    store.create(config("b" * 16), Summary("active", None, 0, "t2"))
    store.hold_seats("id-ada", "a" * 16, [0, 1])
    store.hold_seats("id-bob", "a" * 16, [1])  # taken: Ada keeps it
    store.hold_seats("id-bob", "b" * 16, [0])
    assert store.session_seats("s-Ada", "a" * 16, "2026-03-01") == {0, 1}
    assert store.session_seats("s-Bob", "a" * 16, "2026-03-01") == set()
    assert store.session_seats("s-Ada", "a" * 16, "2026-03-03") == set()  # idle too long
    store.hold_seats("id-bob", "a" * 16, [1], take=True)  # an invite claimed moves it
    assert store.seat_accounts("a" * 16) == {0: "id-ada", 1: "id-bob"}
    store.append("b" * 16, 0, Event("turn", 0, "d1-d3"), Summary("active", None, 1, "t3"))
    assert store.account_matches("id-bob", 10) == {"b" * 16: {0}, "a" * 16: {1}}
    assert list(store.account_matches("id-bob", 1)) == ["b" * 16]  # most recently updated
    store.set_aside("b" * 16, "unreadable", "t4")
    assert list(store.account_matches("id-bob", 10)) == ["a" * 16]

    store.delete_account("id-ada")
    assert store.account_named("ada") is None
    assert store.session_account("s-Ada", "2000", "2026-03-04") is None
    assert store.seat_accounts("a" * 16) == {1: "id-bob"}
    stored = store.load("a" * 16)
    assert stored is not None and stored.config.seats[0].token_hash == "ab" * 32


def test_chat_lines_are_numbered_per_match_and_read_by_channel(backend: Backend) -> None:
    store = backend.open()
    for match in ("a" * 16, "b" * 16):
        store.create(config(match), Summary("active", None, 0, "t0"))
    said = [
        store.add_chat("a" * 16, "players", 0, "Romans", "<b>hi</b> ☺", "t1"),
        store.add_chat("a" * 16, "spectators", None, "Spectator", "go", "t2"),
        store.add_chat("b" * 16, "spectators", 1, "Gauls", "other match", "t3"),
        store.add_chat("a" * 16, "players", 1, "ada", "'; DROP TABLE chat; --", "t4"),
    ]
    assert [line.index for line in said] == [0, 1, 0, 2]
    assert said[0] == ChatLine(0, "players", 0, "Romans", "<b>hi</b> ☺", "t1")
    store.close()
    store = backend.open()
    assert store.chat("a" * 16, ("players", "spectators"), 10) == [said[0], said[1], said[3]]
    assert store.chat("a" * 16, ("spectators",), 10) == [said[1]]
    assert store.chat("a" * 16, ("players", "spectators"), 2) == [said[1], said[3]]
    assert store.chat("a" * 16, (), 10) == []
    assert not store.spectator_chat_closed("a" * 16)
    store.close_spectator_chat("a" * 16, 1, "t5")
    store.close_spectator_chat("a" * 16, 0, "t6")  # already off: kept as it is
    assert store.spectator_chat_closed("a" * 16) and not store.spectator_chat_closed("b" * 16)
    store.close_spectator_chat("a" * 16, None, "t7")
    assert not store.spectator_chat_closed("a" * 16)
    store.close()


def test_the_migration_table_records_every_step_once(backend: Backend) -> None:
    backend.open().close()
    backend.open().close()
    rows = backend.query("SELECT version, name FROM schema_migrations ORDER BY version")
    assert rows == [(step.version, step.name) for step in MIGRATIONS]
    # Steps are numbered in order; numbers reserved for work not yet landed may be missing.
    versions = [step.version for step in MIGRATIONS]
    assert versions == sorted(set(versions)) and versions[-1] == LATEST


def test_a_step_that_landed_after_a_higher_one_is_still_applied(tmp_path: Path) -> None:
    """A store migrated while steps 4 and 5 were not yet written (6 was) gets them later."""
    path = tmp_path / "gap.sqlite3"
    with sqlite3.connect(path) as connection:

        def run(statement: str, values: Sequence[Any]) -> list[Any]:
            return connection.execute(statement, values).fetchall()

        early = [step for step in MIGRATIONS if step.version not in (4, 5)]
        assert [step.version for step in migrate(run, "sqlite", "t0", early)] == [
            step.version for step in early
        ]
        later = migrate(run, "sqlite", "t1")
        assert [step.version for step in later] == [4, 5]
        assert migrate(run, "sqlite", "t2") == ()
    connection.close()
    assert columns(Backend("sqlite", path)) == columns(Backend("sqlite", _fresh(tmp_path)))


def test_a_store_of_a_newer_boardlab_is_refused(backend: Backend) -> None:
    store = backend.open()
    store.create(config("a" * 16), Summary("active", None, 0, "t1"))
    store.close()
    backend.query(
        f"INSERT INTO schema_migrations VALUES ({LATEST + 1}, 'from the future', 'later')"
    )
    with pytest.raises(SchemaTooNew, match=f"version {LATEST + 1}, newer than"):
        backend.open()


def columns(backend: Backend) -> dict[str, list[str]]:
    """Each table's columns, in order, as the backend describes them."""
    if backend.name == "sqlite":
        tables = [
            name for (name,) in backend.query("SELECT name FROM sqlite_master WHERE type = 'table'")
        ]
        return {
            table: [row[1] for row in backend.query(f"PRAGMA table_info({table})")]
            for table in tables
        }
    found: dict[str, list[str]] = {}
    for table, column in backend.query(
        "SELECT table_name, column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
    ):
        found.setdefault(table, []).append(column)
    return found


def test_both_backends_make_the_same_tables(tmp_path: Path, postgres_url: str) -> None:
    sqlite, postgres = Backend("sqlite", tmp_path / "a.sqlite3"), Backend("postgres", postgres_url)
    sqlite.open().close()
    postgres.open().close()
    assert columns(sqlite) == columns(postgres)
    assert set(columns(sqlite)) == {
        "matches",
        "events",
        "set_aside",
        "schema_migrations",
        "accounts",
        "account_sessions",
        "account_seats",
        "chat",
        "seeks",
        "seek_joins",
        "notify_settings",
        "chat_closed",
        "bot_leases",
        "open_pages",
        "ratings",
        "rating_changes",
        "rated_matches",
        "archive_games",
        "archive_players",
        "archive_options",
        "playtests",
        "playtest_matches",
        "playtest_waiting",
        "playtest_answers",
        "playtest_refusals",
        "playtest_bots",
    }


OLD_SCHEMA = """
CREATE TABLE matches (id TEXT PRIMARY KEY, game TEXT NOT NULL, config TEXT NOT NULL,
    created TEXT NOT NULL, status TEXT NOT NULL, result TEXT, plies INTEGER NOT NULL,
    updated TEXT NOT NULL);
CREATE INDEX matches_by_update ON matches (updated DESC);
CREATE TABLE events (match_id TEXT NOT NULL REFERENCES matches (id), idx INTEGER NOT NULL,
    kind TEXT NOT NULL, seat INTEGER NOT NULL, text TEXT NOT NULL, PRIMARY KEY (match_id, idx));
"""
"""A store as the first web app wrote it: no times, no deadline, no seat to move, no
set_aside table, no migration table."""


def test_a_sqlite_file_of_the_first_schema_opens_and_is_migrated(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as old:
        old.executescript(OLD_SCHEMA)
        old.execute(
            "INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                "o" * 16,
                "murus-gallicus",
                config_text(config("o" * 16)),
                "t0",
                "active",
                None,
                1,
                "t1",
            ),
        )
        old.execute("INSERT INTO events VALUES (?, 0, 'turn', 0, 'd1-d3')", ("o" * 16,))
    old.close()

    store = open_store(path)
    stored = store.load("o" * 16)
    assert stored is not None
    assert stored.events == (Event("turn", 0, "d1-d3", ""),)
    assert stored.summary == Summary("active", None, 1, "t1", None, None)
    store.append("o" * 16, 1, Event("turn", 1, "c7-c5", "t2"), Summary("active", None, 2, "t2"))
    store.set_aside("x" * 16, "never existed", "t3")
    store.close()
    backend = Backend("sqlite", path)
    assert backend.query("SELECT version FROM schema_migrations ORDER BY version") == [
        (step.version,) for step in MIGRATIONS
    ]
    assert columns(backend) == columns(Backend("sqlite", _fresh(tmp_path)))


def _fresh(tmp_path: Path) -> Path:
    path = tmp_path / "fresh.sqlite3"
    open_store(path).close()
    return path


def test_a_stopped_postgresql_is_unavailable_and_the_store_recovers(
    postgres_url: str, postgres_cluster: Cluster
) -> None:
    store = open_store(postgres_url)
    store.create(config("p" * 16), Summary("active", None, 0, "t0"))
    postgres_cluster.stop()
    try:
        calls: list[Callable[[], object]] = [
            lambda: store.load("p" * 16),
            lambda: store.list(),
            lambda: store.append(
                "p" * 16, 0, Event("turn", 0, "x"), Summary("active", None, 1, "t")
            ),
        ]
        for call in calls:
            with pytest.raises(StoreUnavailable, match="unavailable"):
                call()
    finally:
        postgres_cluster.start()
    for _ in range(300):
        try:
            store.append("p" * 16, 0, Event("turn", 0, "y"), Summary("active", None, 1, "t"))
            break
        except StoreUnavailable:
            threading.Event().wait(0.1)
    stored = store.load("p" * 16)
    store.close()
    assert stored is not None and stored.events == (Event("turn", 0, "y"),)
