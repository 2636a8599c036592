"""The JSON API against a real server: refusals change nothing, turns commit, views stay private."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from tests.web.conftest import Server

MURUS_HOT_SEAT = {
    "game": "murus-gallicus",
    "seats": [{"kind": "human"}, {"kind": "invite"}],
}


def create(server: Server, body: dict[str, Any]) -> tuple[str, list[str | None]]:
    """Create a match; returns its id and each seat's token (None for bots)."""
    status, answer = server.post("/api/matches", body)
    assert status == 201, answer
    return answer["id"], [seat.get("token") for seat in answer["seats"]]


def turn(server: Server, match: str, token: str | None, seat: int, ply: int, text: str) -> Any:
    return server.post(
        f"/api/matches/{match}/turn", {"seat": seat, "ply": ply, "turn": text}, token
    )


def replayed(record: str, folder: Path) -> str:
    """What ``boardlab replay`` prints for ``record``, which it must accept."""
    path = folder / "game.txt"
    path.write_text(record, encoding="utf-8")
    replay = subprocess.run(
        [sys.executable, "-m", "boardlab", "replay", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert replay.returncode == 0, replay.stderr
    return replay.stdout


def wait_for_ply(server: Server, match: str, ply: int, token: str | None = None) -> Any:
    """Poll the view until ``ply`` turns are played (a bot is answering)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        status, view = server.get(f"/api/matches/{match}", token)
        assert status == 200
        if view["ply"] >= ply:
            return view
        time.sleep(0.05)
    raise AssertionError(f"the match did not reach ply {ply}")


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "chess", "seats": []}, "'game' must be one of"),
        ({"game": "murus-gallicus", "seats": [{"kind": "human"}]}, "must list 2 seats"),
        (
            {"game": "murus-gallicus", "seats": [{"kind": "human"}, {"kind": "robot"}]},
            "human, invite or bot",
        ),
        (
            {"game": "murus-gallicus", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "x"}]},
            "must be one of",
        ),
        ({**MURUS_HOT_SEAT, "options": {"board": "9x9"}}, "option board: bad value"),
        ({**MURUS_HOT_SEAT, "options": {"colour": "red"}}, "unknown option"),
        ({**MURUS_HOT_SEAT, "options": ["board"]}, "'options' must be an object"),
    ],
)
def test_bad_create_requests_are_refused_with_a_reason(
    shared_server: Server, body: dict[str, Any], words: str
) -> None:
    status, answer = shared_server.post("/api/matches", body)
    assert status == 400
    assert words in answer["error"]


def test_refused_decisions_change_nothing(shared_server: Server) -> None:
    match, (romans, gauls) = create(shared_server, MURUS_HOT_SEAT)
    stranger = "A" * 43
    refusals = [
        (turn(shared_server, match, gauls, 1, 0, "a7-a5"), 409, "not Gauls's turn"),
        (turn(shared_server, match, romans, 1, 0, "a7-a5"), 403, "do not hold"),
        (turn(shared_server, match, stranger, 0, 0, "d1-d3"), 403, "do not hold"),
        (turn(shared_server, match, None, 0, 0, "d1-d3"), 403, "do not hold"),
        (turn(shared_server, match, romans, 0, 0, "d1-d4"), 422, "illegal move"),
        (turn(shared_server, match, romans, 0, 0, "d1d3"), 422, "malformed move"),
        (turn(shared_server, match, romans, 0, 5, "d1-d3"), 409, "position has changed"),
        (turn(shared_server, match, romans, 2, 0, "d1-d3"), 400, "'seat' must be"),
        (turn(shared_server, match, romans, 0, 0, "d1-d3+a7-a5"), 422, "the turn ends"),
        (turn(shared_server, match, "bad token!", 0, 0, "d1-d3"), 400, "malformed"),
    ]
    for (status, answer), expected, words in refusals:
        assert status == expected, answer
        assert list(answer) == ["error"] and words in answer["error"], answer
    status, view = shared_server.get(f"/api/matches/{match}", romans)
    assert (status, view["ply"], view["moves"]) == (200, 0, [])

    status, view = turn(shared_server, match, romans, 0, 0, "d1-d3")
    assert status == 200 and view["moves"] == [{"n": 1, "seat": 0, "turn": "d1-d3"}]
    assert view["to_move"] == 1 and view["legal"] == []


def test_oversized_and_malformed_bodies_are_refused(shared_server: Server) -> None:
    match, (romans, _) = create(shared_server, MURUS_HOT_SEAT)
    huge = {"seat": 0, "ply": 0, "turn": "d1-d3", "pad": "x" * 70_000}
    status, answer = turn(shared_server, match, romans, 0, 0, "d1-d3" + "+d1-d3" * 1000)
    assert status == 400 and "at most 4096" in answer["error"]
    status, answer = shared_server.post(f"/api/matches/{match}/turn", huge, romans)
    assert status == 413 and "larger than" in answer["error"]
    status, answer = shared_server.request("POST", f"/api/matches/{match}/turn", [1, 2], romans)
    assert status == 400 and "JSON object" in answer["error"]
    status, answer = shared_server.get("/api/matches/" + "x" * 16)
    assert status == 404 and answer == {"error": "there is no match with this id"}
    status, answer = shared_server.get("/api/matches/../../etc/passwd")
    assert status == 404
    assert shared_server.get(f"/api/matches/{match}")[1]["ply"] == 0


def test_a_spectator_sees_the_game_but_holds_no_seat(shared_server: Server) -> None:
    match, (romans, _) = create(shared_server, MURUS_HOT_SEAT)
    turn(shared_server, match, romans, 0, 0, "d1-d3")
    status, view = shared_server.get(f"/api/matches/{match}")
    assert status == 200
    assert view["you"] == [] and view["legal"] == [] and view["moves"][0]["turn"] == "d1-d3"
    assert all(not player["held"] for player in view["players"])
    assert "<svg" in view["svg"]


def test_websocket_clients_each_get_the_new_view(shared_server: Server) -> None:
    match, (romans, gauls) = create(shared_server, MURUS_HOT_SEAT)
    base = shared_server.url.replace("http://", "ws://") + f"ws/matches/{match}"
    with connect(base) as romans_ws, connect(base) as gauls_ws, connect(base) as watcher:
        for socket, tokens in ((romans_ws, [romans]), (gauls_ws, [gauls]), (watcher, [])):
            socket.send(json.dumps({"tokens": tokens}))
            first = json.loads(socket.recv(timeout=30))
            assert first["type"] == "view" and first["view"]["ply"] == 0
        turn(shared_server, match, romans, 0, 0, "d1-d3")
        views = [json.loads(s.recv(timeout=30))["view"] for s in (romans_ws, gauls_ws, watcher)]
    assert [v["moves"] for v in views] == [[{"n": 1, "seat": 0, "turn": "d1-d3"}]] * 3
    assert [v["you"] for v in views] == [[0], [1], []]
    assert [bool(v["legal"]) for v in views] == [False, True, False]


def test_websocket_refuses_oversized_and_unknown(shared_server: Server) -> None:
    base = shared_server.url.replace("http://", "ws://") + "ws/matches/"
    with connect(base + "y" * 16) as socket:
        socket.send(json.dumps({"tokens": []}))
        answer = json.loads(socket.recv(timeout=30))
    assert answer["type"] == "error" and answer["status"] == 404
    match, _ = create(shared_server, MURUS_HOT_SEAT)
    with connect(base + match) as socket:
        socket.send(json.dumps({"tokens": []}))
        socket.recv(timeout=30)
        socket.send("x" * 5000)
        with pytest.raises(Exception, match="1009"):
            socket.recv(timeout=30)


def test_a_bot_answers_and_a_takeback_undoes_both_turns(shared_server: Server) -> None:
    body = {
        "game": "murus-gallicus",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
    }
    match, (romans, _) = create(shared_server, body)
    turn(shared_server, match, romans, 0, 0, "d1-d3")
    view = wait_for_ply(shared_server, match, 2, romans)
    assert view["moves"][1]["seat"] == 1 and view["to_move"] == 0 and not view["thinking"]
    status, view = shared_server.post(f"/api/matches/{match}/takeback", {"seat": 0}, romans)
    assert status == 200 and view["ply"] == 0 and view["moves"] == []

    hot_seat, (first, _) = create(shared_server, MURUS_HOT_SEAT)
    turn(shared_server, hot_seat, first, 0, 0, "d1-d3")
    status, answer = shared_server.post(f"/api/matches/{hot_seat}/takeback", {"seat": 0}, first)
    assert status == 409 and "only allowed against a bot" in answer["error"]


def test_resign_ends_the_game_and_a_rematch_rotates_the_seats(shared_server: Server) -> None:
    match, (romans, gauls) = create(shared_server, MURUS_HOT_SEAT)
    status, view = shared_server.post(f"/api/matches/{match}/resign", {"seat": 1}, gauls)
    assert status == 200 and view["status"] == "finished"
    assert view["result"]["termination"] == "resignation"
    assert view["result"]["results"] == ["win", "loss"]
    status, answer = turn(shared_server, match, romans, 0, 0, "d1-d3")
    assert status == 409 and answer["error"] == "the game is over"

    status, answer = shared_server.post(f"/api/matches/{match}/rematch", {}, romans)
    assert status == 201
    rematch = answer["id"]
    assert [seat.get("token") for seat in answer["seats"]] == [None, romans]
    status, again = shared_server.post(f"/api/matches/{match}/rematch", {}, gauls)
    assert status == 200 and again["id"] == rematch
    assert [seat.get("token") for seat in again["seats"]] == [gauls, None]
    assert shared_server.get(f"/api/matches/{match}")[1]["rematch"] == rematch
    assert shared_server.get(f"/api/matches/{rematch}", gauls)[1]["you"] == [0]
    status, answer = shared_server.post(f"/api/matches/{rematch}/rematch", {}, None)
    assert status == 403


def test_a_finished_match_reads_the_same_after_its_last_follower_leaves(
    shared_server: Server,
) -> None:
    """The server drops a finished match nobody follows from memory; it reloads it as stored."""
    match, (romans, gauls) = create(shared_server, MURUS_HOT_SEAT)
    turn(shared_server, match, romans, 0, 0, "d1-d3")
    base = shared_server.url.replace("http://", "ws://") + f"ws/matches/{match}"
    with connect(base) as socket:
        socket.send(json.dumps({"tokens": [gauls]}))
        json.loads(socket.recv(timeout=30))
        status, finished = shared_server.post(f"/api/matches/{match}/resign", {"seat": 1}, gauls)
        assert status == 200 and json.loads(socket.recv(timeout=30))["view"] == finished
    time.sleep(0.2)
    assert shared_server.get(f"/api/matches/{match}", gauls) == (200, finished)
    assert shared_server.post(f"/api/matches/{match}/rematch", {}, romans)[0] == 201
    assert shared_server.get(f"/api/matches/{match}", gauls)[1]["rematch"] is not None


def test_positions_of_the_move_list(shared_server: Server) -> None:
    match, (romans, gauls) = create(shared_server, MURUS_HOT_SEAT)
    turn(shared_server, match, romans, 0, 0, "d1-d3")
    turn(shared_server, match, gauls, 1, 1, "a7-a5")
    pictures = [shared_server.get(f"/api/matches/{match}/position?at={n}")[1] for n in range(3)]
    assert [p["at"] for p in pictures] == [0, 1, 2]
    assert len({p["svg"] for p in pictures}) == 3
    assert shared_server.get(f"/api/matches/{match}/position?at=3")[0] == 400


def test_list_filters_matches(shared_server: Server) -> None:
    match, (_, gauls) = create(shared_server, MURUS_HOT_SEAT)
    shared_server.post(f"/api/matches/{match}/resign", {"seat": 1}, gauls)
    status, answer = shared_server.get("/api/matches?game=murus-gallicus&status=finished")
    assert status == 200
    listed = {entry["id"]: entry for entry in answer["matches"]}
    assert listed[match]["status"] == "finished" and "won" in listed[match]["result"]
    assert all(entry["status"] == "finished" for entry in answer["matches"])
    active = shared_server.get("/api/matches?status=active")[1]["matches"]
    assert match not in {entry["id"] for entry in active}
    assert shared_server.get("/api/matches?status=paused")[0] == 400
    assert shared_server.get("/api/matches?limit=100000")[0] == 400


def test_the_record_download_replays_with_the_cli(shared_server: Server, tmp_path: Path) -> None:
    match, tokens = create(shared_server, MURUS_HOT_SEAT)
    ply = 0
    while True:
        status, view = shared_server.get(f"/api/matches/{match}", tokens[0])
        if view["status"] == "finished":
            break
        seat = view["to_move"]
        status, view = shared_server.get(f"/api/matches/{match}", tokens[seat])
        # Always the first legal move: a short, deterministic game.
        status, view = turn(shared_server, match, tokens[seat], seat, ply, view["legal"][0]["text"])
        assert status == 200, view
        ply += 1
    status, text = shared_server.get(f"/api/matches/{match}/record")
    assert status == 200 and text.startswith("# Boardlab game record")
    assert view["result"]["text"].split(" (")[0] in replayed(text, tmp_path)


def test_concurrent_turns_on_one_match_are_serialised(shared_server: Server) -> None:
    match, (romans, _) = create(shared_server, MURUS_HOT_SEAT)
    moves = ["a1-a3", "b1-b3", "c1-c3", "d1-d3", "e1-e3", "f1-f3"]
    with ThreadPoolExecutor(len(moves)) as pool:
        answers = list(pool.map(lambda m: turn(shared_server, match, romans, 0, 0, m), moves))
    statuses = sorted(status for status, _ in answers)
    assert statuses == [200] + [409] * (len(moves) - 1)
    view = shared_server.get(f"/api/matches/{match}")[1]
    winner = next(answer for status, answer in answers if status == 200)
    assert view["ply"] == 1 and view["moves"] == winner["moves"]


def test_the_server_answers_while_a_bot_thinks(shared_server: Server) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "level:expert"}]
    match, (romans, _) = create(shared_server, {"game": "murus-gallicus", "seats": seats})
    status, view = turn(shared_server, match, romans, 0, 0, "d1-d3")
    assert status == 200 and view["thinking"]
    # Another match is played while the search runs in a worker process.
    other, (first, second) = create(shared_server, MURUS_HOT_SEAT)
    assert turn(shared_server, other, first, 0, 0, "d1-d3")[0] == 200
    assert turn(shared_server, other, second, 1, 1, "a7-a5")[0] == 200
    # Resigning voids the search; the match is over, with no bot turn added after it.
    status, view = shared_server.post(f"/api/matches/{match}/resign", {"seat": 0}, romans)
    assert status == 200 and view["status"] == "finished"
    time.sleep(0.5)
    assert shared_server.get(f"/api/matches/{match}")[1]["ply"] == view["ply"]


def test_with_three_seats_a_resigning_seat_leaves_and_the_others_play_on(
    shared_server: Server, tmp_path: Path
) -> None:
    seats = [{"kind": "human"}, {"kind": "invite"}, {"kind": "invite"}]
    body = {"game": "colosseum-offcuts", "options": {"players": 3}, "seats": seats}
    match, tokens = create(shared_server, body)
    view = shared_server.get(f"/api/matches/{match}")[1]
    while view["phase"] == "setup":
        seat = view["to_move"]
        legal = shared_server.get(f"/api/matches/{match}", tokens[seat])[1]["legal"]
        status, view = turn(shared_server, match, tokens[seat], seat, view["ply"], legal[0]["text"])
        assert status == 200, view
    seat = view["to_move"]
    other = (seat + 1) % 3
    status, answer = shared_server.post(
        f"/api/matches/{match}/resign", {"seat": other}, tokens[other]
    )
    assert status == 409 and "your own turn" in answer["error"]
    status, view = shared_server.post(f"/api/matches/{match}/resign", {"seat": seat}, tokens[seat])
    assert status == 200, view
    assert view["status"] == "active" and view["to_move"] not in (seat, None)
    assert view["moves"][-1]["turn"] == "resign"
    status, text = shared_server.get(f"/api/matches/{match}/record")
    assert status == 200 and f"P{seat + 1}: resign" in text
    replayed(text, tmp_path)
