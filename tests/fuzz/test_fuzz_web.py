"""A fuzzer for ``boardlab serve``: hostile HTTP and websocket traffic never gets a 5xx, never
hangs, and leaves the server answering.

Hypothesis generates requests against a real server subprocess on 127.0.0.1: methods, paths
(real and made-up match ids), query strings, headers (tokens, content types), JSON bodies
(valid ones mutated, deep, huge numbers) and raw bytes, raw request lines, and websocket frame
sequences (text, JSON, binary). Each request must end in a 2xx/3xx/4xx answer within
:data:`TIME_BOUND` seconds (an error as one sentence), each websocket in views or a clean
close; after each example the server must still answer ``GET /api/health``; at the end its log
holds no traceback. The examples are random on every run (not derandomized); a failure prints
Hypothesis's reproduction blob.

The CI budget is small; a long run, with figures printed at the end:
``BOARDLAB_WEB_FUZZ_EXAMPLES=20000 pytest tests/fuzz/test_fuzz_web.py -s``.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import time
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed, InvalidMessage, InvalidStatus
from websockets.sync.client import connect

from tests.web.conftest import Server, start_server

ACCOUNT, PASSWORD = "fuzzer", "fuzz password"
"""The account the fuzzer signs up at the start, holding the first seat of every match."""
EXAMPLES = int(os.environ.get("BOARDLAB_WEB_FUZZ_EXAMPLES", "120"))
TIME_BOUND = 15.0
"""Seconds one request or websocket exchange may take; more counts as a hang."""

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=False,
    print_blob=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@dataclass
class Target:
    """The server under fuzzing, a few real matches and seat tokens, and the tally."""

    server: Server
    matches: list[str]
    tokens: list[str]
    cookie: str
    """The session cookie of an account holding the matches' first seats (it may end as the
    fuzzer signs out or changes the password)."""
    sent: Counter[str] = field(default_factory=Counter)
    statuses: Counter[int] = field(default_factory=Counter)
    websocket_ends: Counter[str] = field(default_factory=Counter)


def make_target(server: Server) -> Target:
    """A few matches made on ``server``, and the fuzzer's account holding their first seats."""
    matches, tokens = [], []
    for body in VALID[""][:4]:
        status, answer = server.post("/api/matches", body)
        assert status == 201, answer
        matches.append(answer["id"])
        tokens += [seat["token"] for seat in answer["seats"] if "token" in seat]
    held = {match: tokens for match in matches}
    body = {"name": ACCOUNT, "password": PASSWORD, "matches": held}
    request = urllib.request.Request(
        server.url + "api/account/signup",
        json.dumps(body).encode(),
        {"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        cookie = answer.headers["Set-Cookie"].partition(";")[0]
    return Target(server, matches, tokens, cookie)


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    server = start_server(tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite3")
    started = time.monotonic()
    try:
        fuzzed = make_target(server)
        yield fuzzed
    finally:
        server.stop()
    total = sum(fuzzed.sent.values())
    seconds = time.monotonic() - started
    print(f"\nweb fuzz: {total} requests/exchanges in {seconds:.0f} s {dict(fuzzed.sent)}")
    print(f"web fuzz: HTTP statuses {dict(sorted(fuzzed.statuses.items()))}")
    print(f"web fuzz: websocket ends {dict(sorted(fuzzed.websocket_ends.items()))}")
    log = server.output()
    assert "Traceback" not in log, log[-5000:]


# -- what is sent ---------------------------------------------------------------------------

DIGITS = st.sampled_from(
    ["0", "1", "-1", "\u00b2", "\u0661", "\u0663", "1e3", "0x10", " 1", "1.5", "", "+2"]
)
NUMBERS = st.one_of(
    st.integers(-(10**6), 10**6),
    st.builds(lambda n: int("9" * n), st.integers(20, 4200)),
    st.floats(allow_nan=True, allow_infinity=True),
)
TEXT = st.one_of(
    st.text(max_size=30),
    DIGITS,
    st.builds(lambda n: "9" * n, st.integers(20, 6000)),
    st.sampled_from(["d1-d3", "a7-a5", "6@19", "random", "classic", "level:easy", "\x00", "é"]),
)
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, TEXT)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
VALID: dict[str, list[dict[str, Any]]] = {
    "": [
        {"game": "murus-gallicus", "seats": [{"kind": "human"}, {"kind": "invite"}]},
        {"game": "anacund", "options": {"layout": "l0"}, "seats": [{"kind": "human"}] * 2},
        {"game": "cyvasse", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "level:easy"}]},
        {"game": "cyvasse", "seats": [{"kind": "invite"}, {"kind": "human"}]},
        {"game": "colosseum-offcuts", "seats": [{"kind": "bot", "bot": "random"}] * 3},
        {"game": "murus-gallicus", "seats": [{"kind": "human"}, {"kind": "invite"}], "rated": True},
    ],
    "turn": [
        {"seat": 0, "ply": 0, "turn": "d1-d3"},
        {"seat": 0, "ply": 0, "turn": "6@19+5@21+4@18"},
        {"seat": 0, "ply": 0, "preset": "classic"},
        {"seat": 1, "ply": 1, "turn": "a7-a5"},
    ],
    "preview": [{"seat": 0, "steps": ["6@19"]}, {"seat": 1, "steps": []}, {"seat": 0}],
    "resign": [{"seat": 0}, {"seat": 1}],
    "takeback": [{"seat": 0}],
    "offer": [{"seat": 0, "kind": "takeback"}, {"seat": 1, "kind": "draw"}],
    "accept": [{"seat": 1, "kind": "takeback", "ply": 1}, {"seat": 0, "kind": "draw", "ply": 2}],
    "decline": [{"seat": 1, "kind": "draw", "ply": 1}],
    "rematch": [{}],
    "abort": [{"seat": 0}, {"seat": 1}],
    "chat": [
        {"channel": "players", "text": "good luck <b>"},
        {"channel": "spectators", "text": "\u202ehello\x00"},
    ],
    "chat/spectators": [{"open": False}, {"open": True}],
    "claim": [{"seat": 1, "token": "A" * 43}, {"seat": 0, "token": "b" * 43}],
    "account/signup": [{"name": "fuzz-new", "password": "a password", "matches": {}}],
    "account/signin": [{"name": ACCOUNT, "password": PASSWORD}],
    "account/signout": [{}],
    "account/password": [{"old": PASSWORD, "new": PASSWORD}],
    "account/delete": [{"password": "not the password"}],
    "account/notifications": [
        {"address": "fuzz@example.org", "enabled": True},
        {"address": "", "enabled": False},
    ],
    "seeks": [
        {"game": "murus-gallicus", "options": {}, "clock": {"days": 3}},
        {"game": "carnyx", "clock": None, "rated": True, "min_rating": 1400, "max_rating": 1600},
    ],
    "seeks/withdraw": [{"tokens": ["A" * 43]}],
    "account/import": [
        {
            "record": "# Boardlab game record\nGame: murus-gallicus\nResult: Romans=loss Gauls=win"
            "\nTermination: resignation\n\n1 Romans: d1-d3\n",
            "seat": 0,
        }
    ],
}
"""Bodies that each request of the app accepts (by the last part of its path under a match, or
its path under ``/api/``), to mutate."""
KEYS = st.sampled_from(
    [
        "game",
        "options",
        "seats",
        "seat",
        "ply",
        "turn",
        "preset",
        "steps",
        "kind",
        "bot",
        "tokens",
        "token",
        "matches",
        "name",
        "password",
        "old",
        "new",
        "channel",
        "text",
        "open",
        "rated",
        "record",
        "address",
        "enabled",
        "clock",
        "min_rating",
        "max_rating",
    ]
)


