"""What one address may read and hold: a budget of GET requests, priced by their work, and a
cap on its open websockets (its HTTP connections are capped in ``protocol.py``).

Figures and options are in ``docs/web.md`` (Limits per client).
"""

from __future__ import annotations

import json
from collections import Counter

from starlette.types import ASGIApp, Receive, Scope, Send

from boardlab.web.errors import ApiError
from boardlab.web.limits import Limits, RateLimiter, client_key
from boardlab.web.refusals import REFUSALS

PICTURE_COST = 4.0
"""A GET that draws a fresh picture (a past position of a match): about 1-6 ms of the event
loop, several times an ordinary answer."""


def get_cost(path: str) -> float:
    """What a GET of ``path`` (or a websocket handshake on it) costs of the GET budget: the
    static files are free (a page loads a dozen, each a small file the kernel caches)."""
    if path.startswith("/api/matches/") and path.endswith("/position"):
        return PICTURE_COST
    if path.startswith("/static/"):
        return 0.0
    return 1.0


class ClientLimits:
    """ASGI middleware: GETs, HEADs and websocket handshakes spend the address's GET budget
    (429 past it, a refused handshake for a websocket), and an address holds at most
    ``websockets_per_address`` websockets (a refused handshake past it). Refusals are
    logged."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.gets = RateLimiter("requests", limits.gets_per_minute, limits.get_burst)
        self.websocket_cap = limits.websockets_per_address
        self.websockets: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Count the request or websocket against its address, or refuse it."""
        kind = scope["type"]
        if kind == "lifespan" or (kind == "http" and scope["method"] not in ("GET", "HEAD")):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = client_key(client[0] if client else None)
        try:
            self.gets.take(address, get_cost(scope["path"]))
        except ApiError as error:
            await _refuse(scope, send, error)
            return
        if kind == "http":
            await self.app(scope, receive, send)
            return
        if self.websockets[address] >= self.websocket_cap:
            REFUSALS.refused("websockets over the limit (429)", address)
            await _refuse(scope, send, ApiError(429, "too many websockets open from your address"))
            return
        self.websockets[address] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.websockets[address] -= 1
            if not self.websockets[address]:
                del self.websockets[address]


async def _refuse(scope: Scope, send: Send, error: ApiError) -> None:
    """Answer ``error`` as the API does (one JSON sentence); a websocket's handshake is refused
    plainly (403: uvicorn logs an error after a denial with a body of ours)."""
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
        return
    body = json.dumps({"error": error.message}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *((key.lower().encode(), value.encode()) for key, value in error.headers.items()),
    ]
    await send({"type": "http.response.start", "status": error.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
