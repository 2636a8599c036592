"""The smaller holes hostile users found (issue 36, item 8), against a real server: a number past
Python's conversion limit in an analysis start, the page policy's base and form targets, a
proxy trusted for every address said aloud, a body of megabytes answered 413 readably."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.web.conftest import Server, free_port, json_request


def test_a_start_position_with_a_4400_digit_number_is_a_400(server: Server) -> None:
    start = "8/8/8/4g3/3R4/8/8 R " + "9" * 4400
    body = {"source": {"game": "murus-gallicus", "start": start}, "line": []}
    status, answer = server.post("/api/analysis/position", body)
    assert status == 400
    assert answer == {"error": "bad start position: a number in it is far too long"}


def test_every_answer_forbids_other_bases_and_form_targets(server: Server) -> None:
    with urllib.request.urlopen(server.url, timeout=30) as answer:
        policy = answer.headers["Content-Security-Policy"]
    assert "base-uri 'none'" in policy and "form-action 'self'" in policy


def test_a_proxy_trusted_for_every_address_is_said_on_stderr(tmp_path: Path) -> None:
    port = free_port()
    command = [sys.executable, "-m", "boardlab", "serve", "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--db", str(tmp_path / "db.sqlite3"), "--trusted-proxy", "*"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        # Stopped once it answers, as an operator would stop it.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                json_request(f"http://127.0.0.1:{port}/", "GET", "/api/health", None)
                break
            except OSError:
                time.sleep(0.1)
        process.terminate()
        assert process.wait(30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert line.startswith("boardlab: --trusted-proxy '*' believes X-Forwarded-For from every")


def test_a_body_of_megabytes_gets_a_413_the_client_can_read(server: Server) -> None:
    """A client that sends the whole body before reading (as Python's http.client does) reads
    the 413, and its connection serves the next request (the server reads such a body to its
    end, up to 16 MiB, and throws it away)."""
    origin = {"Content-Type": "application/json", "Origin": server.url.rstrip("/")}
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        for megabytes in (10, 10):
            body = b'{"game": "' + b"x" * (megabytes << 20) + b'"}'
            connection.request("POST", "/api/matches", body=body, headers=origin)
            answer = connection.getresponse()
            assert answer.status == 413
            assert json.loads(answer.read()) == {
                "error": "the request body is larger than 65536 bytes"
            }
        connection.request("GET", "/api/health")
        assert connection.getresponse().status == 200
    finally:
        connection.close()
