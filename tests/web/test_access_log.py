"""The access log (``boardlab serve --access-log PATH``) against a real server: one line per
request and websocket, refusals included, a path that tries to break the line escaped."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

from websockets.sync.client import connect

from tests.web.conftest import UNLIMITED, free_port, start_server
from tests.web.test_api import MURUS_HOT_SEAT, create
from tests.web.test_cross_site import EVIL, send

LINE = re.compile(
    r"(?P<address>\S+) - - \[\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d \+0000\] "
    r'"(?P<request>[^"]*)" (?P<status>\d{3}) (?P<size>\d+) (?P<seconds>\d+\.\d{3})'
)


def logged(path: Path, count: int) -> list[dict[str, str]]:
    """The first ``count`` lines of the access log (waiting for them), parsed."""
    deadline = time.monotonic() + 30
    while True:
        lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
        if len(lines) >= count or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    parsed = []
    for line in lines:
        found = LINE.fullmatch(line)
        assert found, line
        parsed.append(found.groupdict())
    return parsed


def test_every_request_and_websocket_is_one_line(tmp_path: Path) -> None:
    access = tmp_path / "access.log"
    server = start_server(
        tmp_path / "db.sqlite3", options=(*UNLIMITED, "--access-log", str(access))
    )
    try:
        # The start's own polls of the lobby come first.
        start = len(logged(access, 1))
        match, (romans, _) = create(server, MURUS_HOT_SEAT)
        assert server.get("/api/matches/" + "n" * 16)[0] == 404
        cross = send(server, "POST", "/api/matches", "{}", {"Origin": EVIL})
        assert cross[0] == 403
        base = server.url.replace("http://", "ws://")
        with connect(f"{base}ws/matches/{match}") as follower:
            follower.send(json.dumps({"tokens": [romans]}))
            assert json.loads(follower.recv(timeout=30))["type"] == "view"
        # The websocket's line is written once the server has closed it.
        logged(access, start + 4)
        # A request line whose path holds a quote and a backslash cannot fake a field.
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as raw:
            raw.sendall(b'GET /a"b\\c HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')
            assert raw.recv(100).startswith(b"HTTP/1.1 404")
        lines = logged(access, start + 5)[start:]
    finally:
        server.stop()
    assert [(line["request"], line["status"]) for line in lines] == [
        ("POST /api/matches HTTP/1.1", "201"),
        ("GET /api/matches/nnnnnnnnnnnnnnnn HTTP/1.1", "404"),
        ("POST /api/matches HTTP/1.1", "403"),
        (f"WS /ws/matches/{match} HTTP/1.1", "101"),
        ("GET /a\\x22b\\x5cc HTTP/1.1", "404"),
    ]
    assert {line["address"] for line in lines} == {"127.0.0.1"}
    assert int(lines[0]["size"]) > 100


def test_an_access_log_that_cannot_be_written_is_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "no such folder" / "access.log"
    serve = [sys.executable, "-m", "boardlab", "serve", "--port", str(free_port())]
    run = subprocess.run(
        [*serve, "--db", str(tmp_path / "db.sqlite3"), "--access-log", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 2
    assert run.stderr.startswith(f"boardlab: error: cannot write the access log {str(path)!r}: ")
    assert run.stderr.count("\n") == 1