@st.composite
def bodies(draw: st.DrawFn, action: str | None = None) -> bytes:
    """A request body: for ``action``, a valid one or one mutation away; else anything."""
    kinds = ["object", "json", "deep", "bytes", "huge"] if action is None else ["valid", "mutated"]
    kind = draw(st.sampled_from(kinds))
    if action is not None:
        data = dict(draw(st.sampled_from(VALID[action])))
        if kind == "mutated":
            key = draw(st.one_of(KEYS, st.sampled_from(sorted(data) or ["seat"])))
            if draw(st.booleans()):
                data[key] = draw(JSON)
            else:
                data.pop(key, None)
        return json.dumps(data).encode()
    if kind == "object":
        data = draw(st.dictionaries(st.one_of(KEYS, st.text(max_size=8)), JSON, max_size=6))
        return json.dumps(data).encode()
    if kind == "json":
        return json.dumps(draw(JSON)).encode()
    if kind == "deep":
        depth = draw(st.integers(100, 30000))
        opener = draw(st.sampled_from(["[", '{"a":']))
        return (opener * depth).encode()
    if kind == "huge":
        key = draw(KEYS)
        return f'{{"{key}": {"7" * draw(st.integers(4000, 9000))}}}'.encode()
    return draw(st.binary(max_size=300))


