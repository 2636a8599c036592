"""What one client may hold or ask is bounded (issue 19, item 6): half-sent requests and silent
websockets are dropped in time, creations and moves are rate-limited per address, and a match
with no human seat always ends."""

from __future__ import annotations

import http.client
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.web.conftest import Server, start_server
from tests.web.test_api import MURUS_HOT_SEAT, create

LIMIT = 1.0
"""The server's time limits in these tests, in seconds."""
PATIENCE = 10.0
"""How long a test waits for the server to act on a limit of LIMIT (a loaded machine)."""
OTHER_ADDRESS = "127.0.0.2"
"""A second client: Linux routes all of 127.0.0.0/8 to loopback."""


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with one-second time limits, 20 creations and 10 moves at once."""
    options = [
        "--header-timeout",
        str(LIMIT),
        "--body-timeout",
        str(LIMIT),
        "--first-message-timeout",
        str(LIMIT),
        "--move-burst",
        "10",
        "--moves-per-minute",
        "6",
    ]
    running = start_server(tmp_path_factory.mktemp("limits") / "b.sqlite3", options=options)
    try:
        yield running
    finally:
        running.stop()
    # Dropping a connection or refusing a request is routine: nothing for the log.
    assert "Traceback" not in running.output() and "ERROR" not in running.output()


def closed_after(sock: socket.socket, trickle: bytes = b"") -> float:
    """Seconds until the server closes ``sock`` (reading what it sends meanwhile), sending
    ``trickle`` one byte at a time meanwhile; fails after PATIENCE."""
    started = time.monotonic()
    sock.settimeout(0.2)
    sent = 0
    while time.monotonic() - started < PATIENCE:
        try:
            if not sock.recv(65536):
                return time.monotonic() - started
        except TimeoutError:
            pass
        except ConnectionResetError:
            return time.monotonic() - started
        if sent < len(trickle):
            try:
                sock.sendall(trickle[sent : sent + 1])
            except (BrokenPipeError, ConnectionResetError):
                return time.monotonic() - started
            sent += 1
    raise AssertionError(f"the server kept the connection open for {PATIENCE} s")


def test_half_sent_headers_are_dropped_within_the_limit(strict: Server) -> None:
    with socket.create_connection(("127.0.0.1", strict.port)) as sock:
        sock.sendall(b"GET /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        assert closed_after(sock) < PATIENCE
    with socket.create_connection(("127.0.0.1", strict.port)) as sock:
        # A byte every 0.2 s never completes the headers either.
        assert closed_after(sock, b"GET /api/matches HTTP/1.1\r\nX-Slow: " + b"a" * 500) < PATIENCE


def test_a_connection_idle_after_an_answer_then_half_sent_is_dropped(strict: Server) -> None:
    with socket.create_connection(("127.0.0.1", strict.port)) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        sock.settimeout(PATIENCE)
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        sock.sendall(b"GET /api/health HTTP/1.1\r\n")
        assert closed_after(sock) < PATIENCE


def test_endless_headers_are_dropped_long_before_the_time_limit(tmp_path: Path) -> None:
    server = start_server(tmp_path / "b.sqlite3", options=["--header-timeout", "600"])
    try:
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            sock.settimeout(PATIENCE)
            sock.sendall(b"GET / HTTP/1.1\r\n")
            try:
                # 4 MiB of headers: the server closes the connection long before.
                for _ in range(4096):
                    sock.sendall(b"X-Pad: " + b"a" * 1000 + b"\r\n")
                closed = sock.recv(1) == b""
            except (BrokenPipeError, ConnectionResetError):
                closed = True
            assert closed
    finally:
        server.stop()


def test_a_half_sent_body_is_408_within_the_limit(strict: Server) -> None:
    with socket.create_connection(("127.0.0.1", strict.port)) as sock:
        sock.sendall(
            b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
            b'\r\nContent-Length: 100\r\n\r\n{"game": '
        )
        sock.settimeout(PATIENCE)
        answer = b""
        while b"}" not in answer:
            chunk = sock.recv(65536)
            assert chunk, answer
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408")
    assert json.loads(body) == {"error": f"the request body did not arrive within {LIMIT:g} s"}


def test_a_websocket_that_never_speaks_is_closed_within_the_limit(strict: Server) -> None:
    match, _ = create(strict, MURUS_HOT_SEAT)
    with connect(strict.url.replace("http://", "ws://") + f"ws/matches/{match}") as ws:
        answer = json.loads(ws.recv(timeout=PATIENCE))
        assert answer["status"] == 408 and answer["error"] == f"no first message within {LIMIT:g} s"
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=PATIENCE)


def post(
    connection: http.client.HTTPConnection, path: str, body: Any, headers: dict[str, str]
) -> tuple[int, dict[str, str], Any]:
    """One JSON POST on a kept-alive connection: status, headers and decoded answer."""
    connection.request(
        "POST", path, json.dumps(body), {"Content-Type": "application/json", **headers}
    )
    answer = connection.getresponse()
    return answer.status, dict(answer.getheaders()), json.loads(answer.read())


def burst(port: int, path: str, body: Any, count: int, token: str = "") -> list[Any]:
    """``count`` POSTs as fast as one connection from 127.0.0.1 goes, each claiming to come
    from another address through X-Forwarded-For (which must not be believed)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    answers = []
    try:
        for n in range(count):
            headers = {"X-Forwarded-For": f"10.0.{n // 250}.{n % 250}"}
            if token:
                headers["Authorization"] = f"Bearer {token}"
            answers.append(post(connection, path, body, headers))
    finally:
        connection.close()
    return answers


