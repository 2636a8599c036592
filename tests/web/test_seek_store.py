"""The store's calls for seeks and notification settings, on SQLite and on PostgreSQL: a seek
is listed while it is seen, taken once even by racing accepts on their own connections, found
by its poster's token hash, and counted per address and account; notification settings are
kept, replaced, turned off by their unsubscribe token and forgotten."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from boardlab.web.notifications_store import NotifySettings
from boardlab.web.seeks_store import Seek
from boardlab.web.store import Account, Store
from boardlab.web.stores import open_store


@pytest.fixture(params=["sqlite", "postgres"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """An empty database of each backend."""
    if request.param == "sqlite":
        return tmp_path / "store.sqlite3"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def store(target: str | Path) -> Iterator[Store]:
    opened = open_store(target)
    try:
        yield opened
    finally:
        opened.close()


def seek(
    seek_id: str,
    address: str = "127.0.0.1",
    account: str | None = None,
    seen: str = "2026-01-01T00:00:10",
) -> Seek:
    return Seek(
        seek_id,
        f"hash-{seek_id}",
        account,
        address,
        "Guest",
        "carnyx",
        {"max_plies": "300"},
        "1d",
        account is not None,
        1400 if account else None,
        None,
        "2026-01-01T00:00:00",
        seen,
    )


def test_a_seek_is_listed_while_seen_and_found_by_its_token(store: Store) -> None:
    store.add_seek(seek("a"))
    store.add_seek(seek("b", account="acc", seen="2026-01-01T00:00:01"))
    assert [s.id for s in store.open_seeks("2026-01-01T00:00:05")] == ["a"]
    assert store.open_seeks("2026-01-01T00:00:00") == [
        seek("a"),
        seek("b", "127.0.0.1", "acc", "2026-01-01T00:00:01"),
    ]
    store.touch_seeks(["b"], "2026-01-01T00:00:20")
    assert [s.id for s in store.open_seeks("2026-01-01T00:00:15")] == ["b"]
    assert [s.id for s in store.seeks_by_token(["hash-b", "hash-x"])] == ["b"]
    assert store.seek_counts("127.0.0.1", "acc") == (2, 1, 2)
    assert store.seek_counts("127.0.0.2", None) == (0, 0, 2)
    store.drop_stale_seeks("2026-01-01T00:00:15")
    assert [s.id for s in store.open_seeks("")] == ["b"]
    store.drop_account_seeks("acc")
    assert store.open_seeks("") == []


def test_a_taken_seek_is_no_longer_open_and_names_its_match(store: Store) -> None:
    store.add_seek(seek("a"))
    assert store.take_seek("a", "match-1", 1, "2026-01-01T00:00:20") is None  # not seen since
    taken = store.take_seek("a", "match-1", 1, "2026-01-01T00:00:00")
    assert taken == seek("a")
    assert store.take_seek("a", "match-2", 0, "") is None
    assert store.open_seeks("") == []
    assert store.seek_counts("127.0.0.1", None) == (0, 0, 0)
    (found,) = store.seeks_by_token(["hash-a"])
    assert (found.match_id, found.seat) == ("match-1", 1)
    store.drop_seeks(["a"])
    assert store.seeks_by_token(["hash-a"]) == []


def test_racing_accepts_on_their_own_connections_take_a_seek_once(target: str | Path) -> None:
    rounds, racers = 10, 4
    setup = open_store(target)
    for round_ in range(rounds):
        setup.add_seek(seek(f"s{round_}"))
    won: list[list[str]] = [[] for _ in range(rounds)]
    barrier = threading.Barrier(racers)

    def accept(index: int) -> None:
        own = open_store(target)  # a connection of its own, opened in its thread
        try:
            for round_ in range(rounds):
                barrier.wait()
                if own.take_seek(f"s{round_}", f"m{index}", 0, "") is not None:
                    won[round_].append(f"m{index}")
        finally:
            own.close()

    threads = [threading.Thread(target=accept, args=(i,)) for i in range(racers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        for round_ in range(rounds):
            assert len(won[round_]) == 1
            (found,) = setup.seeks_by_token([f"hash-s{round_}"])
            assert found.match_id == won[round_][0]
    finally:
        setup.close()


def test_notification_settings_are_kept_replaced_unsubscribed_and_forgotten(store: Store) -> None:
    assert store.notify_settings("acc") is None
    first = NotifySettings("acc", "a@example.org", True, "tok1", "2026-01-01")
    store.set_notify_settings(first)
    assert store.notify_settings("acc") == first
    second = NotifySettings("acc", "b@example.org", True, "tok2", "2026-01-02")
    store.set_notify_settings(second)
    assert store.notify_settings("acc") == second
    assert not store.unsubscribe("tok1", "2026-01-03")
    assert store.unsubscribe("tok2", "2026-01-03")
    assert store.notify_settings("acc") == NotifySettings(
        "acc", "b@example.org", False, "tok2", "2026-01-03"
    )
    store.forget_notify_settings("acc")
    assert store.notify_settings("acc") is None


def test_an_account_name_is_read_and_its_hash_replaced_only_while_unchanged(store: Store) -> None:
    assert store.create_account(Account("id1", "Ada", "ada", "h1", "2026-01-01"))
    assert store.account_name("id1") == "Ada"
    assert store.account_name("nobody") is None
    assert not store.rehash_password("id1", "h0", "h2")
    assert store.rehash_password("id1", "h1", "h2")
    found = store.account_named("ada")
    assert found is not None and found.password == "h2"
