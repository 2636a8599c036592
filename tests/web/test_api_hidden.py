"""Cyvasse's secret deployment never reaches the other seat or a spectator, in any answer."""

from __future__ import annotations

import json
import re
from contextlib import ExitStack
from typing import Any

from websockets.sync.client import ClientConnection, connect

from tests.web.conftest import Server
from tests.web.test_api import create, wait_for_ply


def preset(server: Server, match: str, token: str | None, seat: int, ply: int, name: str) -> Any:
    """Play a whole deployment preset."""
    body = {"seat": seat, "ply": ply, "preset": name}
    status, view = server.post(f"/api/matches/{match}/turn", body, token)
    assert status == 200, view
    return view


def listen(stack: ExitStack, server: Server, match: str, tokens: list[str]) -> ClientConnection:
    """A websocket client of ``match`` presenting ``tokens``, past its first view."""
    url = server.url.replace("http://", "ws://") + f"ws/matches/{match}"
    socket = stack.enter_context(connect(url))
    socket.send(json.dumps({"tokens": tokens}))
    socket.recv(timeout=10)
    return socket


def until_revealed(socket: ClientConnection) -> list[str]:
    """Every frame the server sent before the view that ends the deployment: nothing sent while
    it was hidden, however late, escapes (the server sends each client's frames in order)."""
    frames: list[str] = []
    while True:
        frame = str(socket.recv(timeout=30))
        message = json.loads(frame)
        if message["type"] == "view" and message["view"]["phase"] != "deployment":
            return frames
        frames.append(frame)


def seen_by_north_and_spectators(server: Server, lineup: str) -> tuple[str, list[str], str]:
    """Everything the North seat, a spectator and a hot-seat browser receive while North
    deploys after South played ``lineup``; returns the match id, the payloads and South's
    turn text (read once the deployment is over)."""
    match, (south, north) = create(
        server,
        {"game": "cyvasse", "options": {"seed": 7}, "seats": [{"kind": "human"}] * 2},
    )
    assert south and north
    answers = []
    with ExitStack() as stack:
        sockets = [listen(stack, server, match, [north]), listen(stack, server, match, [])]
        preset(server, match, south, 0, 0, lineup)
        for tokens in ([north], [], [south, north]):
            header = ",".join(tokens) or None
            for path in ("", "/position?at=1", "/position?at=0", "/record"):
                answers.append(json.dumps(server.get(f"/api/matches/{match}{path}", header)))
        body = {"seat": 1, "steps": []}
        answers.append(json.dumps(server.post(f"/api/matches/{match}/preview", body, north)))
        answers.append(json.dumps(server.get("/api/matches?game=cyvasse&limit=200")))
        view = preset(server, match, north, 1, 1, "classic")
        assert view["phase"] != "deployment"
        payloads = [frame for socket in sockets for frame in until_revealed(socket)] + answers
    return match, payloads, view["moves"][0]["turn"]


def test_a_hidden_deployment_leaves_no_trace_in_anything_sent(shared_server: Server) -> None:
    first, seen_first, south_first = seen_by_north_and_spectators(shared_server, "classic")
    second, seen_second, south_second = seen_by_north_and_spectators(shared_server, "fortress")
    assert south_first != south_second
    # What North, spectators and the hot-seat page got cannot tell the two lineups apart ...
    normalise = [
        [payload.replace(first, "ID").replace(second, "ID") for payload in seen]
        for seen in (seen_first, seen_second)
    ]
    # (the lobby listing, last, differs: the second run also lists the first match)
    assert normalise[0][:-1] == normalise[1][:-1]
    # ... and holds none of South's placements, nor the record of them.
    for seen, turn in ((seen_first, south_first), (seen_second, south_second)):
        blob = "\n".join(seen)
        assert turn not in blob
        # A placement such as K@c1, not the prefix of North's legal K@c10.
        leaked = [d for d in turn.split("+") if re.search(rf"{re.escape(d)}(?!\d)", blob)]
        assert not leaked
        assert '"(hidden)"' in blob and "the record is available once nothing is hidden" in blob


def test_south_sees_its_deployment_and_everyone_sees_all_afterwards(shared_server: Server) -> None:
    match, (south, north) = create(
        shared_server, {"game": "cyvasse", "seats": [{"kind": "human"}, {"kind": "invite"}]}
    )
    view = preset(shared_server, match, south, 0, 0, "classic")
    own = view["moves"][0]["turn"]
    assert own != "(hidden)" and own.count("@") == 19
    assert shared_server.get(f"/api/matches/{match}/record", south)[0] == 200
    preset(shared_server, match, north, 1, 1, "vanguard")
    for token in (north, None):
        view = shared_server.get(f"/api/matches/{match}", token)[1]
        assert view["moves"][0]["turn"] == own
        assert shared_server.get(f"/api/matches/{match}/record", token)[0] == 200


def test_a_bot_deployment_is_hidden_too(shared_server: Server) -> None:
    seats = [{"kind": "bot", "bot": "level:easy"}, {"kind": "human"}]
    match, (_, north) = create(shared_server, {"game": "cyvasse", "seats": seats})
    view = wait_for_ply(shared_server, match, 1, north)
    assert view["moves"] == [{"n": 1, "seat": 0, "turn": "(hidden)"}]
    hidden = json.dumps(view) + json.dumps(shared_server.get(f"/api/matches/{match}")[1])
    preset(shared_server, match, north, 1, 1, "classic")
    turn = shared_server.get(f"/api/matches/{match}", north)[1]["moves"][0]["turn"]
    assert turn.count("@") == 19
    assert not [d for d in turn.split("+") if re.search(rf"{re.escape(d)}(?!\d)", hidden)]
