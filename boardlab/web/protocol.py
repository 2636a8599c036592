"""uvicorn's HTTP protocol with a time limit on request headers, which uvicorn lacks, and caps
on open connections, per address and in all.

uvicorn's keep-alive timer is cancelled by any byte received, so a client that sends half a
request line and waits (or trickles a byte at a time) holds its connection forever; the app
cannot help, since it is called only once the headers are complete. Here a deadline is armed
when a connection opens and after each answer on it, and disarmed when a request's headers are
complete (or the connection upgrades to a websocket): a connection still short of complete
headers at the deadline is closed, and so is one that sends more than ``MAX_HEAD_BYTES``
without completing them (the C parser sets no size limit of its own). Bodies have their own
limits in the app (``json_body``). A request answered before its body has all arrived (a 413
for a body too large) is read to its end and the body thrown away, up to ``DRAIN_BYTES`` and
within the header time limit, so that the client, still sending, can read the answer: closing
at once would reset the connection under it.

A connection past its address's cap, or past the server's total (what its descriptor limit
leaves once the server's own files are counted), is answered 429 or 503 and closed as soon as
it opens, before anything of it is read: idle keep-alive connections, which the app never sees,
count too. A connection that becomes a websocket leaves the count of HTTP connections for the
app's count of websockets (``client_limits.py``), but stays in the total.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from dataclasses import dataclass, field

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from boardlab.web.limits import client_key
from boardlab.web.refusals import REFUSALS

MAX_HEAD_BYTES = 64 * 1024
DRAIN_BYTES = 16 * 1024 * 1024
"""The most of a refused request's body read (and thrown away) before its connection closes."""


@dataclass
class ConnectionCaps:
    """The server's open HTTP connections per address, and the caps on them."""

    per_address: int
    total: int
    """Connections of any kind (websockets included) open at once on the server."""
    exempt: frozenset[str] = frozenset()
    """Addresses without a per-address cap: trusted proxies, whose connections carry many
    clients."""
    open: Counter[str] = field(default_factory=Counter)

    def release(self, address: str) -> None:
        """One connection of ``address`` has closed (or become a websocket)."""
        self.open[address] -= 1
        if not self.open[address]:
            del self.open[address]


def _refusal(status: int, reason: bytes, sentence: str) -> bytes:
    """A whole HTTP answer of one JSON sentence that closes the connection."""
    body = json.dumps({"error": sentence}).encode()
    return (
        b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\n"
        b"retry-after: 10\r\nconnection: close\r\n\r\n%s" % (status, reason, len(body), body)
    )


TOO_MANY = _refusal(429, b"Too Many Requests", "too many connections open from your address")
FULL = _refusal(503, b"Service Unavailable", "the server has too many connections open")


class HeaderDeadlineProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing a connection whose headers come too late."""

    header_seconds = 10.0
    caps = ConnectionCaps(per_address=10**9, total=10**9)
    _deadline: asyncio.TimerHandle | None = None
    _head_bytes = 0
    _drain: int | None = None
    """Bytes of an answered request's body still allowed (None: no body is being drained)."""
    _address: str | None = None
    """The address this connection counts against while it does."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """A new connection: refused past a cap, else its first request's headers are due
        within the limit."""
        super().connection_made(transport)
        host = self.client[0] if self.client else None
        address = client_key(host)
        caps = self.caps
        # uvicorn's set holds every open connection, websockets included, this one too.
        if len(self.connections) > caps.total:
            self._refuse(FULL, "connections over the server's total (503)", address)
        elif caps.open[address] >= caps.per_address and host not in caps.exempt:
            self._refuse(TOO_MANY, "connections over the limit (429)", address)
        else:
            caps.open[address] += 1
            self._address = address
            self._arm()

    def _refuse(self, answer: bytes, what: str, address: str) -> None:
        REFUSALS.refused(what, address)
        self.transport.write(answer)
        self.transport.close()

    def handle_websocket_upgrade(self) -> None:
        """The connection becomes a websocket: the app's cap on websockets counts it now."""
        self._release()
        super().handle_websocket_upgrade()

    def data_received(self, data: bytes) -> None:
        """Parse ``data``; close the connection if headers grow past ``MAX_HEAD_BYTES`` (or a
        drained body past ``DRAIN_BYTES``)."""
        if self._drain is not None:
            # The body's bytes, not headers: its end (in this data) arms the header deadline.
            self._drain -= len(data)
            if self._drain < 0:
                self._expire()
            else:
                super().data_received(data)
            return
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
        """An answer is sent: the next request's headers are due, unless already read; a
        body still arriving is drained first, within the same time limit."""
        waiting = bool(self.pipeline)
        super().on_response_complete()
        if not waiting and not self.transport.is_closing():
            if self.cycle.more_body:
                self._drain = DRAIN_BYTES
            self._arm()

    def on_message_complete(self) -> None:
        """A request's body has all arrived: a drained one ends, and the next request's
        headers are due."""
        super().on_message_complete()
        if self._drain is not None:
            self._drain = None
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection is gone: nothing is due any more."""
        self._disarm()
        self._release()
        super().connection_lost(exc)

    def _release(self) -> None:
        if self._address is not None:
            self.caps.release(self._address)
            self._address = None

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


def header_deadline_protocol(
    seconds: float, caps: ConnectionCaps | None = None
) -> type[HeaderDeadlineProtocol]:
    """The protocol class for uvicorn's ``http`` setting, with a ``seconds`` header limit and
    ``caps`` on connections (none by default)."""
    settings: dict[str, object] = {"header_seconds": seconds}
    if caps is not None:
        settings["caps"] = caps
    return type("HeaderDeadline", (HeaderDeadlineProtocol,), settings)
