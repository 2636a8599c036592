"""A client of the web API as one browser with its own cookie jar (the session cookie), from a
loopback address of its choosing: accounts are tested as a person's browsers use them."""

from __future__ import annotations

import http.client
import json
import secrets
from dataclasses import dataclass, field
from email.message import Message
from typing import Any, Protocol

COOKIE = "boardlab_session"


class Reachable(Protocol):
    """A server on 127.0.0.1 (``conftest.Server`` or ``local.LocalServer``)."""

    @property
    def port(self) -> int:
        """Its port."""


@dataclass
class Browser:
    """One browser: the server it talks to, its address, and the session cookie it keeps."""

    server: Reachable
    address: str = "127.0.0.1"
    cookie: str | None = None
    last_set_cookie: str = ""
    """The ``Set-Cookie`` header of the last answer that had one (its attributes)."""
    headers: dict[str, str] = field(default_factory=dict)

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
    ) -> tuple[int, Any]:
        """One request (JSON ``body``, or ``raw`` bytes with the caller's content type):
        (status, decoded answer); a ``Set-Cookie`` answer updates the jar."""
        connection = http.client.HTTPConnection(
            "127.0.0.1", self.server.port, timeout=60, source_address=(self.address, 0)
        )
        sent = {"Host": f"127.0.0.1:{self.server.port}", **self.headers, **(headers or {})}
        data = raw
        if body is not None:
            data = json.dumps(body).encode()
            sent.setdefault("Content-Type", "application/json")
        if token:
            sent["Authorization"] = f"Bearer {token}"
        if self.cookie is not None:
            sent["Cookie"] = f"{COOKIE}={self.cookie}"
        try:
            connection.request(method, path, data, sent)
            answer = connection.getresponse()
            text = answer.read().decode()
            self._keep(answer.headers)
        finally:
            connection.close()
        try:
            return answer.status, json.loads(text)
        except json.JSONDecodeError:
            return answer.status, text

    def post(self, path: str, body: Any, token: str | None = None) -> tuple[int, Any]:
        """POST ``body`` as JSON."""
        return self.request("POST", path, body, token)

    def get(self, path: str, token: str | None = None) -> tuple[int, Any]:
        """GET ``path``."""
        return self.request("GET", path, None, token)

    def _keep(self, headers: Message) -> None:
        for value in headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            if name.strip() != COOKIE:
                continue
            self.last_set_cookie = value
            cookie = rest.partition(";")[0].strip().strip('"')
            self.cookie = None if not cookie or "max-age=0" in value.lower() else cookie

    def cookie_attributes(self) -> set[str]:
        """The attributes of the last session cookie set, in lower case (``httponly``...)."""
        return {part.strip().lower() for part in self.last_set_cookie.split(";")[1:]}

    def account(self) -> str | None:
        """The name this browser is signed in as (None: a guest)."""
        status, answer = self.get("/api/account")
        assert status == 200, answer
        return None if answer["account"] is None else str(answer["account"]["name"])


def new_name(prefix: str = "p") -> str:
    """A fresh account name (3-20 characters), unique on a shared server."""
    return f"{prefix}-{secrets.token_hex(6)}"


def sign_up(browser: Browser, name: str | None = None, password: str = "correct horse") -> str:
    """Sign ``browser`` up under a fresh name (or ``name``); returns the name."""
    name = name or new_name()
    status, answer = browser.post("/api/account/signup", {"name": name, "password": password})
    assert status == 201, answer
    return name
