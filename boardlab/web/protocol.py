"""uvicorn's HTTP protocol with a time limit on request headers, which uvicorn lacks.

uvicorn's keep-alive timer is cancelled by any byte received, so a client that sends half a
request line and waits (or trickles a byte at a time) holds its connection forever; the app
cannot help, since it is called only once the headers are complete. Here a deadline is armed
when a connection opens and after each answer on it, and disarmed when a request's headers are
complete (or the connection upgrades to a websocket): a connection still short of complete
headers at the deadline is closed, and so is one that sends more than ``MAX_HEAD_BYTES``
without completing them (the C parser sets no size limit of its own). Bodies have their own
limits in the app (``json_body``).
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

MAX_HEAD_BYTES = 64 * 1024


class HeaderDeadlineProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing a connection whose headers come too late."""

    header_seconds = 10.0
    _deadline: asyncio.TimerHandle | None = None
    _head_bytes = 0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """A new connection: its first request's headers are due within the limit."""
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        """Parse ``data``; close the connection if headers grow past ``MAX_HEAD_BYTES``."""
        super().data_received(data)
        if self._deadline is not None:
            self._head_bytes += len(data)
            if self._head_bytes > MAX_HEAD_BYTES:
                self._expire()

    def on_headers_complete(self) -> None:
        """A request's headers are in: no deadline while it is answered."""
        self._disarm()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        """An answer is sent: the next request's headers are due, unless already read."""
        waiting = bool(self.pipeline)
        super().on_response_complete()
        if not waiting and not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection is gone: nothing is due any more."""
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._head_bytes = 0
        self._deadline = self.loop.call_later(self.header_seconds, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._disarm()
        if not self.transport.is_closing():
            self.transport.close()


def header_deadline_protocol(seconds: float) -> type[HeaderDeadlineProtocol]:
    """The protocol class for uvicorn's ``http`` setting, with a ``seconds`` header limit."""
    return type("HeaderDeadline", (HeaderDeadlineProtocol,), {"header_seconds": seconds})