def from_other_address(port: int, path: str, body: Any, token: str = "") -> Any:
    """One POST from 127.0.0.2: another client."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=30, source_address=(OTHER_ADDRESS, 0)
    )
    try:
        return post(connection, path, body, {"Authorization": f"Bearer {token}"} if token else {})
    finally:
        connection.close()


def check_refusals(answers: list[Any], allowed: int, what: str) -> None:
    """The first ``allowed`` answers served, then 429s with a sentence and Retry-After (a
    few more may be served as the allowance refills during the burst)."""
    statuses = [status for status, _, _ in answers]
    assert all(status < 300 for status in statuses[:allowed]), statuses
    refused = [answer for answer in answers if answer[0] == 429]
    assert len(refused) >= len(answers) - allowed - 5, statuses
    for _, headers, body in refused:
        assert int(headers["retry-after"]) >= 1
        assert body["error"].startswith(f"too many {what} from your address; try again in ")


def test_creations_from_one_address_are_limited_and_others_served(tmp_path: Path) -> None:
    server = start_server(tmp_path / "b.sqlite3", options=())  # the default limits
    try:
        answers = burst(server.port, "/api/matches", MURUS_HOT_SEAT, 200)
        check_refusals(answers, 20, "match creations")
        status, _, answer = from_other_address(server.port, "/api/matches", MURUS_HOT_SEAT)
        assert status == 201, answer
        assert server.get("/api/matches?limit=200")[0] == 200
    finally:
        server.stop()


def test_moves_from_one_address_are_limited_and_others_served(strict: Server) -> None:
    match, (romans, _) = create(strict, MURUS_HOT_SEAT)
    assert romans is not None
    path = f"/api/matches/{match}/preview"
    answers = burst(strict.port, path, {"seat": 0, "steps": []}, 40, romans)
    check_refusals(answers, 10, "moves")
    status, _, answer = from_other_address(
        strict.port, f"/api/matches/{match}/turn", {"seat": 0, "ply": 0, "turn": "d1-d3"}, romans
    )
    assert status == 200 and answer["ply"] == 1


@pytest.mark.parametrize(
    ("game", "options", "capped"),
    [
        ("murus-gallicus", {"max_plies": 0, "repetition_draw": 0}, "Option max_plies: 1000"),
        ("carnyx", {"max_plies": 100000}, "Option max_plies: 1000"),
        ("cyvasse", {"max_plies": 0, "no_capture_plies": 0}, "Option max_plies: 1000"),
        (
            "colosseum-offcuts",
            {"no_capture_rounds": 0, "repetition_draw": 0},
            "Option no_capture_rounds: 50",
        ),
    ],
)
def test_a_match_without_a_human_seat_always_ends(
    shared_server: Server, game: str, options: dict[str, int], capped: str
) -> None:
    bots = [{"kind": "bot", "bot": "random"}] * 2
    match, _ = create(shared_server, {"game": game, "seats": bots, "options": options})
    # The bots start at once: a Cyvasse record is refused (409) while a deployment is hidden.
    deadline = time.monotonic() + 120
    status, record = shared_server.get(f"/api/matches/{match}/record")
    while status == 409 and time.monotonic() < deadline:
        time.sleep(0.1)
        status, record = shared_server.get(f"/api/matches/{match}/record")
    assert status == 200 and capped in record.splitlines()
    # With a person at a seat, the options stay as asked.
    people = [{"kind": "human"}, bots[0]]
    match, _ = create(shared_server, {"game": game, "seats": people, "options": options})
    record = shared_server.get(f"/api/matches/{match}/record")[1]
    assert capped not in record.splitlines()


def test_behind_a_trusted_proxy_its_forwarded_addresses_are_the_clients(tmp_path: Path) -> None:
    options = ["--trusted-proxy", "127.0.0.1", "--creation-burst", "3"]
    server = start_server(tmp_path / "b.sqlite3", options=options)
    try:
        # Each request names another client: none of them is limited.
        answers = burst(server.port, "/api/matches", MURUS_HOT_SEAT, 8)
        assert [status for status, _, _ in answers] == [201] * 8
        # One client through the proxy: limited after its burst of 3.
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        try:
            statuses = [
                post(connection, "/api/matches", MURUS_HOT_SEAT, {"X-Forwarded-For": "10.9.9.9"})[0]
                for _ in range(6)
            ]
        finally:
            connection.close()
        assert statuses[:3] == [201] * 3 and statuses[3:] == [429] * 3
    finally:
        server.stop()
