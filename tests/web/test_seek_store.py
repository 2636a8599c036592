"""The store's calls for seeks and notification settings, on SQLite and on PostgreSQL: a seek
is listed while it is seen, taken once even by racing accepts on their own connections, found
by its poster's token hash, and counted per address and account; a seek of more seats is
joined seat by seat (never twice by one account or page, never past the limits), its joins
left, swept or dropped with it, and its last seat taken by exactly one of racing joiners;
notification settings are kept, replaced, turned off by their unsubscribe token and
forgotten."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

import pytest

from boardlab.web.notifications_store import NotifySettings
from boardlab.web.seeks_store import Seek, SeekJoin, SeekLimits, SeekRefused
from boardlab.web.store import Account, Store
from boardlab.web.stores import open_store


def seek(
    seek_id: str,
    address: str = "127.0.0.1",
    account: str | None = None,
    seen: str = "2026-01-01T00:00:10",
    seats: int = 2,
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
        seats=seats,
    )


def joiner(
    seek_id: str, name: str, account: str | None = None, address: str = "127.0.0.9"
) -> SeekJoin:
    """A join of ``seek_id`` by ``name`` (its token hash ``join-<name>``)."""
    return SeekJoin(
        seek_id,
        f"join-{name}",
        account,
        address,
        name,
        f"2026-01-01T00:00:0{len(name)}",
        "2026-01-01T00:00:10",
    )


def join(
    store: Store,
    seek_id: str,
    one: SeekJoin,
    known: tuple[str, ...] | list[str] = (),
    limits: SeekLimits | None = None,
) -> tuple[str | None, int]:
    """Join through ``store`` (the poster in seat 0, the joiners in the order they came): the
    match made (None while open) and the seats taken."""
    order = list(range(_seats(store, seek_id)))
    joined = store.join_seek(seek_id, one, "", f"m-{one.name}", order, known, limits)
    return joined.seek.match_id, joined.seek.joined + 1


def _seats(store: Store, seek_id: str) -> int:
    return next(s.seats for s in store.open_seeks("") if s.id == seek_id)


def test_a_seek_is_listed_while_seen_and_found_by_its_token(store: Store) -> None:
    store.add_seek(seek("a"))
    store.add_seek(seek("b", account="acc", seen="2026-01-01T00:00:01"))
    assert [s.id for s in store.open_seeks("2026-01-01T00:00:05")] == ["a"]
    assert store.open_seeks("2026-01-01T00:00:00") == [
        seek("a"),
        seek("b", "127.0.0.1", "acc", "2026-01-01T00:00:01"),
    ]
    store.touch_seeks(["b"], [], "2026-01-01T00:00:20")
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
    one = joiner("a", "bea")
    with pytest.raises(SeekRefused, match="gone"):  # not seen since
        store.join_seek("a", one, "2026-01-01T00:00:20", "match-1", [1, 0])
    taken = store.join_seek("a", one, "2026-01-01T00:00:00", "match-1", [1, 0])
    assert taken.seek == replace(seek("a"), match_id="match-1", seat=1, joined=1)
    assert [j.seat for j in taken.joins] == [0]
    with pytest.raises(SeekRefused, match="gone"):
        store.join_seek("a", joiner("a", "cy"), "", "match-2", [0, 1])
    assert store.open_seeks("") == []
    assert store.seek_counts("127.0.0.1", None) == (0, 0, 0)
    (found,) = store.seeks_by_token(["hash-a"])
    assert (found.match_id, found.seat) == ("match-1", 1)
    assert store.joins_by_token(["join-bea"]) == [(taken.joins[0], "match-1")]
    store.drop_seeks(["a"])
    assert store.seeks_by_token(["hash-a"]) == []
    assert store.joins_by_token(["join-bea"]) == []


def test_a_seek_of_four_seats_is_joined_seat_by_seat_and_left(store: Store) -> None:
    store.add_seek(seek("a", account="ada", seats=4))
    assert join(store, "a", joiner("a", "bea", "bea")) == (None, 2)
    with pytest.raises(SeekRefused, match="twice"):  # the same account from another page
        join(store, "a", joiner("a", "bea2", "bea"))
    with pytest.raises(SeekRefused, match="twice"):  # the same page (its join's token)
        join(store, "a", joiner("a", "guest"), known=["join-bea"])
    with pytest.raises(SeekRefused, match="own"):
        join(store, "a", joiner("a", "ada2", "ada"))
    with pytest.raises(SeekRefused, match="own"):
        join(store, "a", joiner("a", "guest"), known=["hash-a"])
    assert join(store, "a", joiner("a", "cy")) == (None, 3)
    assert [s.joined for s in store.open_seeks("")] == [2]
    assert store.seek_counts("127.0.0.9", "bea") == (2, 1, 1)
    assert store.leave_seeks(["join-cy", "join-nobody"]) == ["a"]
    assert store.leave_seeks(["join-cy"]) == []
    assert [s.joined for s in store.open_seeks("")] == [1]
    assert join(store, "a", joiner("a", "dee")) == (None, 3)
    match, taken = join(store, "a", joiner("a", "eve"))
    assert (match, taken) == ("m-eve", 4)
    # The poster in seat 0, the joiners in the order they came.
    found = store.joins_by_token(["join-bea", "join-dee", "join-eve"])
    assert [(j.name, j.seat, m) for j, m in found] == [
        ("bea", 1, "m-eve"),
        ("dee", 2, "m-eve"),
        ("eve", 3, "m-eve"),
    ]
    assert store.leave_seeks(["join-bea"]) == []  # too late: the match is made


def test_joins_count_against_the_limits_and_go_with_their_seek(store: Store) -> None:
    limits = SeekLimits(1, 1, 3)
    for name in "abc":
        store.add_seek(seek(name, address=f"127.0.0.{ord(name)}", seats=3), limits)
    with pytest.raises(SeekRefused, match="all"):
        store.add_seek(seek("d", seats=3), limits)
    assert join(store, "a", joiner("a", "bea"), limits=limits) == (None, 2)
    with pytest.raises(SeekRefused, match="address"):
        join(store, "b", joiner("b", "cy"), limits=limits)
    assert join(store, "b", joiner("b", "cy", address="127.0.0.8"), limits=limits) == (None, 2)
    with pytest.raises(SeekRefused, match="account"):
        store.add_seek(seek("f", address="127.0.0.7", account="acc"), SeekLimits(2, 0, 9))
    # A join that takes the last seat is not counted: it leaves nothing open.
    assert join(store, "a", joiner("a", "dee"), limits=limits)[0] == "m-dee"
    store.drop_seeks(["b"])
    assert store.joins_by_token(["join-cy"]) == []
    # A join nobody renews is swept, and its seat freed; so is a seek with its joins.
    assert join(store, "c", joiner("c", "eve")) == (None, 2)
    store.touch_seeks(["c"], [], "2026-01-01T00:00:30")
    store.drop_stale_seeks("2026-01-01T00:00:20")
    assert [(s.id, s.joined) for s in store.open_seeks("")] == [("c", 0)]
    assert join(store, "c", joiner("c", "fay", "fay")) == (None, 2)
    store.drop_account_seeks("fay")
    assert [(s.id, s.joined) for s in store.open_seeks("")] == [("c", 0)]


@pytest.mark.parametrize("seats", [2, 3])
def test_racing_joiners_on_their_own_connections_take_the_last_seat_once(
    target: str | Path, seats: int
) -> None:
    rounds, racers = 6, 4
    setup = open_store(target)
    for round_ in range(rounds):
        setup.add_seek(seek(f"s{round_}", seats=seats))
        if seats == 3:
            setup.join_seek(f"s{round_}", joiner(f"s{round_}", "first"), "", "x", [0, 1, 2])
    won: list[list[str]] = [[] for _ in range(rounds)]
    refused: list[str] = []
    barrier = threading.Barrier(racers)

    def accept(index: int) -> None:
        own = open_store(target)  # a connection of its own, opened in its thread
        try:
            for round_ in range(rounds):
                barrier.wait()
                one = joiner(f"s{round_}", f"r{index}")
                try:
                    own.join_seek(f"s{round_}", one, "", f"m{index}", list(range(seats)))
                except SeekRefused as error:
                    refused.append(error.reason)
                else:
                    won[round_].append(f"m{index}")
        finally:
            own.close()

    threads = [threading.Thread(target=accept, args=(i,)) for i in range(racers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert set(refused) == {"gone"} and len(refused) == rounds * (racers - 1)
        for round_ in range(rounds):
            assert len(won[round_]) == 1
            (found,) = setup.seeks_by_token([f"hash-s{round_}"])
            assert (found.match_id, found.joined) == (won[round_][0], seats - 1)
            seated = setup.joins_by_token([f"join-r{i}" for i in range(racers)])
            assert [m for j, m in seated if j.seek_id == f"s{round_}"] == won[round_]
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
