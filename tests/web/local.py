"""The web app served by uvicorn on 127.0.0.1 inside the test process, on a thread.

The same app and server as ``boardlab serve``, minus the process boundary: tests that mutation
testing runs (``scripts/mutation.py web-session``) must reach the session code in the process
that mutmut traces, which a subprocess server hides from it. Everything else about the server
is tested through the subprocess of ``conftest.py``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn

from boardlab.cli.serve import bind
from boardlab.web.app import create_app
from tests.web.conftest import STARTUP_SECONDS, json_request


@dataclass
class LocalServer:
    """How to reach the in-process server: the same JSON calls as ``conftest.Server``."""

    url: str

    def get(self, path: str, token: str | None = None) -> tuple[int, Any]:
        """GET ``path`` and decode its JSON answer: (status, data)."""
        return json_request(self.url, "GET", path, None, token)

    def post(self, path: str, body: Any, token: str | None = None) -> tuple[int, Any]:
        """POST ``body`` as JSON to ``path``: (status, decoded answer)."""
        return json_request(self.url, "POST", path, body, token)


@contextmanager
def serve_here(db: Path) -> Iterator[LocalServer]:
    """Serve the app with store ``db`` until the block ends."""
    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    config = uvicorn.Config(create_app(db, bot_workers=1), log_level="warning", access_log=False)
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
