"""One address cannot hold the server's connections nor flood it with reads (issue 36, item 6),
on a real server: connections and websockets past the per-address caps are refused while
another address is served, a GET flood is refused while a clocked player on another address
moves promptly, the descriptor limit is checked at start, and every refusal is logged."""

from __future__ import annotations

import contextlib
import http.client
import json
import resource
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from tests.web.conftest import STARTED, Server, free_port, start_server
from tests.web.test_api import MURUS_HOT_SEAT, create

JSON = {"Content-Type": "application/json"}
ATTACKER, OTHER = "127.0.0.2", "127.0.0.3"
"""Two clients: Linux routes all of 127.0.0.0/8 to loopback."""


OPENING = ("d1-d3", "d7-d5", "c1-c3", "c7-c5")
"""Four turns of Murus Gallicus from its start."""


def move(ply: int, turn: str) -> dict[str, Any]:
    """The body of a hot-seat match's turn at ``ply``."""
    return {"seat": ply % 2, "ply": ply, "turn": turn}


def opened(port: int, address: str) -> socket.socket:
    """A TCP connection to the server from ``address``, sending nothing yet."""
    return socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(address, 0))


def refused(sock: socket.socket) -> bytes | None:
    """What the server answered on ``sock`` before closing it, or None if it keeps it open
    (a refusal comes as soon as the connection opens)."""
    sock.setblocking(False)
    answer = b""
    try:
        while chunk := sock.recv(4096):
            answer += chunk
    except BlockingIOError:
        return None
    except ConnectionResetError:
        pass
    return answer


def websocket(port: int, address: str, match: str) -> ClientConnection:
    """A websocket from ``address`` on ``match``, its first message sent (a spectator)."""
    socket_ = opened(port, address)
    connection = connect(f"ws://127.0.0.1:{port}/ws/matches/{match}", sock=socket_)
    connection.send(json.dumps({"tokens": []}))
    return connection


