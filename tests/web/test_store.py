"""The SQLite store: what it keeps survives reopening, appends are ordered and exclusive."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardlab.web.sqlite_store import SqliteStore
from boardlab.web.store import Event, MatchConfig, SeatConfig, StoreConflict, Summary


def config(match_id: str, game: str = "murus-gallicus", created: str = "2026-01-01") -> MatchConfig:
    seats = (SeatConfig("human", None, "ab" * 32), SeatConfig("bot", "level:easy", None))
    return MatchConfig(match_id, game, {"board": "8x7"}, seats, created)


def test_a_match_and_its_events_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    store = SqliteStore(path)
    store.create(config("m" * 16), Summary("active", None, 0, "t0"))
    store.append("m" * 16, 0, Event("turn", 0, "d1-d3"), Summary("active", None, 1, "t1"))
    store.append("m" * 16, 1, Event("resign", 1, ""), Summary("finished", "Romans won", 1, "t2"))
    store.close()

    stored = SqliteStore(path).load("m" * 16)
    assert stored is not None
    assert stored.config == config("m" * 16)
    assert stored.events == (Event("turn", 0, "d1-d3"), Event("resign", 1, ""))
    assert stored.summary == Summary("finished", "Romans won", 1, "t2")


def test_an_event_index_is_taken_only_once(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "store.sqlite3")
    store.create(config("a" * 16), Summary("active", None, 0, "t0"))
    store.append("a" * 16, 0, Event("turn", 0, "d1-d3"), Summary("active", None, 1, "t1"))
    with pytest.raises(StoreConflict, match=f"match {'a' * 16} already has event 0"):
        store.append("a" * 16, 0, Event("turn", 0, "c1-c3"), Summary("active", None, 1, "t2"))
    stored = store.load("a" * 16)
    assert stored is not None
    # The refused append changed nothing, not even the summary.
    assert stored.events == (Event("turn", 0, "d1-d3"),)
    assert stored.summary.updated == "t1"


def test_unknown_match_is_none(tmp_path: Path) -> None:
    assert SqliteStore(tmp_path / "store.sqlite3").load("x" * 16) is None


def test_list_filters_by_game_and_status_newest_first(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "store.sqlite3")
    store.create(config("a" * 16), Summary("active", None, 0, "t1"))
    store.create(config("b" * 16, "carnyx"), Summary("active", None, 0, "t2"))
    store.create(config("c" * 16), Summary("active", None, 0, "t3"))
    store.append("a" * 16, 0, Event("resign", 0, ""), Summary("finished", "Gauls won", 0, "t4"))

    assert [c.id[0] for c, _ in store.list()] == ["a", "c", "b"]
    assert [c.id[0] for c, _ in store.list(game="murus-gallicus")] == ["a", "c"]
    assert [c.id[0] for c, _ in store.list(status="active")] == ["c", "b"]
    assert [c.id[0] for c, _ in store.list(game="carnyx", status="finished")] == []
    assert len(store.list(limit=1)) == 1


def test_a_seat_is_claimed_once_even_from_two_connections(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    first, second = SqliteStore(path), SqliteStore(path)
    first.create(config("c" * 16), Summary("active", None, 0, "t0"))
    invite, mine, theirs = "ab" * 32, "cd" * 32, "ef" * 32
    assert first.claim_seat("c" * 16, 0, invite, mine)
    assert not second.claim_seat("c" * 16, 0, invite, theirs), "the invite is used up"
    assert not second.claim_seat("c" * 16, 1, invite, theirs), "seat 1 never had that hash"
    assert not second.claim_seat("c" * 16, 5, invite, theirs)
    assert not second.claim_seat("x" * 16, 0, invite, theirs)
    first.close()
    second.close()
    stored = SqliteStore(path).load("c" * 16)
    assert stored is not None
    assert [seat.token_hash for seat in stored.config.seats] == [mine, None]
    assert stored.config.seats[0].kind == "human" and stored.config.options == {"board": "8x7"}
