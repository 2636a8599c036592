"""Fixtures of the web tests: the real server as a subprocess, and headless Chromium.

``server`` starts ``boardlab serve --host 127.0.0.1 --port <free port> --db <tmp>`` for one test
and stops it afterwards; ``shared_server`` is one server for the whole session (tests that do
not care about other matches in its store). ``start_server`` starts one by hand, for tests that
kill and restart it on the same database. ``browser`` is Debian's Chromium driven by Playwright.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

STARTUP_SECONDS = 30.0
UNLIMITED = (
    "--creation-burst",
    "1000000",
    "--move-burst",
    "1000000",
    "--analysis-burst",
    "1000000",
    "--get-burst",
    "1000000",
    "--connections-per-address",
    "1000",
    "--websockets-per-address",
    "1000",
)
"""Rate allowances and caps no test reaches: tests other than the limits' own create many
matches, poll views and open many websockets."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Server:
    """A running ``boardlab serve`` process and how to reach it."""

    process: subprocess.Popen[bytes]
    url: str
    db: Path
    port: int
    log: Path

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 15.0) -> int:
        """Send ``sig`` and wait for the process to end; returns its exit code."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout)
        return self.process.returncode

    def output(self) -> str:
        """What the server printed so far (stdout and stderr)."""
        return self.log.read_text(encoding="utf-8", errors="replace")

    def get(self, path: str, token: str | None = None) -> tuple[int, Any]:
        """GET ``path`` and decode its JSON answer: (status, data)."""
        return self.request("GET", path, None, token)

    def post(self, path: str, body: Any, token: str | None = None) -> tuple[int, Any]:
        """POST ``body`` as JSON to ``path``: (status, decoded answer)."""
        return self.request("POST", path, body, token)

    def request(
        self, method: str, path: str, body: Any, token: str | None = None
    ) -> tuple[int, Any]:
        """One JSON request with an optional bearer token: (status, decoded answer)."""
        return json_request(self.url, method, path, body, token)


def json_request(
    url: str, method: str, path: str, body: Any, token: str | None = None
) -> tuple[int, Any]:
    """One JSON request to the server at ``url``: (status, decoded answer)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url.rstrip("/") + path, data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            status, raw = answer.status, answer.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    text = raw.decode()
    try:
        return status, json.loads(text)
    except json.JSONDecodeError:
        return status, text


def start_server(
    db: Path,
    port: int | None = None,
    log: Path | None = None,
    options: Sequence[str] = UNLIMITED,
) -> Server:
    """Start ``boardlab serve`` on 127.0.0.1 with ``db`` and ``options``, and wait until it
    answers."""
    port = port or free_port()
    log = log or db.with_name(f"{db.stem}-server-{port}.log")
    command = [
        sys.executable,
        "-m",
        "boardlab",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--db",
        str(db),
        *options,
    ]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with log.open("ab") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    server = Server(process, f"http://127.0.0.1:{port}/", db, port, log)
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"boardlab serve exited early:\n{server.output()}")
        try:
            if server.get("/api/matches?limit=1")[0] == 200:
                return server
        except OSError:
            pass
        time.sleep(0.1)
    server.stop(signal.SIGKILL)
    raise RuntimeError(f"boardlab serve did not answer in {STARTUP_SECONDS} s:\n{server.output()}")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A fresh server with an empty store, stopped after the test."""
    running = start_server(tmp_path / "boardlab.sqlite3")
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="session")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the whole test session (its store fills up as tests run)."""
    running = start_server(tmp_path_factory.mktemp("web") / "boardlab.sqlite3")
    try:
        yield running
    finally:
        running.stop()
