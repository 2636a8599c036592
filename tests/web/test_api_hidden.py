"""Cyvasse's secret deployment never reaches the other seat or a spectator, in any answer."""

from __future__ import annotations

import json
import re
from contextlib import ExitStack
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.sync.client import ClientConnection, connect

from boardlab.games.cyvasse.board import HEX_NAMES, ZONES
from boardlab.games.cyvasse.game import Cyvasse
from boardlab.games.cyvasse.units import ITEM_LETTERS
from tests.web.conftest import Server
from tests.web.test_api import create, turn, wait_for_ply


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
    socket.recv(timeout=30)
    return socket


def frames_before(socket: ClientConnection, ply: int) -> list[str]:
    """Every frame the server sent before the view of ``ply`` turns (which it waits for: a
    frame sent late is read all the same)."""
    frames: list[str] = []
    while True:
        frame = str(socket.recv(timeout=30))
        message = json.loads(frame)
        if message["type"] == "view" and message["view"]["ply"] >= ply:
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
    with ExitStack() as stack:
        sockets = [listen(stack, server, match, [north]), listen(stack, server, match, [])]
        preset(server, match, south, 0, 0, lineup)
        payloads = []
        for tokens in ([north], [], [south, north]):
            header = ",".join(tokens) or None
            for path in ("", "/position?at=1", "/position?at=0", "/record"):
                payloads.append(json.dumps(server.get(f"/api/matches/{match}{path}", header)))
        body = {"seat": 1, "steps": []}
        payloads.append(json.dumps(server.post(f"/api/matches/{match}/preview", body, north)))
        payloads.append(json.dumps(server.get("/api/matches?game=cyvasse&limit=200")))
        view = preset(server, match, north, 1, 1, "classic")
        assert view["phase"] != "deployment"
        payloads[:0] = [frame for socket in sockets for frame in frames_before(socket, 2)]
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
    for seen, south_turn in ((seen_first, south_first), (seen_second, south_second)):
        blob = "\n".join(seen)
        assert south_turn not in blob
        # A placement such as K@c1, not the prefix of North's legal K@c10.
        leaked = [d for d in south_turn.split("+") if re.search(rf"{re.escape(d)}(?!\d)", blob)]
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


ORDER = [ITEM_LETTERS[item] for item in Cyvasse().order]
SOUTH_ZONE = [HEX_NAMES[h] for h in ZONES[0]]
NORTH_ZONE = [HEX_NAMES[h] for h in ZONES[1]]


def deployment(hexes: list[str]) -> list[str]:
    """The placements of the army's items, in order, on ``hexes``."""
    return [f"{item}@{where}" for item, where in zip(ORDER, hexes, strict=False)]


def seen_while_north_deploys(
    server: Server, south_lineup: list[str], north_hexes: list[str], steps: int, stray: str
) -> list[str]:
    """Everything North, a spectator and a hot-seat page receive once South deployed
    ``south_lineup`` and before North's deployment on ``north_hexes`` is committed: views,
    pictures, records, the lobby's line, previews of the first ``steps`` placements and of
    the whole deployment, refusals (North's placements followed by ``stray``), frames."""
    body: dict[str, Any] = {
        "game": "cyvasse",
        "options": {"seed": 7},
        "seats": [{"kind": "human"}] * 2,
    }
    match, (south, north) = create(server, body)
    assert south and north
    hot_seat = f"{south},{north}"
    north_turn = deployment(north_hexes)
    api = f"/api/matches/{match}"
    payloads: list[Any] = []
    with ExitStack() as stack:
        sockets = [listen(stack, server, match, tokens) for tokens in ([north], [], [south, north])]
        status, view = turn(server, match, south, 0, 0, "+".join(south_lineup))
        assert status == 200, view
        for token in (north, None, hot_seat):
            for path in ("", "/position?at=0", "/position?at=1", "/position?at=2", "/record"):
                payloads.append(server.get(api + path, token))
            for seat in (0, 1):
                for placed in (north_turn[:steps], north_turn, [*north_turn[:steps], stray]):
                    body = {"seat": seat, "steps": placed}
                    payloads.append(server.post(f"{api}/preview", body, token))
            # Refused turns: an unfinished deployment, a stray decision alone or after a step.
            unfinished = "+".join(north_turn[: min(steps, len(ORDER) - 1)]) or "K"
            for text in (unfinished, stray, f"{north_turn[0]}+{stray}"):
                payloads.append(turn(server, match, token, 1, 1, text))
            payloads.append(turn(server, match, token, 1, 0, "+".join(north_turn)))
        listing = server.get("/api/matches?game=cyvasse&limit=200")[1]["matches"]
        line = [m for m in listing if m["id"] == match]
        payloads.append(
            [{k: v for k, v in m.items() if k not in ("created", "updated")} for m in line]
        )
        status, view = turn(server, match, north, 1, 1, "+".join(north_turn))
        assert status == 200 and view["phase"] == "play", view
        frames = [frame for socket in sockets for frame in frames_before(socket, 2)]
    return [text.replace(match, "ID") for text in frames + [json.dumps(p) for p in payloads]]


STRAYS = ["K@a1", "zz", "a7-a8", "end", "K@e6", "M@k11"]


@settings(max_examples=8, deadline=None)
@given(
    lineups=st.lists(st.permutations(SOUTH_ZONE), min_size=2, max_size=2),
    north=st.permutations(NORTH_ZONE),
    steps=st.integers(0, len(ORDER)),
    stray=st.sampled_from(STRAYS),
)
def test_nothing_north_or_a_spectator_receives_depends_on_souths_secret_lineup(
    shared_server: Server, lineups: list[list[str]], north: list[str], steps: int, stray: str
) -> None:
    first, second = (deployment(hexes) for hexes in lineups)
    seen = [
        seen_while_north_deploys(shared_server, lineup, north, steps, stray)
        for lineup in (first, second)
    ]
    assert seen[0] == seen[1]
    # Each answer is compared whole above; a stray placement may name a hex South used.
    blob = "\n".join(seen[0])
    assert "(hidden)" in blob and "the record is available once nothing is hidden" in blob


def test_a_preview_of_the_whole_deployment_is_drawn_before_the_reveal(
    shared_server: Server,
) -> None:
    body: dict[str, Any] = {"game": "cyvasse", "seats": [{"kind": "human"}] * 2}
    match, (south, north) = create(shared_server, body)
    preset(shared_server, match, south, 0, 0, "classic")
    steps = deployment(NORTH_ZONE)
    status, preview = shared_server.post(
        f"/api/matches/{match}/preview", {"seat": 1, "steps": steps}, north
    )
    # Complete, but not played: no guessed army, no first mover, South's zone still hidden.
    assert status == 200 and preview["turn_complete"] and preview["legal"] == []
    assert preview["phase"] == "deployment" and "to move" not in preview["status_text"]
    view = shared_server.get(f"/api/matches/{match}", north)[1]
    hidden = 'class="cell kind-hidden owner-0"'
    assert preview["svg"].count(hidden) == view["svg"].count(hidden) == 40
