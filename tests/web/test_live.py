"""The live side against a real server: no client slows anyone down, a stale request or bot
search never touches the live match, and matches dropped from memory come back unnoticed."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from boardlab.web.hub import Hub
from boardlab.web.session import MatchSession
from boardlab.web.sqlite_store import SqliteStore
from boardlab.web.store import Event, MatchConfig, SeatConfig
from tests.web.conftest import Server, start_server
from tests.web.rawsocket import (
    OPCODE_CLOSE,
    OPCODE_TEXT,
    finish_request,
    open_follower,
    read_to_end,
    start_request,
)
from tests.web.test_api import MURUS_HOT_SEAT, create, turn, wait_for_ply

STALE = {"error": "the match has changed meanwhile; reload it"}


@contextmanager
def follow(server: Server, match: str, tokens: list[str]) -> Iterator[ClientConnection]:
    """A websocket client of ``match``, past its first view."""
    with connect(server.url.replace("http://", "ws://") + f"ws/matches/{match}") as socket:
        socket.send(json.dumps({"tokens": tokens}))
        assert json.loads(socket.recv(timeout=30))["type"] == "view"
        yield socket


def next_view(socket: ClientConnection, ply: int) -> tuple[Any, list[Any]]:
    """Messages until the view of ``ply`` turns: (that view, the messages before it)."""
    before: list[Any] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        message = json.loads(socket.recv(timeout=60))
        if message["type"] == "view" and message["view"]["ply"] >= ply:
            return message["view"], before
        before.append(message)
    thinking = sum(message["type"] == "thinking" for message in before)
    raise AssertionError(f"no view of ply {ply} in 60 s ({thinking} 'thinking' messages)")


def whole_turn(server: Server, match: str, token: str, seat: int, rng: random.Random) -> str:
    """A random legal turn of ``seat``, built step by step with previews."""
    steps: list[str] = []
    while True:
        status, preview = server.post(
            f"/api/matches/{match}/preview", {"seat": seat, "steps": steps}, token
        )
        assert status == 200, preview
        if preview["turn_complete"]:
            return "+".join(steps)
        steps.append(rng.choice(preview["legal"])["text"])


def test_a_spectator_that_never_reads_slows_nobody(server: Server) -> None:
    seats = [{"kind": "human"}, {"kind": "invite"}]
    match, tokens = create(server, {"game": "cyvasse", "seats": seats})
    south, north = tokens
    assert south and north
    # Every view (about 100 kB) fills its buffers within a few dozen turns.
    silent = open_follower(server.port, match, [], receive_buffer=4096)
    rng = random.Random(19)
    lineups = iter(["classic", "fortress"])
    played = 0
    while played < 60:
        # The urllib timeout (30 s) ends the test if a turn is not answered: a frozen match.
        view = server.get(f"/api/matches/{match}", f"{south},{north}")[1]
        if view["status"] != "active":
            break
        seat = view["to_move"]
        token = tokens[seat]
        assert token
        body: dict[str, Any] = {"seat": seat, "ply": view["ply"]}
        if view["presets"]:
            body["preset"] = next(lineups)
        else:
            body["turn"] = whole_turn(server, match, token, seat, rng)
        status, after = server.post(f"/api/matches/{match}/turn", body, token)
        assert status == 200 and after["ply"] == view["ply"] + 1, after
        played += 1
    assert played >= 40
    # The server dropped the silent client: reading now, it finds the connection closed,
    # long before it got a view of every turn.
    with silent:
        silent.settimeout(30)
        frames, ended = read_to_end(silent)
    views = [f for f in frames if f[0] == OPCODE_TEXT and b'"type":"view"' in f[1]]
    assert ended and len(views) < played
    assert all(opcode in (OPCODE_TEXT, OPCODE_CLOSE) for opcode, _ in frames)
    # It may come back, and reads the match as it stands.
    with follow(server, match, []):
        assert server.get(f"/api/matches/{match}")[1]["ply"] == played


def test_a_turn_whose_body_comes_late_is_refused_and_the_bot_moves_once(server: Server) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "level:expert"}]
    match, (romans, _) = create(server, {"game": "murus-gallicus", "seats": seats})
    assert romans
    body = {"seat": 0, "ply": 0, "turn": "d1-d3"}
    with follow(server, match, [romans]):
        # A turn whose body stops half way, read by the server while a page follows the match.
        late, rest = start_request(
            server.port, "POST", f"/api/matches/{match}/turn", body, romans, sent=10
        )
        time.sleep(0.5)
    # The page left (the match may be dropped from memory), a new one opens, the turn is played.
    time.sleep(0.5)
    with follow(server, match, [romans]) as page:
        status, view = turn(server, match, romans, 0, 0, "d1-d3")
        assert status == 200 and view["thinking"]
        # The late body arrives while the bot thinks: refused, and the bot is left alone.
        assert finish_request(late, rest) == (409, STALE)
        reply, before = next_view(page, 2)
        assert not reply["thinking"] and reply["moves"][1]["seat"] == 1
        # One search for the one position: nothing more comes while the human thinks.
        quiet = []
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            try:
                quiet.append(json.loads(page.recv(timeout=0.2)))
            except TimeoutError:
                continue
    thinking = [m for m in before + quiet if m["type"] == "thinking"]
    assert len(thinking) == 1 and not [m for m in quiet if m["type"] == "view"]
    view = server.get(f"/api/matches/{match}", romans)[1]
    assert view["ply"] == 2 and view["to_move"] == 0
    assert turn(server, match, romans, 0, 2, view["legal"][0]["text"])[0] == 200
    wait_for_ply(server, match, 4, romans)


def test_a_match_dropped_from_memory_plays_on_and_its_followers_resume(tmp_path: Path) -> None:
    server = start_server(tmp_path / "boardlab.sqlite3", options=["--live-matches", "2"])
    try:
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
        match, (romans, _) = create(server, {"game": "murus-gallicus", "seats": seats})
        assert romans
        with follow(server, match, [romans]) as page, follow(server, match, []) as watcher:
            # Three other matches in use push the followed one out of memory.
            for _ in range(3):
                other, (first, _) = create(server, MURUS_HOT_SEAT)
                assert turn(server, other, first, 0, 0, "d1-d3")[0] == 200
            assert turn(server, match, romans, 0, 0, "d1-d3")[0] == 200
            mine, _ = next_view(page, 2)
            theirs, _ = next_view(watcher, 2)
            assert mine["moves"][0]["turn"] == "d1-d3" and mine["you"] == [0]
            assert theirs["moves"] == mine["moves"] and theirs["you"] == []
        assert server.get(f"/api/matches/{match}", romans)[1]["ply"] == 2
    finally:
        server.stop()
    assert "Traceback" not in server.output()


def test_the_hub_keeps_at_most_its_cap_of_idle_matches(tmp_path: Path) -> None:
    async def run() -> tuple[list[str], list[str], str, str]:
        hub = Hub(SqliteStore(tmp_path / "boardlab.sqlite3"), workers=1, live_matches=2)
        try:
            seats = (SeatConfig("human", None, "a" * 64), SeatConfig("human", None, "b" * 64))
            ids = [f"match{n:011d}" for n in range(4)]
            views = []
            for match_id in ids:
                config = MatchConfig(match_id, "murus-gallicus", {}, seats, "2026-01-01")
                views.append(hub.create(config).view_json(frozenset()))
            kept = list(hub.sessions)
            reloaded = hub.session(ids[0]).view_json(frozenset())
            return kept, list(hub.sessions), views[0], reloaded
        finally:
            await hub.close()
            hub.store.close()

    # In a thread of its own: the browser tests leave an event loop running in this one.
    with ThreadPoolExecutor(1) as thread:
        kept, after, first, reloaded = thread.submit(asyncio.run, run()).result()
    assert kept == ["match00000000002", "match00000000003"]
    assert after == ["match00000000003", "match00000000000"]
    assert reloaded == first


def test_observers_hear_each_committed_event_once_and_a_failing_one_changes_nothing(
    tmp_path: Path,
) -> None:
    heard: list[tuple[str, int, str]] = []

    def failing(session: MatchSession, event: Event) -> None:
        raise RuntimeError("an observer's own bug")

    def listening(session: MatchSession, event: Event) -> None:
        heard.append((session.id, session.version, event.text))

    async def run() -> int:
        hub = Hub(SqliteStore(tmp_path / "boardlab.sqlite3"), workers=1)
        hub.observers.extend([failing, listening])
        try:
            seats = (SeatConfig("human", None, "a" * 64), SeatConfig("human", None, "b" * 64))
            config = MatchConfig("match00000000000", "murus-gallicus", {}, seats, "2026-01-01")
            session = hub.create(config)
            for text in ("d1-d3", "d7-d5"):
                async with session.lock:
                    await hub.commit(
                        session, session.check_turn(session.to_move or 0, session.ply, text)
                    )
            stored = hub.store.load(config.id)
            assert stored is not None
            return len(stored.events)
        finally:
            await hub.close()
            hub.store.close()

    with ThreadPoolExecutor(1) as thread:
        stored = thread.submit(asyncio.run, run()).result()
    assert stored == 2
    assert heard == [("match00000000000", 1, "d1-d3"), ("match00000000000", 2, "d7-d5")]
