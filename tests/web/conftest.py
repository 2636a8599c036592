"""Fixtures of the web tests: the real server as a subprocess, and headless Chromium.

``server`` starts ``boardlab serve --host 127.0.0.1 --port <free port> --db <tmp>`` for one test
and stops it afterwards; ``shared_server`` is one server for the whole session (tests that do
not care about other matches in its store). ``start_server`` starts one by hand, for tests that
kill and restart it on the same database. ``browser`` is Debian's Chromium driven by Playwright.

In the modules of :data:`BOTH_STORES`, every test that uses ``server`` or ``shared_server`` runs
twice: on a SQLite file, and on PostgreSQL (the session's private cluster,
``tests/web/postgres.py``: a new schema for each ``server``, one for the session's shared one).

Every server a test starts has its log read after the test (``clean_server_logs``): a traceback,
an error line or a bot failure fails the test unless the test declared it with
``Server.expect_log``.
"""

from __future__ import annotations

import ast
import functools
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from boardlab.web.store import Store
from boardlab.web.stores import open_store
from tests.web.postgres import postgres_cluster, postgres_url

__all__ = ["postgres_cluster", "postgres_url"]  # a real PostgreSQL for the web tests

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
    "--account-attempt-burst",
    "1000000",
    "--chat-burst",
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
    checked: int = 0
    """Bytes of ``log`` already read by the log check (what came before this server)."""
    expected: list[re.Pattern[str]] = field(default_factory=list)
    """Log entries the running test declared expected (see :meth:`expect_log`)."""

    def expect_log(self, pattern: str) -> None:
        """Let this test's server log entries that ``pattern`` (a regular expression) finds:
        an entry is a line with the traceback under it, if any."""
        self.expected.append(re.compile(pattern))

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


ROOT = Path(__file__).resolve().parents[2]
ERROR_CALLS = frozenset({"error", "exception", "critical", "fatal"})
"""The logging calls whose lines the log check treats as errors."""
LOGGERS = re.compile(r"_?(LOG|LOGGER|log|logger)")
"""How Boardlab names a logger (``LOG = logging.getLogger(...)``)."""
PLACEHOLDER = re.compile(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[a-zA-Z%]")
"""A placeholder of a %-format log message."""
TRACEBACK = "Traceback (most recent call last):"
CHAINED = ("The above exception was", "During handling of the above exception")
REMOTE = re.compile(r"[\w.]*_RemoteTraceback:")
"""How a worker's exception begins: its traceback, quoted, as the cause of the server's."""
GENERIC_PROBLEMS = (
    re.compile(r"ERROR:"),  # uvicorn's own errors (level prefix)
    re.compile(r"(?i).*\bbots?\b.*\bfail"),  # a bot failure, however it is worded
)


@functools.cache
def error_lines() -> tuple[re.Pattern[str], ...]:
    """What starts an error entry in a server's log: each message Boardlab logs at error level
    (read from the ``LOG.error(...)``/``LOG.exception(...)`` calls of its source, ``%s``
    standing for anything), uvicorn's ``ERROR:`` prefix, and any line about a failed bot."""
    found = []
    for path in sorted((ROOT / "boardlab").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ERROR_CALLS
                and isinstance(node.func.value, ast.Name)
                and LOGGERS.fullmatch(node.func.value.id)
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
                and len(re.sub(PLACEHOLDER, "", node.args[0].value).strip()) >= 4
            ):
                found.append(_format_pattern(node.args[0].value))
    return (*found, *GENERIC_PROBLEMS)


def _format_pattern(message: str) -> re.Pattern[str]:
    """A %-format message as a pattern matching its lines (each placeholder: anything)."""
    parts = re.split(PLACEHOLDER, message)
    return re.compile(".*?".join(re.escape(part) for part in parts))


def log_entries(text: str) -> list[str]:
    """A server's log cut into entries: each line, with the exception report printed under it
    (tracebacks, the exception, chained causes, a worker's quoted remote traceback) kept in
    the same entry."""
    entries: list[list[str]] = []
    state = "line"  # or "frames" (inside a traceback), "report" (after its exception)
    for line in text.splitlines():
        plain = bool(line.strip()) and not line[0].isspace()
        if line.startswith(TRACEBACK):
            state, continued = "frames", True
        elif REMOTE.match(line):
            state, continued = "report", True
        elif state == "frames":
            # Frames are indented; the first line that is not is the exception.
            continued = True
            if plain:
                state = "report"
        elif state == "report":
            continued = not plain or line.startswith(CHAINED) or line == '"""'
        else:
            continued = False
        if not continued or not entries:
            state = "frames" if line.startswith(TRACEBACK) else "line"
            entries.append([line])
        else:
            entries[-1].append(line)
    return ["\n".join(entry) for entry in entries]


def unexpected_problems(text: str, expected: Iterable[re.Pattern[str]] = ()) -> list[str]:
    """The entries of a server log ``text`` that hold a traceback, an error line or a bot
    failure (see :func:`error_lines`), other than those an ``expected`` pattern finds."""
    allowed = tuple(expected)
    problems = []
    for entry in log_entries(text):
        first = entry.partition("\n")[0]
        if (TRACEBACK in entry or any(line.match(first) for line in error_lines())) and not any(
            pattern.search(entry) for pattern in allowed
        ):
            problems.append(entry)
    return problems


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


STARTED: list[Server] = []
"""Servers whose logs are still to be checked (by ``clean_server_logs``)."""


def start_server(
    db: Path,
    port: int | None = None,
    log: Path | None = None,
    options: Sequence[str] = UNLIMITED,
    prepare: bool = False,
    url: str | None = None,
) -> Server:
    """Start ``boardlab serve`` on 127.0.0.1 with ``db`` and ``options``, and wait until it
    answers; with ``url``, on that PostgreSQL database instead (``db`` then places the log).
    Its bots are not prepared at start unless ``prepare`` (a test of the bots' own start, of
    their speed from the first move, or of their fair turns): preparing costs each
    server start seconds of CPU, which tests of everything else need not pay (the README-install
    test and those tests check it as users get it)."""
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
        url or str(db),
        *options,
        *(() if prepare else ("--no-prepare-bots",)),
    ]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with log.open("ab") as out:
        checked = out.tell()
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    server = Server(process, f"http://127.0.0.1:{port}/", db, port, log, checked)
    STARTED.append(server)
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


