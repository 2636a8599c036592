"""Hostile input gets a 400 with one sentence (or a clean websocket close), never a 500 or a
traceback in the server's log (issue 19, item 5)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.web.conftest import Server
from tests.web.test_api import MURUS_HOT_SEAT, create

DIGITS = "7" * 5000
"""Beyond Python's 4300-digit limit of integer-string conversion."""


def raw_request(server: Server, method: str, path: str, body: bytes | None = None) -> Any:
    """Send ``body`` bytes as they are (json.dumps could not even write some of them)."""
    request = urllib.request.Request(server.url.rstrip("/") + path, body, method=method)
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def one_sentence(answer: Any) -> str:
    """The error of an answer, checked to be one line of text."""
    assert list(answer) == ["error"], answer
    error: str = answer["error"]
    assert error and "\n" not in error and "Traceback" not in error
    return error


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("at=%C2%B2", "'at' must be an integer"),  # a superscript two, as a browser sends it
        ("at=%D9%A1", "'at' must be an integer"),  # an Arabic-Indic one
        (f"at={DIGITS}", "'at' must be an integer"),
        (f"at=-{DIGITS}", "'at' must be an integer"),
    ],
)
def test_query_integers_that_int_refuses_are_400(
    shared_server: Server, query: str, words: str
) -> None:
    match, _ = create(shared_server, MURUS_HOT_SEAT)
    status, answer = raw_request(shared_server, "GET", f"/api/matches/{match}/position?{query}")
    assert status == 400 and words in one_sentence(answer)


def test_list_limits_that_int_refuses_are_400(shared_server: Server) -> None:
    for value in ("%C2%B3", DIGITS):
        status, answer = raw_request(shared_server, "GET", f"/api/matches?limit={value}")
        assert status == 400 and "'limit' must be an integer" in one_sentence(answer)


@pytest.mark.parametrize(
    "body",
    [
        b'{"game": "murus-gallicus", "options": {"max_plies": ' + DIGITS.encode() + b"}}",
        b'{"game": "murus-gallicus", "seats": [], "x": -' + DIGITS.encode() + b"}",
        b'{"seats": ' + b"[" * 5000 + b"]" * 5000 + b"}",
        b"[" * 20000,
        b'{"a": ' * 3000 + b"1" + b"}" * 3000,
    ],
    ids=["huge-int-option", "huge-negative-int", "deep-list", "deep-unclosed", "deep-object"],
)
def test_bodies_python_cannot_decode_are_400(shared_server: Server, body: bytes) -> None:
    before = len(shared_server.get("/api/matches?limit=200")[1]["matches"])
    status, answer = raw_request(shared_server, "POST", "/api/matches", body)
    assert status == 400, answer
    assert one_sentence(answer).startswith("the request body is")
    assert len(shared_server.get("/api/matches?limit=200")[1]["matches"]) == before


def test_huge_integers_in_a_turn_are_400(shared_server: Server) -> None:
    match, (romans, _) = create(shared_server, MURUS_HOT_SEAT)
    body = b'{"seat": 0, "ply": ' + DIGITS.encode() + b', "turn": "d1-d3"}'
    request = urllib.request.Request(
        shared_server.url + f"api/matches/{match}/turn", body, method="POST"
    )
    request.add_header("Authorization", f"Bearer {romans}")
    request.add_header("Content-Type", "application/json")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 400
    assert "not valid JSON" in one_sentence(json.loads(refused.value.read()))


@pytest.mark.parametrize(
    "first",
    [b"\x00\x01binary", json.dumps({"tokens": []}).encode()],
    ids=["binary", "json-as-binary"],
)
def test_a_binary_first_websocket_frame_is_a_clean_close(server: Server, first: bytes) -> None:
    match, _ = create(server, MURUS_HOT_SEAT)
    with connect(server.url.replace("http://", "ws://") + f"ws/matches/{match}") as socket:
        socket.send(first)
        answer = json.loads(socket.recv(timeout=30))
        assert answer["type"] == "error" and answer["status"] == 400
        assert "binary" in answer["error"]
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv(timeout=30)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    _assert_clean_log(server)


def test_binary_and_deep_websocket_messages_leave_no_traceback(server: Server) -> None:
    match, _ = create(server, MURUS_HOT_SEAT)
    url = server.url.replace("http://", "ws://") + f"ws/matches/{match}"
    with connect(url) as socket:
        socket.send("[" * 4000)
        answer = json.loads(socket.recv(timeout=30))
        assert answer["status"] == 400 and "nested too deeply" in answer["error"]
    with connect(url) as socket:
        socket.send(json.dumps({"tokens": []}))
        assert json.loads(socket.recv(timeout=30))["type"] == "view"
        socket.send(b"\xff" * 10)  # after the first message: read and ignored
        socket.send("still here")
    assert server.get(f"/api/matches/{match}")[0] == 200
    _assert_clean_log(server)


def _assert_clean_log(server: Server) -> None:
    """The server's stderr (and stdout) hold no traceback and no error line."""
    log = server.output()
    assert "Traceback" not in log and "ERROR" not in log, log
