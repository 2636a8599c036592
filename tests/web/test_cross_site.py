"""Requests from other sites act for nobody (issue 36, item 7), against a real server: another
origin's requests and websockets are refused, a body a page could send without a preflight
(``text/plain``, a form) changes nothing, a rebound DNS name is not answered, and the operator
reads each refusal in the log. Checked with raw requests and with a real page in Chromium."""

from __future__ import annotations

import functools
import http.client
import json
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from tests.web.conftest import Server
from tests.web.test_api import MURUS_HOT_SEAT

EVIL = "https://evil.example"


def send(
    server: Server, method: str, path: str, body: str | None, headers: dict[str, str]
) -> tuple[int, Any]:
    """One request with exactly ``headers`` (and Host, unless given): (status, JSON answer)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.putrequest(method, path, skip_host="Host" in headers)
        for key, value in headers.items():
            connection.putheader(key, value)
        data = None if body is None else body.encode()
        if data is not None:
            connection.putheader("Content-Length", str(len(data)))
        connection.endheaders(data)
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read() or b"null")
    finally:
        connection.close()


def matches(server: Server) -> int:
    """How many matches the server holds."""
    return len(server.get("/api/matches?limit=200")[1]["matches"])


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Content-Type": "application/json", "Origin": EVIL}, 403),
        ({"Content-Type": "text/plain", "Origin": EVIL}, 403),
        ({"Content-Type": "text/plain"}, 415),
        ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
        ({"Content-Type": "multipart/form-data; boundary=x"}, 415),
        ({"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, 403),
        ({"Content-Type": "application/json", "Origin": "null"}, 403),
    ],
)
def test_a_request_another_site_could_send_creates_nothing(
    server: Server, headers: dict[str, str], status: int
) -> None:
    body = json.dumps(MURUS_HOT_SEAT)
    answer = send(server, "POST", "/api/matches", body, headers)
    assert answer[0] == status and "error" in answer[1]
    assert matches(server) == 0
    # The refusal is in the operator's log.
    assert "refused POST /api/matches: " in server.output()


def test_the_server_own_origin_and_clients_without_one_are_served(server: Server) -> None:
    body = json.dumps(MURUS_HOT_SEAT)
    own = f"http://127.0.0.1:{server.port}"
    same = {"Content-Type": "application/json; charset=utf-8", "Origin": own}
    assert send(server, "POST", "/api/matches", body, same)[0] == 201
    plain = {"Content-Type": "application/json", "Sec-Fetch-Site": "same-origin"}
    assert send(server, "POST", "/api/matches", body, plain)[0] == 201
    assert matches(server) == 2


@pytest.mark.parametrize("path", ["/api/analysis/evaluate", "/api/analysis/play", "/api/mine"])
def test_analysis_and_your_games_refuse_other_sites(server: Server, path: str) -> None:
    status, _ = send(server, "POST", path, "{}", {"Content-Type": "text/plain", "Origin": EVIL})
    assert status == 403


@pytest.mark.parametrize("host", ["evil.example", "rebound.example:8000", "", "a b"])
def test_a_host_name_that_is_not_the_server_is_not_answered(server: Server, host: str) -> None:
    status, answer = send(server, "GET", "/api/health", None, {"Host": host})
    assert status in (400, 421), answer
    # Pages too: a rebound name reads nothing.
    assert send(server, "GET", "/api/catalogue", None, {"Host": "evil.example"})[0] == 421
    assert send(server, "GET", "/api/health", None, {"Host": "localhost"})[0] == 200


def test_a_websocket_from_another_site_is_refused(server: Server) -> None:
    created = server.post("/api/matches", MURUS_HOT_SEAT)[1]
    url = server.url.replace("http://", "ws://") + f"ws/matches/{created['id']}"
    with pytest.raises(InvalidStatus) as refused:
        connect(url, origin=Origin(EVIL), open_timeout=30)
    assert refused.value.response.status_code == 403
    own = f"http://127.0.0.1:{server.port}"
    with connect(url, origin=Origin(own), open_timeout=30) as socket:
        socket.send(json.dumps({"tokens": []}))
        assert json.loads(str(socket.recv(timeout=30)))["type"] == "view"


def test_a_page_of_another_origin_cannot_create_a_match_through_the_browser(
    server: Server, browser: Browser, tmp_path: Path
) -> None:
    body = json.dumps(MURUS_HOT_SEAT)
    # A hostile page on another origin (another port of this machine): it posts a form and
    # sends the bodies a page may send without asking the server first.
    (tmp_path / "evil.html").write_text(
        f'<form method="post" action="{server.url}api/matches" enctype="text/plain">'
        f"<input name='{body[:-1]}, \"x\": \"' value='\"}}'></form>"
        "<script>"
        f"for (const kind of ['text/plain', 'application/x-www-form-urlencoded'])"
        f" fetch('{server.url}api/matches', {{method: 'POST', mode: 'no-cors', body: "
        f"{json.dumps(body)}, headers: {{'Content-Type': kind}}}}).catch(() => null);"
        "</script>",
        encoding="utf-8",
    )
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(tmp_path))
    evil = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=evil.serve_forever, daemon=True).start()
    try:
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{evil.server_address[1]}/evil.html")
        deadline = time.monotonic() + 30
        while server.output().count("requests from another site are refused") < 2:
            assert time.monotonic() < deadline, server.output()
            time.sleep(0.1)
        with page.expect_navigation():
            page.evaluate("document.forms[0].submit()")
        page.close()
    finally:
        evil.shutdown()
        evil.server_close()
    assert server.output().count("requests from another site are refused") == 3
    assert matches(server) == 0