@st.composite
def paths(draw: st.DrawFn, matches: list[str]) -> str:
    """A path of the app with a real or made-up match id and a hostile query string."""
    match = draw(
        st.one_of(
            st.sampled_from(matches),
            st.text(alphabet="AZaz09_-", min_size=16, max_size=16),
            st.text(max_size=20).map(lambda t: urllib.parse.quote(t, safe="")),
        )
    )
    path = draw(
        st.sampled_from(
            [
                "/",
                "/api/catalogue",
                "/api/health",
                "/api/matches",
                f"/api/matches/{match}",
                f"/api/matches/{match}/position",
                f"/api/matches/{match}/preview",
                f"/api/matches/{match}/turn",
                f"/api/matches/{match}/resign",
                f"/api/matches/{match}/takeback",
                f"/api/matches/{match}/offer",
                f"/api/matches/{match}/accept",
                f"/api/matches/{match}/decline",
                f"/api/matches/{match}/rematch",
                f"/api/matches/{match}/record",
                f"/api/matches/{match}/claim",
                f"/api/matches/{match}/abort",
                f"/api/matches/{match}/chat",
                f"/api/matches/{match}/chat/spectators",
                "/api/mine",
                "/api/account",
                "/api/account/signup",
                "/api/account/signin",
                "/api/account/signout",
                "/api/account/password",
                "/api/account/delete",
                "/api/account/notifications",
                "/api/seeks",
                "/api/seeks/withdraw",
                f"/api/seeks/{match}/accept",
                f"/unsubscribe/{match}",
                "/api/account/import",
                "/api/account/records.zip",
                f"/api/players/{match}",
                f"/players/{match}",
                "/api/games",
                f"/api/games/{match}/record",
                "/games",
                "/account",
                f"/match/{match}",
                "/analysis",
                "/api/analysis/open",
                "/api/analysis/position",
                "/api/analysis/evaluate",
                "/api/analysis/play",
                "/static/" + urllib.parse.quote(draw(st.text(max_size=12)), safe="/"),
            ]
        )
    )
    query = draw(
        st.lists(
            st.tuples(
                st.sampled_from(
                    [
                        *("at", "limit", "game", "status", "player", "result"),
                        *("from", "to", "options", "after", "x"),
                    ]
                ),
                st.one_of(DIGITS, TEXT),
            ),
            max_size=3,
        )
    )
    return path + ("?" + urllib.parse.urlencode(query) if query else "")


HEADER_TEXT = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=60)


@st.composite
def headers(draw: st.DrawFn, tokens: list[str]) -> dict[str, str]:
    """Authorization (real tokens, malformed ones, other schemes) and content types."""
    found: dict[str, str] = {}
    auth = draw(
        st.one_of(
            st.none(),
            st.sampled_from(tokens).map(lambda t: f"Bearer {t}"),
            st.lists(st.sampled_from(tokens), max_size=10).map(lambda ts: "Bearer " + ",".join(ts)),
            HEADER_TEXT,
            HEADER_TEXT.map(lambda t: f"Bearer {t}"),
        )
    )
    if auth is not None:
        found["Authorization"] = auth
    found["Content-Type"] = draw(
        st.one_of(st.just("application/json"), HEADER_TEXT, st.just("multipart/form-data"))
    )
    if draw(st.booleans()):
        found[draw(st.sampled_from(["X-Forwarded-For", "Origin", "Cookie", "X-Any"]))] = draw(
            HEADER_TEXT
        )
    elif draw(st.booleans()):
        found["Cookie"] = draw(HEADER_TEXT.map(lambda t: f"boardlab_session={t}"))
    return found


# -- the checks -----------------------------------------------------------------------------


def check_answer(target: Target, status: int, method: str, body: bytes) -> None:
    """Never a 5xx; a refusal is one sentence of JSON."""
    target.statuses[status] += 1
    assert status < 500, (status, body[:500])
    if status >= 400 and method != "HEAD":
        error = json.loads(body)["error"]
        assert isinstance(error, str) and error and "\n" not in error, body[:500]


def check_responsive(target: Target) -> None:
    """The server still answers a plain request at once."""
    connection = http.client.HTTPConnection("127.0.0.1", target.server.port, timeout=TIME_BOUND)
    try:
        connection.request("GET", "/api/health")
        assert connection.getresponse().status == 200
    finally:
        connection.close()


# -- the fuzzers ----------------------------------------------------------------------------


@st.composite
def plausible(draw: st.DrawFn, target: Target) -> tuple[str, str, dict[str, str], bytes]:
    """A request much like the front end's: a real match, a real token, a body one mutation
    away from a valid one (so the checks past the first ones are reached too)."""
    match = draw(st.sampled_from(target.matches))
    action = draw(st.sampled_from(sorted(VALID)))
    if action.startswith(("account/", "seeks")):
        path = f"/api/{action}"
    else:
        path = f"/api/matches/{match}/{action}" if action else "/api/matches"
    sent_headers = {"Authorization": "Bearer " + draw(st.sampled_from(target.tokens))}
    if draw(st.booleans()):
        sent_headers["Cookie"] = target.cookie
    return "POST", path, sent_headers, draw(bodies(action))