@pytest.fixture(params=["sqlite", "postgres"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """An empty database of each backend (the PostgreSQL one a new schema in the session's
    cluster), for the store tests."""
    if request.param == "sqlite":
        return tmp_path / "store.sqlite3"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def store(target: str | Path) -> Iterator[Store]:
    """A store opened on ``target``, closed after the test."""
    opened = open_store(target)
    try:
        yield opened
    finally:
        opened.close()


STORES = ("sqlite", "postgresql")
BOTH_STORES = frozenset(
    {
        "test_api.py",
        "test_api_turns.py",
        "test_api_hidden.py",
        "test_api_offers.py",
        "test_api_mine.py",
        "test_hostile_reveal.py",
        "test_bad_input.py",
        "test_takeback_refusals.py",
        "test_last_move_and_record.py",
        "test_cross_site.py",
        "test_accounts.py",
    }
)
"""The test modules (API, HTTP, websockets, hostile clients; no browser, none that reads the
SQLite file itself) whose servers are run on both stores (docs/testing.md)."""


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run the tests of :data:`BOTH_STORES` that use a server on each store."""
    if Path(metafunc.definition.path).name not in BOTH_STORES:
        return
    for name in ("server", "shared_server"):
        if name in metafunc.fixturenames:
            metafunc.parametrize(name, STORES, indirect=True)


def store_of(request: pytest.FixtureRequest) -> str:
    """The store a parametrised server fixture is asked for (SQLite unless parametrised)."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """A fresh server with an empty store, stopped after the test."""
    url = None
    if store_of(request) == "postgresql":
        url = request.getfixturevalue("postgres_cluster").new_schema()
    running = start_server(tmp_path / "boardlab.sqlite3", url=url)
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="session")
def sqlite_shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server on a SQLite file for the whole test session (its store fills up)."""
    running = start_server(tmp_path_factory.mktemp("web") / "boardlab.sqlite3")
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="session")
def postgres_shared_server(
    tmp_path_factory: pytest.TempPathFactory, postgres_cluster: Any
) -> Iterator[Server]:
    """One server on PostgreSQL for the whole test session (its schema fills up)."""
    folder = tmp_path_factory.mktemp("web-postgres")
    running = start_server(folder / "boardlab.sqlite3", url=postgres_cluster.new_schema())
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="session")
def shared_server(request: pytest.FixtureRequest) -> Server:
    """The session's server on the store asked for (SQLite unless parametrised); session
    scoped, as hypothesis wants the fixtures of its tests to be."""
    name = "postgres_shared_server" if store_of(request) == "postgresql" else "sqlite_shared_server"
    found: Server = request.getfixturevalue(name)
    return found


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before a web test and its fixtures: forget the servers that have stopped, which tests
    elsewhere started (``tests/fuzz`` uses :func:`start_server`) and check themselves."""
    STARTED[:] = [server for server in STARTED if server.process.poll() is None]


@pytest.fixture(autouse=True)
def clean_server_logs() -> Iterator[None]:
    """After each test, read what the servers started so far logged since the last check
    (a server that has stopped for the last time): a traceback, an error line or a bot failure
    the test did not declare with :meth:`Server.expect_log` fails it. Declarations hold for
    the test that made them."""
    yield
    report = []
    for server in list(STARTED):
        running = server.process.poll() is None
        with server.log.open("rb") as log:
            log.seek(server.checked)
            text = log.read().decode("utf-8", errors="replace")
            server.checked = log.tell()
        problems = unexpected_problems(text, server.expected)
        server.expected.clear()
        if not running:
            STARTED.remove(server)
        if problems:
            shown = "\n".join(problems[:5])[-4000:]
            report.append(f"{server.log} ({len(problems)} unexpected):\n{shown}")
    if report:
        pytest.fail("a server logged what the test did not expect:\n" + "\n\n".join(report))
