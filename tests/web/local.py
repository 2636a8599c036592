"""The web app served by uvicorn on 127.0.0.1 inside the test process, on a thread.

The same app and server as ``boardlab serve``, minus the process boundary: tests that mutation
testing runs (``scripts/mutation.py web-session``) must reach the session code in the process
that mutmut traces, which a subprocess server hides from it. Everything else about the server
is tested through the subprocess of ``conftest.py``.
"""

from __future__ import annotations

import multiprocessing.forkserver
import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn

from boardlab.cli.serve import bind
from boardlab.web.app import create_app
from boardlab.web.limits import Limits
from boardlab.web.off_loop import ANALYSIS_WORK
from tests.web.conftest import STARTUP_SECONDS, json_request


def _forget_the_parents_bot_workers() -> None:
    """In a forked child (mutmut runs each mutant in one), start bot workers of its own.

    The fork server the parent started is not the child's to reach (CPython gh-86354: its
    liveness check waits for a process that is not the child's, so every bot search fails and a
    test waiting for a bot times out, which mutmut would count as a kill); and workers watching
    the parent's lifeline would outlive the child.
    """
    server: Any = multiprocessing.forkserver._forkserver
    if server._forkserver_alive_fd is not None:
        os.close(server._forkserver_alive_fd)
    server._forkserver_address = server._forkserver_alive_fd = server._forkserver_pid = None
    # The analysis board's worker thread is the parent's too (a child has no thread behind
    # the pool, so every replay would wait for ever): the child gets a pool of its own.
    ANALYSIS_WORK.pool = ThreadPoolExecutor(1, thread_name_prefix="boardlab-analysis")


os.register_at_fork(after_in_child=_forget_the_parents_bot_workers)


@dataclass
class LocalServer:
    """How to reach the in-process server: the same JSON calls as ``conftest.Server``."""

    url: str

    @property
    def port(self) -> int:
        """The port it listens on."""
        return int(self.url.rstrip("/").rsplit(":", 1)[1])

    def get(self, path: str, token: str | None = None) -> tuple[int, Any]:
        """GET ``path`` and decode its JSON answer: (status, data)."""
        return json_request(self.url, "GET", path, None, token)

    def post(self, path: str, body: Any, token: str | None = None) -> tuple[int, Any]:
        """POST ``body`` as JSON to ``path``: (status, decoded answer)."""
        return json_request(self.url, "POST", path, body, token)


@contextmanager
def serve_here(
    db: Path, limits: Limits | None = None, trusted_proxy: str | None = None
) -> Iterator[LocalServer]:
    """Serve the app with store ``db`` until the block ends; ``limits`` and ``trusted_proxy``
    as ``boardlab serve``'s options set them."""
    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    # As the subprocess servers of conftest.py: no test is refused for making many matches.
    limits = limits or Limits(
        creation_burst=1_000_000, move_burst=1_000_000, analysis_burst=1_000_000
    )
    # The bots are not prepared at start: these tests are about the session's rules, and the
    # mutation runs start many servers (the subprocess servers prepare them, as users get).
    app = create_app(db, bot_workers=1, limits=limits, prepare_bots=False)
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        proxy_headers=trusted_proxy is not None,
        forwarded_allow_ips=trusted_proxy,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + STARTUP_SECONDS
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the in-process server did not start")
        time.sleep(0.02)
    try:
        yield LocalServer(f"http://127.0.0.1:{port}/")
    finally:
        server.should_exit = True
        thread.join(STARTUP_SECONDS)
        sock.close()