@FUZZ
@given(data=st.data())
def test_http_requests_never_fail_the_server(target: Target, data: st.DataObject) -> None:
    fuzz_http(target, data)
    check_responsive(target)


def fuzz_http(target: Target, data: st.DataObject) -> None:
    """Send one hostile HTTP request drawn from ``data``, and check the answer."""
    if data.draw(st.booleans()):
        method, path, sent_headers, body = data.draw(plausible(target))
    else:
        method = data.draw(st.sampled_from(["GET", "POST", "POST", "PUT", "DELETE", "HEAD"]))
        path = data.draw(paths(target.matches))
        sent_headers = data.draw(headers(target.tokens))
        body = data.draw(bodies()) if method in ("POST", "PUT") else b""
    connection = http.client.HTTPConnection("127.0.0.1", target.server.port, timeout=TIME_BOUND)
    try:
        connection.request(method, path, body or None, sent_headers)
        answer = connection.getresponse()
        raw = answer.read()
    finally:
        connection.close()
    target.sent["http"] += 1
    check_answer(target, answer.status, method, raw)


@FUZZ
@given(line=st.binary(max_size=200), rest=st.binary(max_size=200))
def test_raw_request_bytes_never_fail_the_server(target: Target, line: bytes, rest: bytes) -> None:
    fuzz_raw(target, line, rest)
    check_responsive(target)


def fuzz_raw(target: Target, line: bytes, rest: bytes) -> None:
    """Send ``line`` and ``rest`` as a request's head, and check the answer if any."""
    with socket.create_connection(("127.0.0.1", target.server.port), timeout=TIME_BOUND) as sock:
        sock.sendall(line + b"\r\n" + rest + b"\r\n\r\n")
        sock.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    target.sent["raw"] += 1
    if answer:
        status = int(answer.split(b" ", 2)[1])
        target.statuses[status] += 1
        assert status < 500, answer[:500]


FRAMES = st.lists(
    st.one_of(
        st.binary(max_size=100),
        st.text(max_size=100),
        JSON.map(json.dumps),
        st.lists(st.sampled_from(["t0", "t1", "t2", "bad!", ""]), max_size=9).map(
            lambda names: json.dumps({"tokens": names})
        ),
        st.integers(4000, 6000).map(lambda n: "x" * n),
    ),
    min_size=0,
    max_size=4,
)


@FUZZ
@given(data=st.data(), frames=FRAMES)
def test_websocket_frames_never_fail_the_server(
    target: Target, data: st.DataObject, frames: list[str | bytes]
) -> None:
    fuzz_websocket(target, data, frames)
    check_responsive(target)


def fuzz_websocket(target: Target, data: st.DataObject, frames: list[str | bytes]) -> None:
    """Open a websocket drawn from ``data``, send it ``frames``, and check how it ends."""
    match = data.draw(
        st.one_of(st.sampled_from(target.matches), st.text(alphabet="Az0_-", max_size=20))
    )
    # The tokens of the fuzzed frames: placeholders stand for real ones.
    real = {f"t{n}": token for n, token in enumerate(target.tokens[:3])}
    # A match's websocket, or the lobby's seeks.
    route = "seeks" if data.draw(st.booleans()) else f"matches/{match}"
    url = f"ws://127.0.0.1:{target.server.port}/ws/{route}"
    target.sent["websocket"] += 1
    try:
        with connect(url, open_timeout=TIME_BOUND, close_timeout=TIME_BOUND) as ws:
            for frame in frames:
                if isinstance(frame, str):
                    for name, token in real.items():
                        frame = frame.replace(f'"{name}"', f'"{token}"')
                ws.send(frame)
            end = "sent nothing"
            if frames:
                message = json.loads(ws.recv(timeout=TIME_BOUND))
                assert message["type"] in ("view", "error", "thinking", "seeks"), message
                end = message["type"]
                if message["type"] == "error":
                    assert message["status"] < 500, message
                    end = f"error {message['status']}"
    except InvalidStatus as refused:
        # The handshake itself was refused (a path that is no websocket route).
        assert refused.response.status_code < 500
        end = f"handshake {refused.response.status_code}"
    except (ConnectionClosed, InvalidMessage) as closed:
        # A clean close (too large, policy) is an answer.
        code = closed.rcvd.code if isinstance(closed, ConnectionClosed) and closed.rcvd else None
        end = f"closed {code}"
    target.websocket_ends[end] += 1


def test_the_server_is_whole_after_fuzzing(target: Target) -> None:
    """The server is still whole at the end: a full match can be created and listed."""
    status, answer = target.server.post(
        "/api/matches", {"game": "murus-gallicus", "seats": [{"kind": "human"}] * 2}
    )
    assert status == 201, answer
    assert target.server.get("/api/matches?limit=5")[0] == 200
