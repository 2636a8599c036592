"""The access log (``boardlab serve --access-log PATH``): one line per HTTP request and per
websocket, for the operator, in the Common Log Format with the seconds taken appended::

    127.0.0.1 - - [29/Nov/2026:09:30:00 +0000] "GET /api/matches?limit=1 HTTP/1.1" 200 812 0.004

A websocket is written when it closes, as ``"WS /ws/matches/<id> HTTP/1.1"`` with 101 if it
was accepted (its seconds: how long it was open). The path is written as the client sent it
(percent-encoded); any other byte that could break a line or a field is escaped. The file is
rotated at ``MAX_BYTES`` with ``BACKUPS`` old files kept, so a flood of requests cannot fill
the disk. Without ``--access-log`` nothing is written.
"""

from __future__ import annotations

import logging
import sys
import time
from logging.handlers import RotatingFileHandler

from starlette.types import ASGIApp, Message, Receive, Scope, Send

ACCESS = logging.getLogger("boardlab.access")
MAX_BYTES = 50 * 1024 * 1024
BACKUPS = 3
SAFE = frozenset(range(0x21, 0x7F)) - {ord('"'), ord("\\")}
"""Bytes of a path written as they are; every other is written ``\\xNN``."""


def open_access_log(path: str) -> None:
    """Write the access log to ``path`` (``-``: standard error)."""
    handler: logging.Handler
    if path == "-":
        handler = logging.StreamHandler(sys.stderr)
    else:
        handler = RotatingFileHandler(
            path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8"
        )
    handler.setFormatter(logging.Formatter("%(message)s"))
    ACCESS.addHandler(handler)
    ACCESS.setLevel(logging.INFO)
    ACCESS.propagate = False


def escaped(raw: bytes) -> str:
    """``raw`` with every byte outside printable ASCII, a quote or a backslash as ``\\xNN``."""
    return "".join(chr(byte) if byte in SAFE else f"\\x{byte:02x}" for byte in raw)


def line(scope: Scope, status: int, size: int, seconds: float) -> str:
    """The log line of one request (or websocket)."""
    client = scope.get("client")
    address = client[0] if client else "-"
    when = time.strftime("%d/%b/%Y:%H:%M:%S +0000", time.gmtime())
    method = scope.get("method", "WS")
    target = scope.get("raw_path") or scope.get("path", "").encode()
    query = scope.get("query_string", b"")
    if query:
        target += b"?" + query
    version = scope.get("http_version", "1.1")
    request = f"{method} {escaped(target)} HTTP/{escaped(version.encode())}"
    return f'{address} - - [{when}] "{request}" {status} {size} {seconds:.3f}'


class AccessLog:
    """ASGI middleware writing each request's line once it is answered (or has failed: 500)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or not ACCESS.handlers:
            await self.app(scope, receive, send)
            return
        started = time.monotonic()
        status = size = 0

        async def sending(message: Message) -> None:
            nonlocal status, size
            kind = message["type"]
            if kind in ("http.response.start", "websocket.http.response.start"):
                status = message["status"]
            elif kind == "http.response.body":
                size += len(message.get("body", b""))
            elif kind == "websocket.accept":
                status = 101
            elif kind == "websocket.close" and not status:
                status = 403
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            ACCESS.info(line(scope, status or 500, size, time.monotonic() - started))
