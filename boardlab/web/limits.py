"""What one client may ask of the server: time limits and per-address rate limits.

The figures and how ``boardlab serve`` sets them are in ``docs/web.md`` (Security).
"""

from __future__ import annotations

import ipaddress
import math
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from boardlab.web.errors import ApiError
from boardlab.web.refusals import REFUSALS

if TYPE_CHECKING:
    from starlette.requests import Request

MAX_ADDRESSES = 100_000
"""Buckets kept at most: beyond it the full ones (quiet clients) are dropped, then the oldest."""
IPV6_PREFIX = 64
"""One IPv6 client usually holds a whole /64, so its addresses share one bucket."""


@dataclass(frozen=True)
class Limits:
    """The limits of one server (the defaults are ``boardlab serve``'s)."""

    header_seconds: float = 10.0
    """A request's headers must have arrived this long after the connection (or the previous
    answer on it); the connection is closed otherwise."""
    body_seconds: float = 10.0
    """A request's body must have arrived this long after its headers (408 otherwise)."""
    first_message_seconds: float = 10.0
    """A websocket must send its first message this long after it opens (closed otherwise)."""
    creations_per_minute: float = 30.0
    creation_burst: int = 20
    moves_per_minute: float = 600.0
    move_burst: int = 120
    analyses_per_minute: float = 20.0
    """Bot searches of the analysis board (each up to a few seconds of a bot worker)."""
    analysis_burst: int = 6
    account_attempts_per_minute: float = 6.0
    """Sign-ups, sign-ins, password changes and account deletions (each hashes a password):
    the same allowance per address and, whatever the address, per account name."""
    account_attempt_burst: int = 10
    chat_lines_per_minute: float = 20.0
    """Chat lines, per address and, for a player, per seat of a match."""
    chat_burst: int = 8
    gets_per_minute: float = 600.0
    """GET requests (and websocket handshakes); a fresh picture costs several, static files
    nothing (``client_limits.get_cost``)."""
    get_burst: int = 240
    connections_per_address: int = 32
    """HTTP connections one address may hold open at once (websockets not included)."""
    websockets_per_address: int = 16
    """Websockets one address may hold open at once."""


@dataclass
class RateLimiter:
    """A token bucket per client address: ``burst`` requests at once, then ``per_minute``.

    ``what`` names the requests in the refusal ("match creations").
    """

    what: str
    per_minute: float
    burst: int
    buckets: dict[str, tuple[float, float]] = field(default_factory=dict)

    def take(self, address: str, cost: float = 1.0) -> None:
        """Count a request of ``cost`` requests' worth from ``address``, or refuse it (429 with
        ``Retry-After``). A cost above the burst is charged as the burst, so that a dear
        request stays possible for a client that waits."""
        now = time.monotonic()
        rate = self.per_minute / 60.0
        cost = min(cost, float(self.burst))
        tokens, then = self.buckets.get(address, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * rate)
        if tokens < cost:
            wait = math.ceil((cost - tokens) / rate)
            REFUSALS.refused(f"{self.what} over the limit (429)", address)
            raise ApiError(
                429,
                f"too many {self.what} from your address; try again in {wait} s",
                {"Retry-After": str(wait)},
            )
        if address not in self.buckets and len(self.buckets) >= MAX_ADDRESSES:
            self._forget(now, rate)
        self.buckets[address] = (tokens - cost, now)

    def _forget(self, now: float, rate: float) -> None:
        """Drop the buckets that have filled up again (forgetting them changes nothing), and
        if that is not enough the older half, so memory stays bounded whatever comes."""
        kept = [
            (address, (tokens, then))
            for address, (tokens, then) in self.buckets.items()
            if tokens + (now - then) * rate < self.burst
        ]
        if len(kept) >= MAX_ADDRESSES:
            kept = kept[len(kept) // 2 :]
        self.buckets = dict(kept)


def client_key(host: str | None) -> str:
    """The bucket of a client address: itself, or its /64 for IPv6."""
    if host is None:
        return ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/{IPV6_PREFIX}", strict=False))
    return host


def request_key(request: Request) -> str:
    """Who asks: the bucket of the request's client address (:func:`client_key`)."""
    return client_key(request.client.host if request.client else None)
