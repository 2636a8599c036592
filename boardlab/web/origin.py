"""Requests from other sites refused: a visitor's browser cannot act for another page.

A page of another site can make a visitor's browser send a form or a ``text/plain`` body to any
address without asking first, and a DNS name rebound to this server's address reaches it under
that name. So, before any handler runs: the ``Host`` header must name this server (the
``--allowed-host`` names; by default the address it serves); every request that may change
something (any method but GET, HEAD and OPTIONS) must be JSON, which a page of another site can
only send after a preflight this server never answers, and come from this server's own origin
when the browser says where it comes from (``Origin``, ``Sec-Fetch-Site``); a websocket must come
from this origin too. Clients that are not browsers send no ``Origin`` and are not concerned.

One request is let through from anywhere: the one-click unsubscribe of RFC 8058, a form POST
to ``/unsubscribe/<token>`` that a mail program sends from wherever it runs. The secret token
in its URL is its only authority (no cookie is read), and all it can do is turn that token's
mails off, so another site gains nothing by sending it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from boardlab.web.refusals import REFUSALS

if TYPE_CHECKING:
    # Types only: ``boardlab serve`` reads host names with this module before the web extra
    # is known to be installed.
    from starlette.types import ASGIApp, Receive, Scope, Send

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
SAME_SITE_FETCHES = frozenset({"same-origin", "none"})
DEFAULT_PORTS = {"http": 80, "https": 443}
UNSUBSCRIBE_PATH = re.compile(r"/unsubscribe/[A-Za-z0-9_-]+")
"""The one-click unsubscribe's URL (``notifications_api.post_unsubscribe``)."""
FORM_KINDS = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})


def host_port(authority: str) -> tuple[str, int | None] | None:
    """``(host, port)`` of a ``Host`` header or an origin's authority (lower case; port None
    when it names none); None when it is malformed."""
    try:
        parts = urlsplit(f"//{authority.strip()}")
        port = parts.port
    except ValueError:
        return None
    host = parts.hostname
    if not host or parts.username is not None or parts.path or parts.query:
        return None
    return host.lower(), port


class CrossSiteGuard:
    """ASGI middleware refusing unknown hosts and cross-site requests and websockets.

    ``hosts`` are the names (``host`` or ``host:port``) the ``Host`` header may carry; None
    allows any (a server bound to every address with no ``--allowed-host``).
    """

    def __init__(self, app: ASGIApp, hosts: Iterable[str] | None) -> None:
        self.app = app
        names = None if hosts is None else (host_port(host) for host in hosts)
        # Host names alone count: a rebound DNS name differs in its name, whatever the port.
        self.hosts = None if names is None else frozenset(n[0] for n in names if n is not None)

    def host_allowed(self, host: tuple[str, int | None]) -> bool:
        """Whether ``Host`` names this server."""
        return self.hosts is None or host[0] in self.hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass on what this server's own pages may send; refuse the rest before it acts."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {
            key.decode("latin-1"): value.decode("latin-1") for key, value in scope["headers"]
        }
        problem = self._problem(scope, headers)
        if problem is None:
            await self.app(scope, receive, send)
            return
        status, message = problem
        client = scope.get("client")
        REFUSALS.refused(
            f"{scope.get('method', 'websocket')} {scope.get('path', '')}: {message}",
            client[0] if client else "an unknown client",
        )
        if scope["type"] == "websocket":
            # Closing before accepting answers the handshake with 403.
            await send({"type": "websocket.close", "code": 1008, "reason": message[:100]})
            return
        body = json.dumps({"error": message}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    def _problem(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str] | None:
        """Why the request is refused (status, one sentence), or None."""
        host = host_port(headers.get("host", ""))
        if host is None or not self.host_allowed(host):
            return 421, "this server does not answer to that host name"
        kind = headers.get("content-type", "").partition(";")[0].strip().lower()
        if _one_click_unsubscribe(scope, kind):
            return None
        origin = headers.get("origin")
        if origin is not None and not _same_origin(origin, host):
            return 403, "requests from another site are refused"
        if scope["type"] == "websocket" or scope["method"] in SAFE_METHODS:
            return None
        if headers.get("sec-fetch-site", "same-origin") not in SAME_SITE_FETCHES:
            return 403, "requests from another site are refused"
        if kind != "application/json":
            return 415, "a request that changes something must be JSON (application/json)"
        return None


def _one_click_unsubscribe(scope: Scope, kind: str) -> bool:
    """Whether the request is a form POST to an unsubscribe link (RFC 8058)."""
    return (
        scope["type"] == "http"
        and scope["method"] == "POST"
        and kind in FORM_KINDS
        and UNSUBSCRIBE_PATH.fullmatch(scope["path"]) is not None
    )


def _same_origin(origin: str, host: tuple[str, int | None]) -> bool:
    """Whether ``origin`` (scheme://host[:port]) is this server's as the ``Host`` header names
    it: the same name, and the same port where the ``Host`` names one (behind a proxy that
    ends TLS the ``Host`` names none, and the scheme differs)."""
    parts = urlsplit(origin.strip())
    if parts.scheme not in ("http", "https"):
        return False
    found = host_port(parts.netloc)
    if found is None or found[0] != host[0]:
        return False
    port = found[1] if found[1] is not None else DEFAULT_PORTS[parts.scheme]
    return host[1] is None or port == host[1]
