"""The smaller holes hostile users found (issue 36, item 8), against a real server: a number past
Python's conversion limit in an analysis start, the page policy's base and form targets, a
proxy trusted for every address said aloud."""

from __future__ import annotations

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
