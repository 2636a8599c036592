"""The session cookie of a signed-in player: made, read, and expired after 30 idle days.

The cookie holds a random session id; the store keeps only its SHA-256 (as for seat tokens),
so a copy of the database signs nobody in. It is HttpOnly (no script reads it), SameSite=Lax
(another site's requests carry it only on top-level GET navigations, which change nothing) and
Secure when the request came over https (directly, or through a ``--trusted-proxy`` that says
so in ``X-Forwarded-Proto``, which uvicorn turns into the request's scheme).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta

from starlette.requests import HTTPConnection
from starlette.responses import Response

from boardlab.web.requests import TOKEN_PATTERN
from boardlab.web.store import Account, Store
from boardlab.web.tokens import TOKEN_BYTES, token_hash

COOKIE = "boardlab_session"
IDLE_DAYS = 30
"""A session not used for this many days has ended (``seen`` is renewed on every page)."""


def new_session_id() -> str:
    """A fresh session id: 32 random bytes, base64url."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def session_digest(cookies: Mapping[str, str]) -> str | None:
    """The SHA-256 of the session id in ``cookies`` (None without one, or a malformed one)."""
    value = cookies.get(COOKIE)
    if not value or not TOKEN_PATTERN.fullmatch(value):
        return None
    return token_hash(value)


def live_since() -> str:
    """The oldest last-seen time of a session that has not expired, in the store's format."""
    return (datetime.now(UTC) - timedelta(days=IDLE_DAYS)).isoformat(timespec="microseconds")


def signed_in(connection: HTTPConnection, when: str) -> Account | None:
    """The account whose live session the request's cookie names (None for a guest), noting
    the session as seen at ``when``."""
    digest = session_digest(connection.cookies)
    if digest is None:
        return None
    store: Store = connection.app.state.hub.store
    return store.session_account(digest, live_since(), when)


def set_session_cookie(response: Response, session_id: str, connection: HTTPConnection) -> None:
    """Give the browser ``session_id`` (Secure if the request came over https)."""
    response.set_cookie(
        COOKIE,
        session_id,
        max_age=IDLE_DAYS * 24 * 3600,
        path="/",
        secure=connection.url.scheme in ("https", "wss"),
        httponly=True,
        samesite="lax",
    )


def clear_session_cookie(response: Response, connection: HTTPConnection) -> None:
    """Tell the browser to forget its session cookie."""
    response.delete_cookie(
        COOKIE,
        path="/",
        secure=connection.url.scheme in ("https", "wss"),
        httponly=True,
        samesite="lax",
    )
