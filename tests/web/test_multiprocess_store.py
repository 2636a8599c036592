"""The store's calls for several processes (``boardlab/web/leases.py``), on SQLite and on
PostgreSQL: a catch-up read gives the seats and the events from an index on; a bot turn's lease
is held by one holder until it runs out, is renewed by its holder, is never taken for a turn
already played, and is won by one of several connections racing for it; overdue matches are
found by their deadline. PostgreSQL announces every event and seat change to its listeners, and
every chat line and turning of the spectators' chat off or on."""

from __future__ import annotations

import threading
from pathlib import Path

import psycopg

from boardlab.web.fanout import CHANNEL, CHAT_CHANNEL, parse
from boardlab.web.store import Event, MatchConfig, SeatConfig, Store, Summary
from boardlab.web.stores import open_store

START = "2026-01-01T00:00:00.000000+00:00"


def new_match(store: Store, match_id: str, deadline: str | None = None) -> MatchConfig:
    seats = (SeatConfig("human", None, "a"), SeatConfig("bot", "random", None))
    config = MatchConfig(match_id, "murus-gallicus", {}, seats, START)
    store.create(config, Summary("active", None, 0, START, deadline, 0))
    return config


def turn(store: Store, match_id: str, index: int, text: str) -> None:
    store.append(
        match_id, index, Event("turn", index % 2, text, START), Summary("active", None, 1, START)
    )


def since(store: Store, match_id: str, index: int) -> tuple[str, tuple[Event, ...]]:
    """The catch-up read of a match that exists."""
    found = store.events_since(match_id, index)
    assert found is not None
    return found


def test_a_catch_up_reads_the_seats_and_the_events_from_an_index(store: Store) -> None:
    assert store.events_since("nothing", 0) is None
    new_match(store, "m1")
    text, events = since(store, "m1", 0)
    assert '"token_hash": "a"' in text and events == ()
    for index, move in enumerate(["d1-d3", "a7-a5", "d3-d4"]):
        turn(store, "m1", index, move)
    assert [event.text for event in since(store, "m1", 1)[1]] == ["a7-a5", "d3-d4"]
    assert since(store, "m1", 3)[1] == ()
    assert store.claim_seat("m1", 0, "a", "b")
    assert '"token_hash": "b"' in since(store, "m1", 3)[0]


def test_a_lease_is_held_by_one_holder_until_it_runs_out(store: Store) -> None:
    new_match(store, "m1")
    turn(store, "m1", 0, "d1-d3")
    assert store.take_lease("m1", 1, "p1", "2026-01-01T00:00:01", "2026-01-01T00:00:07")
    # Another holder is refused while the lease runs, for this turn or an earlier one.
    assert not store.take_lease("m1", 1, "p2", "2026-01-01T00:00:02", "2026-01-01T00:00:08")
    assert not store.take_lease("m1", 0, "p2", "2026-01-01T00:00:02", "2026-01-01T00:00:08")
    assert store.expired_leases("2026-01-01T00:00:06") == []
    # Renewed by its holder, it runs on.
    store.renew_leases("p1", "2026-01-01T00:00:12")
    assert store.expired_leases("2026-01-01T00:00:10") == []
    assert not store.take_lease("m1", 1, "p2", "2026-01-01T00:00:10", "2026-01-01T00:00:16")
    # Once it ran out (its holder died), it is listed and another holder takes it over.
    assert store.expired_leases("2026-01-01T00:00:13") == ["m1"]
    assert store.take_lease("m1", 1, "p2", "2026-01-01T00:00:13", "2026-01-01T00:00:19")
    assert not store.take_lease("m1", 1, "p1", "2026-01-01T00:00:14", "2026-01-01T00:00:20")
    # A release names the turn: the old holder's does nothing, the new holder's frees it.
    store.release_lease("m1", 1, "p1")
    assert not store.take_lease("m1", 1, "p3", "2026-01-01T00:00:14", "2026-01-01T00:00:20")
    store.release_lease("m1", 1, "p2")
    assert store.take_lease("m1", 1, "p3", "2026-01-01T00:00:14", "2026-01-01T00:00:20")