def get(port: int, address: str, path: str) -> tuple[int, Any]:
    """One GET from ``address``: (status, decoded answer)."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=30, source_address=(address, 0)
    )
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        connection.close()


@pytest.fixture
def capped(tmp_path: Path) -> Iterator[Server]:
    """A server with the default connection caps and GET budget."""
    running = start_server(tmp_path / "b.sqlite3", options=())
    try:
        yield running
    finally:
        running.stop()


def test_connections_and_websockets_past_the_caps_are_refused_and_others_served(
    capped: Server,
) -> None:
    match, _ = create(capped, MURUS_HOT_SEAT)
    with contextlib.ExitStack() as held:
        # The default caps: 16 websockets and 32 HTTP connections an address (a websocket
        # leaves the HTTP connections' count once upgraded).
        sockets_ = [held.enter_context(websocket(capped.port, ATTACKER, match)) for _ in range(16)]
        assert all(json.loads(ws.recv(10))["view"]["id"] == match for ws in sockets_)
        with pytest.raises(InvalidStatus) as refusal:
            websocket(capped.port, ATTACKER, match)
        assert refusal.value.response.status_code == 403
        sockets = [held.enter_context(opened(capped.port, ATTACKER)) for _ in range(36)]
        time.sleep(1.0)  # well within the header deadline (10 s) of the ones kept
        answers = [refused(sock) for sock in sockets]
        assert answers[:32] == [None] * 32
        for answer in answers[32:]:
            assert answer is not None
            assert answer == b"" or answer.startswith(b"HTTP/1.1 429 "), answer
        # Another address is served, websocket and all, while the first holds its caps.
        assert get(capped.port, OTHER, f"/api/matches/{match}")[0] == 200
        with websocket(capped.port, OTHER, match) as mine:
            assert json.loads(mine.recv(10))["view"]["id"] == match
    # Once it lets go, the first address is served again.
    time.sleep(0.5)
    assert get(capped.port, ATTACKER, f"/api/matches/{match}")[0] == 200
    log = capped.output()
    assert f"refused connections over the limit (429) from {ATTACKER}" in log
    assert f"refused websockets over the limit (429) from {ATTACKER}" in log


def test_a_get_flood_is_refused_while_a_clocked_player_moves_promptly(capped: Server) -> None:
    flooded, (romans, gauls) = create(capped, MURUS_HOT_SEAT)
    for ply, (token, turn) in enumerate(zip((romans, gauls) * 2, OPENING, strict=True)):
        assert capped.post(f"/api/matches/{flooded}/turn", move(ply, turn), token)[0] == 200
    stop = threading.Event()
    statuses: list[int] = []

    def flood() -> None:
        # Fresh pictures of past positions, as fast as one keep-alive connection goes.
        connection = http.client.HTTPConnection(
            "127.0.0.1", capped.port, timeout=30, source_address=(ATTACKER, 0)
        )
        at = 0
        while not stop.is_set():
            connection.request("GET", f"/api/matches/{flooded}/position?at={at % 4}")
            answer = connection.getresponse()
            answer.read()
            statuses.append(answer.status)
            at += 1
        connection.close()

    clocked = {**MURUS_HOT_SEAT, "clock": {"base": 300, "increment": 0}}
    match, (romans, gauls) = create(capped, clocked)
    threads = [threading.Thread(target=flood) for _ in range(4)]
    for thread in threads:
        thread.start()
    try:
        time.sleep(1.0)
        took = []
        connection = http.client.HTTPConnection(
            "127.0.0.1", capped.port, timeout=30, source_address=(OTHER, 0)
        )
        for ply, (token, turn) in enumerate(zip((romans, gauls) * 2, OPENING, strict=True)):
            body = json.dumps(move(ply, turn))
            headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
            sent = time.monotonic()
            connection.request("POST", f"/api/matches/{match}/turn", body, headers)
            answer = connection.getresponse()
            assert answer.status == 200, answer.read()
            answer.read()
            took.append(time.monotonic() - sent)
        connection.close()
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    assert max(took) < 0.5, took
    assert 429 in statuses and statuses.count(200) <= 240 / 4 + 60, statuses.count(200)
    assert f"refused requests over the limit (429) from {ATTACKER}" in capped.output()


def _limited(descriptors: int) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (descriptors, descriptors))


def limited_server(db: Path, descriptors: int) -> Server:
    """``boardlab serve`` with the default limits under a descriptor limit (soft and hard),
    once it answers; its log is checked as the fixtures' servers' are."""
    port = free_port()
    log = db.with_name(f"{db.stem}-server-{port}.log")
    command = [sys.executable, "-m", "boardlab", "serve", "--port", str(port), "--db", str(db)]
    with log.open("ab") as out:
        process = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, preexec_fn=lambda: _limited(descriptors)
        )
    server = Server(process, f"http://127.0.0.1:{port}/", db, port, log)
    STARTED.append(server)
    deadline = time.monotonic() + 30
    while process.poll() is None and time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            if server.get("/api/health")[0] == 200:
                return server
        time.sleep(0.1)
    server.stop()
    raise AssertionError(f"the server did not start:\n{server.output()}")


def test_the_descriptor_limit_is_checked_at_start_and_bounds_all_connections(
    tmp_path: Path,
) -> None:
    command = [sys.executable, "-m", "boardlab", "serve", "--port", str(free_port())]
    too_few = subprocess.run(
        [*command, "--db", str(tmp_path / "a.sqlite3")],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=lambda: _limited(120),
    )
    assert too_few.returncode == 2
    assert too_few.stderr.startswith("boardlab: error: the descriptor limit (120) leaves 20 ")
    # 300 descriptors: 200 connections, which fewer than 8 addresses at their caps fill.
    server = limited_server(tmp_path / "b.sqlite3", 300)
    try:
        assert "200 connections: 4 addresses at their caps (48 each) fill them" in server.output()
        with contextlib.ExitStack() as held:
            mine = held.enter_context(
                contextlib.closing(
                    http.client.HTTPConnection(
                        "127.0.0.1", server.port, timeout=30, source_address=(OTHER, 0)
                    )
                )
            )
            mine.request("GET", "/api/health")
            assert mine.getresponse().read()
            crowd = [
                held.enter_context(opened(server.port, f"127.0.1.{n // 32}")) for n in range(7 * 32)
            ]
            time.sleep(1.0)
            answers = [refused(sock) for sock in crowd]
            # The whole server's connections are full (one is mine): the rest are refused.
            assert answers.count(None) == 199, answers.count(None)
            assert all(a == b"" or a.startswith(b"HTTP/1.1 503 ") for a in answers if a is not None)
            # The connections held are served, and the server's own files still open.
            for method, path, body, status in (
                ("GET", "/api/health", None, 200),
                ("POST", "/api/matches", json.dumps(MURUS_HOT_SEAT), 201),
            ):
                mine.request(method, path, body, JSON)
                answer = mine.getresponse()
                assert (answer.status, bool(answer.read())) == (status, True)
        time.sleep(0.5)
        assert get(server.port, OTHER, "/api/health")[0] == 200
        assert "refused connections over the server's total (503) from 127.0.1." in server.output()
    finally:
        server.stop()
