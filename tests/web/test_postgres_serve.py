"""``boardlab serve --db postgresql://…``: a real server on a real PostgreSQL (the session's
cluster, tests/web/postgres.py) plays over HTTP and websockets, resumes its matches after a
restart, answers 503 while PostgreSQL is stopped and recovers once it is back, without a
restart; an unreachable or unusable database at start is one line, exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from tests.web.conftest import Server, free_port, start_server
from tests.web.postgres import Cluster
from tests.web.test_api import MURUS_HOT_SEAT, create, turn

RECOVERY_SECONDS = 60.0


@contextmanager
def follow(server: Server, match: str, tokens: list[str]) -> Iterator[ClientConnection]:
    """A websocket following ``match`` with ``tokens``, its first view read."""
    with connect(server.url.replace("http://", "ws://") + f"ws/matches/{match}") as socket:
        socket.send(json.dumps({"tokens": tokens}))
        first = json.loads(socket.recv(timeout=30))
        assert first["type"] == "view", first
        yield socket


def next_view(socket: ClientConnection) -> Any:
    """The next view the websocket receives."""
    while True:
        message = json.loads(socket.recv(timeout=30))
        if message["type"] == "view":
            return message["view"]


def play(server: Server, match: str, tokens: list[str], turns: int) -> list[str]:
    """Play ``turns`` turns of a hot-seat match through the API, each the first legal one of
    the seat to move; returns them."""
    played = []
    for _ in range(turns):
        status, view = server.get(f"/api/matches/{match}", tokens[0])
        assert status == 200, view
        seat = view["to_move"]
        status, mine = server.get(f"/api/matches/{match}", tokens[seat])
        text = mine["legal"][0]["text"]
        status, answer = turn(server, match, tokens[seat], seat, view["ply"], text)
        assert status == 200, answer
        played.append(text)
    return played


def moves(view: Any) -> list[str]:
    return [move["turn"] for move in view["moves"]]


def test_a_match_is_played_on_postgresql_and_resumes_after_a_restart(
    tmp_path: Path, postgres_url: str
) -> None:
    server = start_server(tmp_path / "boardlab.sqlite3", url=postgres_url)
    assert "Matches are stored in PostgreSQL database 'postgres'" in server.output()
    assert not (tmp_path / "boardlab.sqlite3").exists(), "no SQLite file beside it"
    try:
        match, seats = create(server, MURUS_HOT_SEAT)
        tokens = [str(token) for token in seats]
        with follow(server, match, []) as watcher:
            played = play(server, match, tokens, 4)
            seen = [next_view(watcher) for _ in played]
        assert [view["ply"] for view in seen] == [1, 2, 3, 4]
        assert moves(seen[-1]) == played
    finally:
        assert server.stop() == 0

    server = start_server(tmp_path / "boardlab.sqlite3", url=postgres_url)
    try:
        status, view = server.get(f"/api/matches/{match}", tokens[0])
        assert status == 200 and view["ply"] == 4 and moves(view) == played
        with follow(server, match, [tokens[1]]) as watcher:
            played += play(server, match, tokens, 2)
            assert next_view(watcher)["ply"] == 5 and next_view(watcher)["ply"] == 6
        status, listing = server.get("/api/matches")
        assert status == 200 and [line["id"] for line in listing["matches"]] == [match]
    finally:
        server.stop()


def test_postgresql_stopped_mid_game_gives_503s_and_play_resumes_once_it_is_back(
    tmp_path: Path, postgres_url: str, postgres_cluster: Cluster
) -> None:
    server = start_server(tmp_path / "boardlab.sqlite3", url=postgres_url)
    try:
        match, seats = create(server, MURUS_HOT_SEAT)
        tokens = [str(token) for token in seats]
        played = play(server, match, tokens, 2)
        legal = server.get(f"/api/matches/{match}", tokens[0])[1]["legal"][0]["text"]
        # The turn refused is logged for the operator (hub.py), with PostgreSQL's reason.
        server.expect_log(r"^match \S+: the store refused a change: .* is unavailable")
        with follow(server, match, []) as watcher:
            postgres_cluster.stop()
            try:
                status, answer = turn(server, match, tokens[0], 0, 2, legal)
                assert status == 503 and isinstance(answer["error"], str), answer
                for path in ("/api/matches", "/api/health"):
                    status, answer = server.get(path)
                    assert status == 503 and isinstance(answer["error"], str), (path, answer)
                status, answer = server.post("/api/matches", MURUS_HOT_SEAT)
                assert status == 503 and isinstance(answer["error"], str), answer
                assert server.process.poll() is None
            finally:
                postgres_cluster.start()
            deadline = time.monotonic() + RECOVERY_SECONDS
            while time.monotonic() < deadline:
                status, answer = server.get("/api/health")
                if status == 200:
                    break
                assert status == 503, answer
                time.sleep(0.2)
            assert status == 200 and answer["set_aside"] == [], answer
            listing = server.get("/api/matches")[1]["matches"]
            assert [line["id"] for line in listing] == [match], "the refused creation left none"
            played += play(server, match, tokens, 1)
            view = next_view(watcher)
        assert view["ply"] == 3 and moves(view) == played
    finally:
        server.stop()


def serve_once(db: str) -> subprocess.CompletedProcess[str]:
    """``boardlab serve --db db`` on a free port, expected to stop at once."""
    command = [sys.executable, "-m", "boardlab", "serve", "--port", str(free_port()), "--db", db]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


def test_an_unreachable_or_unusable_postgresql_at_start_is_one_line(
    postgres_cluster: Cluster,
) -> None:
    closed = free_port()
    cases = [
        (
            f"postgresql://boardlab:s3cret@127.0.0.1:{closed}/boardlab",
            f"cannot reach PostgreSQL database 'boardlab' on 127.0.0.1:{closed} as boardlab: "
            f'connection to server at "127.0.0.1", port {closed} failed: Connection refused',
        ),
        (
            postgres_cluster.url().replace("/postgres", "/missing"),
            'database "missing" does not exist',
        ),
        ("postgresql://127.0.0.1:port/x", "the PostgreSQL URL's port 'port' is not a number"),
        ("postgresql://127.0.0.1/x?colour=red", 'invalid URI query parameter: "colour"'),
    ]
    for url, words in cases:
        done = serve_once(url)
        assert done.returncode == 2, done
        assert done.stdout == ""
        assert done.stderr.startswith("boardlab: error: ") and done.stderr.count("\n") == 1
        assert words in done.stderr, done.stderr
        assert "s3cret" not in done.stderr
