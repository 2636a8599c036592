"""A match's chat and its abort (issue 41, item 6), against a real server on 127.0.0.1: who
reads which channel over websockets and GETs, a claimed invite link reading nothing more, the
spectators' chat turned off, lines cleaned and limited, cross-site posts refused, lines kept
over a restart and never in the record; abort before every side has moved (also against a
bot), refused after, in the lobby line and in the record ``boardlab replay`` reads."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from tests.web.account_client import Browser as AccountBrowser
from tests.web.account_client import sign_up
from tests.web.conftest import UNLIMITED, Server, start_server
from tests.web.test_api import MURUS_HOT_SEAT, create, replayed, turn, wait_for_ply
from tests.web.test_cross_site import EVIL, send

AGAINST_A_BOT_FIRST = {
    "game": "murus-gallicus",
    "seats": [{"kind": "bot", "bot": "random"}, {"kind": "human"}],
}


def say(server: Server, match: str, token: str | None, channel: str, text: str) -> Any:
    return server.post(f"/api/matches/{match}/chat", {"channel": channel, "text": text}, token)


def chat_of(server: Server, match: str, token: str | None) -> Any:
    status, answer = server.get(f"/api/matches/{match}/chat", token)
    assert status == 200, answer
    return answer


@contextlib.contextmanager
def joined(server: Server, match: str, tokens: list[str]) -> Iterator[ClientConnection]:
    """A websocket following the match with ``tokens``, past its first view."""
    url = server.url.replace("http://", "ws://") + f"ws/matches/{match}"
    with connect(url, open_timeout=30) as socket:
        socket.send(json.dumps({"tokens": tokens}))
        assert json.loads(socket.recv(timeout=30))["type"] == "view"
        yield socket


def next_chat(socket: ClientConnection) -> Any:
    """The next chat message the socket receives (views in between are skipped)."""
    while True:
        message = json.loads(socket.recv(timeout=30))
        if message["type"] == "chat":
            return message


def test_the_players_chat_reaches_the_players_only_and_the_spectators_chat_everyone(
    shared_server: Server,
) -> None:
    match, (romans, gauls) = create(shared_server, MURUS_HOT_SEAT)
    assert romans and gauls
    with (
        joined(shared_server, match, [romans]) as romans_ws,
        joined(shared_server, match, [gauls]) as gauls_ws,
        joined(shared_server, match, []) as watcher,
    ):
        status, answer = say(shared_server, match, romans, "players", "good luck")
        assert status == 201, answer
        line = answer["line"]
        assert (line["channel"], line["seat"], line["name"], line["text"]) == (
            "players",
            0,
            "Romans",
            "good luck",
        )
        for socket in (romans_ws, gauls_ws):
            assert next_chat(socket)["lines"] == [line]
        status, answer = say(shared_server, match, None, "spectators", "nice opening")
        assert status == 201 and answer["line"]["name"] == "Spectator"
        assert answer["line"]["seat"] is None
        # The watcher's first chat message is the spectators' line: the players' never came.
        assert next_chat(watcher)["lines"] == [answer["line"]]
        for socket in (romans_ws, gauls_ws):
            assert next_chat(socket)["lines"] == [answer["line"]]
    assert say(shared_server, match, None, "players", "let me in")[0] == 403
    spectator = chat_of(shared_server, match, None)
    assert [x["text"] for x in spectator["lines"]] == ["nice opening"]
    assert spectator["spectators"] is True
    assert [x["text"] for x in chat_of(shared_server, match, gauls)["lines"]] == [
        "good luck",
        "nice opening",
    ]


def test_a_claimed_invite_token_reads_the_players_chat_no_more(shared_server: Server) -> None:
    match, (romans, link_token) = create(shared_server, MURUS_HOT_SEAT)
    assert romans and link_token
    say(shared_server, match, romans, "players", "secret plan")
    with joined(shared_server, match, [link_token]) as stale:
        status, claimed = shared_server.post(
            f"/api/matches/{match}/claim", {"seat": 1, "token": link_token}
        )
        assert status == 200
        assert say(shared_server, match, romans, "players", "after the claim")[0] == 201
        say(shared_server, match, None, "spectators", "hello all")
        # The socket that named the link's token is a spectator from the claim on.
        assert [x["text"] for x in next_chat(stale)["lines"]] == ["hello all"]
    assert "secret plan" not in json.dumps(chat_of(shared_server, match, link_token))
    assert say(shared_server, match, link_token, "players", "me too")[0] == 403
    assert say(shared_server, match, claimed["token"], "players", "hi")[0] == 201
    view = shared_server.get(f"/api/matches/{match}", romans)[1]
    assert [p["claimed"] for p in view["players"]] == [False, True]


def test_a_player_turns_the_spectators_chat_off_and_on(shared_server: Server) -> None:
    match, (romans, _) = create(shared_server, MURUS_HOT_SEAT)
    say(shared_server, match, None, "spectators", "before")
    path = f"/api/matches/{match}/chat/spectators"
    assert shared_server.post(path, {"open": False})[0] == 403
    assert shared_server.post(path, {"open": "no"}, romans)[0] == 400
    assert shared_server.post(path, {"open": False}, romans) == (200, {"spectators": False})
    status, answer = say(shared_server, match, None, "spectators", "hello?")
    assert status == 409 and "turned the spectators' chat off" in answer["error"]
    assert chat_of(shared_server, match, None) == {"lines": [], "spectators": False}
    assert shared_server.post(path, {"open": True}, romans)[0] == 200
    assert [x["text"] for x in chat_of(shared_server, match, None)["lines"]] == ["before"]


def test_lines_are_cleaned_limited_and_kept_out_of_the_record(
    shared_server: Server, tmp_path: Path
) -> None:
    match, (romans, gauls) = create(shared_server, MURUS_HOT_SEAT)
    markup = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    status, answer = say(shared_server, match, romans, "players", f"\x00\u202e{markup}\x1b\n")
    assert status == 201 and answer["line"]["text"] == markup
    assert say(shared_server, match, romans, "players", "x" * 300)[0] == 201
    status, answer = say(shared_server, match, romans, "players", "x" * 301)
    assert status == 400 and "at most 300 characters" in answer["error"]
    assert say(shared_server, match, romans, "players", "\x07 \t")[0] == 400
    assert say(shared_server, match, romans, "shouting", "hi")[0] == 400
    assert say(shared_server, match, romans, "players", 7)[0] == 400  # type: ignore[arg-type]
    turn(shared_server, match, romans, 0, 0, "d1-d3")
    status, _ = shared_server.post(f"/api/matches/{match}/resign", {"seat": 1}, gauls)
    assert status == 200
    status, record = shared_server.get(f"/api/matches/{match}/record", romans)
    assert status == 200 and "script" not in record and "xxx" not in record
    assert "Result: Romans won (resignation)" in replayed(record, tmp_path)
    assert "script" not in json.dumps(shared_server.get(f"/api/matches/{match}", romans)[1])


def test_a_chat_line_from_another_site_is_refused(shared_server: Server) -> None:
    match, (romans, _) = create(shared_server, MURUS_HOT_SEAT)
    body = json.dumps({"channel": "players", "text": "from elsewhere"})
    auth = {"Authorization": f"Bearer {romans}"}
    path = f"/api/matches/{match}/chat"
    json_type = {"Content-Type": "application/json"}
    assert send(shared_server, "POST", path, body, {**auth, **json_type, "Origin": EVIL})[0] == 403
    assert send(shared_server, "POST", path, body, {**auth, "Content-Type": "text/plain"})[0] == 415
    assert chat_of(shared_server, match, romans)["lines"] == []


def test_abort_before_both_sides_moved_and_not_after(shared_server: Server, tmp_path: Path) -> None:
    match, (romans, gauls) = create(shared_server, MURUS_HOT_SEAT)
    assert shared_server.get(f"/api/matches/{match}", romans)[1]["may_abort"] is True
    assert shared_server.get(f"/api/matches/{match}")[1]["may_abort"] is False
    assert shared_server.post(f"/api/matches/{match}/abort", {"seat": 1})[0] == 403
    turn(shared_server, match, romans, 0, 0, "d1-d3")
    status, view = shared_server.post(f"/api/matches/{match}/abort", {"seat": 1}, gauls)
    assert status == 200, view
    assert view["status"] == "finished" and view["to_move"] is None
    assert view["result"] == {
        "text": "Aborted: no result",
        "termination": "aborted",
        "results": None,
        "scores": None,
    }
    assert turn(shared_server, match, gauls, 1, 1, "a7-a5")[0] == 409
    lobby = shared_server.get("/api/matches?game=murus-gallicus&limit=200")[1]["matches"]
    line = next(entry for entry in lobby if entry["id"] == match)
    assert (line["status"], line["result"]) == ("finished", "Aborted: no result")
    status, record = shared_server.get(f"/api/matches/{match}/record", romans)
    assert "Result: *\nTermination: aborted\n" in record
    assert "Result: aborted (no result)" in replayed(record, tmp_path)

    both, (first, second) = create(shared_server, MURUS_HOT_SEAT)
    turn(shared_server, both, first, 0, 0, "d1-d3")
    turn(shared_server, both, second, 1, 1, "a7-a5")
    assert shared_server.get(f"/api/matches/{both}", first)[1]["may_abort"] is False
    status, answer = shared_server.post(f"/api/matches/{both}/abort", {"seat": 0}, first)
    assert status == 409 and "can no longer be aborted" in answer["error"]
    assert shared_server.get(f"/api/matches/{both}", first)[1]["status"] == "active"


def test_abort_against_a_bot_until_the_human_has_moved(shared_server: Server) -> None:
    match, (_, human) = create(shared_server, AGAINST_A_BOT_FIRST)
    view = wait_for_ply(shared_server, match, 1, human)
    assert view["may_abort"] is True
    status, view = shared_server.post(f"/api/matches/{match}/abort", {"seat": 1}, human)
    assert status == 200 and view["result"]["termination"] == "aborted"

    later, (_, human) = create(shared_server, AGAINST_A_BOT_FIRST)
    view = wait_for_ply(shared_server, later, 1, human)
    legal = view["legal"][0]["text"]
    assert turn(shared_server, later, human, 1, 1, legal)[0] == 200
    status, answer = shared_server.post(f"/api/matches/{later}/abort", {"seat": 1}, human)
    assert status == 409 and "every side has made a decision" in answer["error"]


def test_chat_lines_are_rate_limited_and_survive_a_restart(tmp_path: Path) -> None:
    options = [
        *UNLIMITED,
        "--chat-burst",
        "3",
        "--chat-lines-per-minute",
        "6",
    ]
    db = tmp_path / "chat.sqlite3"
    server = start_server(db, options=options)
    try:
        match, (romans, _) = create(server, MURUS_HOT_SEAT)
        for number in range(3):
            assert say(server, match, romans, "players", f"line {number}")[0] == 201
        status, answer = say(server, match, romans, "players", "one too many")
        assert status == 429 and "too many chat lines" in answer["error"]
        # From another address the seat's own allowance is spent too; a spectator there is not.
        elsewhere = AccountBrowser(server, address="127.0.0.2")
        path = f"/api/matches/{match}/chat"
        status, answer = elsewhere.post(path, {"channel": "players", "text": "again"}, romans)
        assert status == 429 and "chat lines for this seat" in answer["error"]
        status, _ = elsewhere.post(path, {"channel": "spectators", "text": "hello"})
        assert status == 201
    finally:
        server.stop()
    again = start_server(db, port=server.port, options=options)
    try:
        lines = chat_of(again, match, romans)["lines"]
        assert [line["text"] for line in lines] == ["line 0", "line 1", "line 2", "hello"]
        assert [line["index"] for line in lines] == [0, 1, 2, 3]
    finally:
        again.stop()


def test_an_accounts_seat_reads_the_players_chat_and_another_account_does_not(
    shared_server: Server,
) -> None:
    ada, bob = AccountBrowser(shared_server), AccountBrowser(shared_server)
    name = sign_up(ada)
    sign_up(bob)
    status, created = ada.post("/api/matches", MURUS_HOT_SEAT)
    assert status == 201
    match = created["id"]
    # Ada's account holds her seat: no token needed, and her lines carry her name.
    status, answer = ada.post(f"/api/matches/{match}/chat", {"channel": "players", "text": "hi"})
    assert status == 201 and (answer["line"]["name"], answer["line"]["seat"]) == (name, 0)
    assert [line["text"] for line in ada.get(f"/api/matches/{match}/chat")[1]["lines"]] == ["hi"]
    assert bob.get(f"/api/matches/{match}/chat")[1]["lines"] == []
    status, _ = bob.post(f"/api/matches/{match}/chat", {"channel": "players", "text": "me?"})
    assert status == 403


def test_a_cyvasse_deployment_counts_as_a_decision_for_the_abort(shared_server: Server) -> None:
    body = {"game": "cyvasse", "seats": [{"kind": "human"}, {"kind": "human"}]}
    match, tokens = create(shared_server, body)
    for ply in range(2):
        view = shared_server.get(f"/api/matches/{match}", tokens[0])[1]
        assert view["may_abort"] is True
        seat = view["to_move"]
        deployed = {"seat": seat, "ply": ply, "preset": "classic"}
        status, _ = shared_server.post(f"/api/matches/{match}/turn", deployed, tokens[seat])
        assert status == 200
    status, answer = shared_server.post(f"/api/matches/{match}/abort", {"seat": 0}, tokens[0])
    assert status == 409 and "every side has made a decision" in answer["error"]
