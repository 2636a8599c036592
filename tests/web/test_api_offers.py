"""Draw offers and takeback requests between two humans, against a real server: what is
accepted, and every refusal with its status and an unchanged match."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Server
from tests.web.test_api import create, replayed, turn

HUMANS = {"game": "murus-gallicus", "seats": [{"kind": "human"}, {"kind": "invite"}]}
AGAINST_A_BOT = {
    "game": "murus-gallicus",
    "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
}


def post(server: Server, match: str, path: str, token: str | None, **body: Any) -> Any:
    return server.post(f"/api/matches/{match}/{path}", body, token)


def seen(server: Server, match: str, tokens: list[str | None]) -> list[Any]:
    """What each of ``tokens`` (and a spectator) sees of the match now, minus the server's
    time of answering."""
    views = []
    for token in [*tokens, None]:
        status, view = server.get(f"/api/matches/{match}", token)
        assert status == 200
        view.pop("now", None)
        views.append(view)
    return views


def started(server: Server, body: dict[str, Any] = HUMANS) -> tuple[str, str, str]:
    match, (romans, gauls) = create(server, body)
    assert romans and gauls
    return match, romans, gauls


def test_a_draw_offer_accepted_ends_the_game_as_an_agreed_draw(
    shared_server: Server, tmp_path: Path
) -> None:
    match, romans, gauls = started(shared_server)
    assert turn(shared_server, match, romans, 0, 0, "d1-d3")[0] == 200
    # An offer may be made on the other side's turn too.
    status, view = post(shared_server, match, "offer", romans, seat=0, kind="draw")
    assert status == 200 and view["offer"] == {"kind": "draw", "seat": 0}
    for token in (gauls, None):
        assert shared_server.get(f"/api/matches/{match}", token)[1]["offer"] == view["offer"]
    status, view = post(shared_server, match, "accept", gauls, seat=1, kind="draw", ply=1)
    assert status == 200 and view["status"] == "finished" and view["offer"] is None
    assert view["result"]["termination"] == "agreement"
    assert view["result"]["results"] == ["draw", "draw"]
    record = shared_server.get(f"/api/matches/{match}/record", romans)[1]
    assert "Result: Romans=draw Gauls=draw\nTermination: agreement\n" in record
    replayed(record, tmp_path)


def test_a_declined_offer_is_gone_and_not_made_again_before_a_move(shared_server: Server) -> None:
    match, romans, gauls = started(shared_server)
    assert shared_server.get(f"/api/matches/{match}", gauls)[1]["may_offer"] == ["draw"]
    assert post(shared_server, match, "offer", gauls, seat=1, kind="draw")[0] == 200
    status, view = post(shared_server, match, "decline", romans, seat=0, kind="draw", ply=0)
    assert status == 200 and view["offer"] is None and view["status"] == "active"
    before = seen(shared_server, match, [romans, gauls])
    # The view says what may be offered: the Gauls not the draw again, the Romans still can;
    # a spectator nothing.
    assert [view["may_offer"] for view in before] == [["draw"], [], []]
    status, answer = post(shared_server, match, "offer", gauls, seat=1, kind="draw")
    assert status == 409 and "declined" in answer["error"]
    assert seen(shared_server, match, [romans, gauls]) == before
    assert turn(shared_server, match, romans, 0, 0, "d1-d3")[0] == 200
    assert shared_server.get(f"/api/matches/{match}", gauls)[1]["may_offer"] == ["draw"]
    assert post(shared_server, match, "offer", gauls, seat=1, kind="draw")[0] == 200


def test_an_offer_ends_when_a_move_is_made(shared_server: Server) -> None:
    match, romans, gauls = started(shared_server)
    assert post(shared_server, match, "offer", gauls, seat=1, kind="draw")[0] == 200
    status, view = turn(shared_server, match, romans, 0, 0, "d1-d3")
    assert status == 200 and view["offer"] is None
    status, answer = post(shared_server, match, "accept", romans, seat=0, kind="draw", ply=1)
    assert status == 409 and answer["error"] == "there is no draw offer to answer"
    assert shared_server.get(f"/api/matches/{match}")[1]["status"] == "active"


def test_a_takeback_accepted_undoes_exactly_the_askers_last_turn(shared_server: Server) -> None:
    match, romans, gauls = started(shared_server)
    for ply, (token, seat, text) in enumerate(
        [(romans, 0, "d1-d3"), (gauls, 1, "a7-a5"), (romans, 0, "c1-c3")]
    ):
        assert turn(shared_server, match, token, seat, ply, text)[0] == 200
    status, view = post(shared_server, match, "offer", romans, seat=0, kind="takeback")
    assert status == 200 and view["offer"] == {"kind": "takeback", "seat": 0}
    status, view = post(shared_server, match, "accept", gauls, seat=1, kind="takeback", ply=3)
    assert status == 200 and view["ply"] == 2 and view["to_move"] == 0
    assert [move["turn"] for move in view["moves"]] == ["d1-d3", "a7-a5"]
    assert view["offer"] is None and view["status"] == "active"


def test_a_takeback_declined_keeps_the_move(shared_server: Server) -> None:
    match, romans, gauls = started(shared_server)
    assert turn(shared_server, match, romans, 0, 0, "d1-d3")[0] == 200
    assert post(shared_server, match, "offer", romans, seat=0, kind="takeback")[0] == 200
    status, view = post(shared_server, match, "decline", gauls, seat=1, kind="takeback", ply=1)
    assert status == 200 and view["ply"] == 1 and view["moves"][0]["turn"] == "d1-d3"
    assert view["offer"] is None and view["to_move"] == 1


REFUSALS = [
    # (setup, path, who asks, body, status, words in the error)
    ("none", "offer", None, {"seat": 0, "kind": "draw"}, 403, "you do not hold the seat"),
    ("none", "offer", "romans", {"seat": 0, "kind": "peace"}, 400, "'kind' must be"),
    ("none", "offer", "romans", {"seat": 1, "kind": "draw"}, 403, "you do not hold the seat"),
    ("none", "offer", "both", {"seat": 0, "kind": "draw"}, 409, "you hold both seats"),
    ("none", "offer", "romans", {"seat": 0, "kind": "takeback"}, 409, "no turn to take back"),
    ("none", "accept", "gauls", {"seat": 1, "kind": "draw", "ply": 0}, 409, "no draw offer"),
    ("none", "decline", "gauls", {"seat": 1, "kind": "draw", "ply": 0}, 409, "no draw offer"),
    ("draw", "accept", "romans", {"seat": 0, "kind": "draw", "ply": 1}, 409, "your own offer"),
    ("draw", "accept", "both", {"seat": 1, "kind": "draw", "ply": 1}, 409, "your own offer"),
    ("draw", "decline", "romans", {"seat": 0, "kind": "draw", "ply": 1}, 409, "your own offer"),
    ("draw", "offer", "romans", {"seat": 0, "kind": "draw"}, 409, "already waiting"),
    ("draw", "offer", "gauls", {"seat": 1, "kind": "takeback"}, 409, "already waiting"),
    ("draw", "accept", "gauls", {"seat": 1, "kind": "takeback", "ply": 1}, 409, "no takeback"),
    ("draw", "accept", "gauls", {"seat": 1, "kind": "draw", "ply": 0}, 409, "position has changed"),
    ("draw", "accept", "gauls", {"seat": 1, "kind": "draw"}, 400, "'ply' must be"),
    ("draw", "accept", None, {"seat": 1, "kind": "draw", "ply": 1}, 403, "you do not hold"),
    ("moved", "offer", "romans", {"seat": 0, "kind": "takeback"}, 409, "has moved since"),
    ("resigned", "offer", "romans", {"seat": 0, "kind": "draw"}, 409, "the game is over"),
    ("resigned", "accept", "romans", {"seat": 0, "kind": "draw", "ply": 1}, 409, "game is over"),
]


@pytest.mark.parametrize(("setup", "path", "who", "body", "status", "words"), REFUSALS)
def test_a_refused_offer_or_answer_changes_nothing(
    shared_server: Server,
    setup: str,
    path: str,
    who: str | None,
    body: dict[str, Any],
    status: int,
    words: str,
) -> None:
    match, romans, gauls = started(shared_server)
    tokens = {"romans": romans, "gauls": gauls, "both": f"{romans},{gauls}", None: None}
    if setup != "none":
        assert turn(shared_server, match, romans, 0, 0, "d1-d3")[0] == 200
    if setup == "draw":
        assert post(shared_server, match, "offer", romans, seat=0, kind="draw")[0] == 200
    if setup == "moved":
        assert turn(shared_server, match, gauls, 1, 1, "a7-a5")[0] == 200
    if setup == "resigned":
        assert post(shared_server, match, "resign", gauls, seat=1)[0] == 200
    before = seen(shared_server, match, [romans, gauls])
    answer_status, answer = post(shared_server, match, path, tokens[who], **body)
    assert answer_status == status and words in answer["error"], answer
    assert seen(shared_server, match, [romans, gauls]) == before


def test_no_offer_is_made_against_a_bot_or_among_three_seats(shared_server: Server) -> None:
    match, (romans, _) = create(shared_server, AGAINST_A_BOT)
    for kind in ("draw", "takeback"):
        status, answer = post(shared_server, match, "offer", romans, seat=0, kind=kind)
        assert status == 409 and "only between two human players" in answer["error"]
    colosseum = {
        "game": "colosseum-offcuts",
        "seats": [{"kind": "human"}, {"kind": "invite"}, {"kind": "invite"}],
    }
    match, (first, _, _) = create(shared_server, colosseum)
    status, answer = post(shared_server, match, "offer", first, seat=0, kind="draw")
    assert status == 409 and "only between two human players" in answer["error"]
