"""Compound turns through the API: previews step by step, whole turns committed, more seats."""

from __future__ import annotations

from tests.web.conftest import Server
from tests.web.test_api import create, turn, wait_for_ply


def test_an_anacund_turn_is_previewed_step_by_step_then_committed(shared_server: Server) -> None:
    body = {
        "game": "anacund",
        "options": {"layout": "l0"},
        "seats": [{"kind": "human"}, {"kind": "human"}],
    }
    match, (a, b) = create(shared_server, body)
    preview = f"/api/matches/{match}/preview"
    status, step0 = shared_server.post(preview, {"seat": 0, "steps": []}, a)
    assert status == 200 and not step0["turn_complete"]
    assert {"text": "6@19", "targets": ["A6", "19"], "button": ""} in step0["legal"]
    status, step1 = shared_server.post(preview, {"seat": 0, "steps": ["6@19"]}, a)
    assert status == 200 and "5@21" in {d["text"] for d in step1["legal"]}
    assert step1["svg"] != step0["svg"]
    status, step3 = shared_server.post(preview, {"seat": 0, "steps": ["6@19", "5@21", "4@18"]}, a)
    assert status == 200 and step3["turn_complete"] and step3["legal"] == []
    status, answer = shared_server.post(preview, {"seat": 0, "steps": ["6@19", "6@19"]}, a)
    assert status == 422 and "illegal" in answer["error"]
    status, answer = shared_server.post(preview, {"seat": 1, "steps": []}, b)
    assert status == 409

    # Nothing was committed by the previews; half a turn is refused.
    status, answer = turn(shared_server, match, a, 0, 0, "6@19+5@21")
    assert status == 422 and "not complete" in answer["error"]
    status, view = turn(shared_server, match, a, 0, 0, "6@19+5@21+4@18")
    assert status == 200 and view["moves"] == [{"n": 1, "seat": 0, "turn": "6@19+5@21+4@18"}]
    assert view["scores"] is not None and len(view["scores"]) == 2


def test_colosseum_offcuts_with_three_seats_one_a_bot(shared_server: Server) -> None:
    seats = [{"kind": "human"}, {"kind": "invite"}, {"kind": "bot", "bot": "random"}]
    match, (p1, p2, _) = create(shared_server, {"game": "colosseum-offcuts", "seats": seats})
    view = shared_server.get(f"/api/matches/{match}", p1)[1]
    assert [player["name"] for player in view["players"]] == ["P1", "P2", "P3"]
    assert view["options"]["players"] == "3"
    assert turn(shared_server, match, p1, 0, 0, view["legal"][0]["text"])[0] == 200
    view = shared_server.get(f"/api/matches/{match}", p2)[1]
    assert turn(shared_server, match, p2, 1, 1, view["legal"][0]["text"])[0] == 200
    view = wait_for_ply(shared_server, match, 3, p1)
    assert [move["seat"] for move in view["moves"]] == [0, 1, 2] and view["to_move"] == 0
    status, answer = shared_server.post(f"/api/matches/{match}/takeback", {"seat": 0}, p1)
    assert status == 409 and "only allowed against a bot" in answer["error"]