def test_a_lease_is_never_taken_for_a_turn_already_played(store: Store) -> None:
    new_match(store, "m1")
    turn(store, "m1", 0, "d1-d3")
    turn(store, "m1", 1, "a7-a5")
    assert not store.take_lease("m1", 1, "p1", "2026-01-01T00:00:01", "2026-01-01T00:00:07")
    assert store.expired_leases("2026-01-02T00:00:00") == [], "nothing was left behind"
    # A lease of a later turn replaces a lease of an earlier one, whoever holds it.
    assert store.take_lease("m1", 2, "p1", "2026-01-01T00:00:01", "2026-01-01T00:00:07")
    turn(store, "m1", 2, "d3-d4")
    assert store.take_lease("m1", 3, "p2", "2026-01-01T00:00:02", "2026-01-01T00:00:08")
    # A lease run out and then dropped (its turn done) is gone; one still running is kept.
    store.drop_expired_lease("m1", "2026-01-01T00:00:05")
    assert store.expired_leases("2026-01-01T00:00:09") == ["m1"]
    store.drop_expired_lease("m1", "2026-01-01T00:00:09")
    assert store.expired_leases("2026-01-02T00:00:00") == []


def test_connections_racing_for_one_lease_one_wins(target: str | Path) -> None:
    setup = open_store(target)
    new_match(setup, "m1")
    setup.close()
    won: list[bool] = []
    start = threading.Barrier(4)

    def race(holder: str) -> None:
        store = open_store(target)  # its own connection, in its own thread
        try:
            start.wait()
            won.append(store.take_lease("m1", 0, holder, START, "2026-01-01T00:00:06"))
        finally:
            store.close()

    racers = [threading.Thread(target=race, args=(f"p{n}",)) for n in range(4)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    assert sorted(won) == [False, False, False, True]


def test_overdue_matches_are_found_by_their_deadline(store: Store) -> None:
    new_match(store, "late", deadline="2026-01-01T00:00:05.000000+00:00")
    new_match(store, "later", deadline="2026-01-01T00:00:09.000000+00:00")
    new_match(store, "no-clock")
    now = "2026-01-01T00:00:10.000000+00:00"
    assert store.overdue_matches(now, START, 10) == ["late", "later"]
    assert store.overdue_matches(now, START, 1) == ["late"]
    assert store.overdue_matches("2026-01-01T00:00:06.000000+00:00", START, 10) == ["late"]
    # An abandoned match (no change since before ``since``) is left alone.
    assert store.overdue_matches(now, "2026-01-01T00:00:01", 10) == []


def test_postgresql_announces_every_event_and_seat_change(postgres_url: str) -> None:
    store = open_store(postgres_url)
    try:
        with psycopg.connect(postgres_url, autocommit=True) as listener:
            listener.execute(f"LISTEN {CHANNEL}")
            new_match(store, "m1")
            turn(store, "m1", 0, "d1-d3")
            turn(store, "m1", 1, "a7-a5")
            store.claim_seat("m1", 0, "a", "b")
            assert not store.claim_seat("m1", 0, "a", "c"), "refused: nothing announced"
            heard = [parse(note.payload) for note in listener.notifies(timeout=5, stop_after=3)]
            assert heard == [("m1", 0), ("m1", 1), ("m1", -1)]
            assert list(listener.notifies(timeout=0.5)) == []
    finally:
        store.close()


def test_postgresql_announces_every_chat_line_and_the_spectators_chat_turned_off_or_on(
    postgres_url: str,
) -> None:
    store = open_store(postgres_url)
    try:
        with psycopg.connect(postgres_url, autocommit=True) as listener:
            listener.execute(f"LISTEN {CHAT_CHANNEL}")
            new_match(store, "m1")
            store.add_chat("m1", "players", 0, "Romans", "hello", START)
            store.add_chat("m1", "spectators", None, "Spectator", "hi", START)
            store.close_spectator_chat("m1", 0, START)
            store.close_spectator_chat("m1", 0, START)  # off already: nothing announced
            store.close_spectator_chat("m1", None, START)
            heard = [
                (note.channel, parse(note.payload))
                for note in listener.notifies(timeout=5, stop_after=4)
            ]
            assert heard == [(CHAT_CHANNEL, ("m1", n)) for n in (0, 1, -1, -1)]
            assert list(listener.notifies(timeout=0.5)) == []
    finally:
        store.close()
