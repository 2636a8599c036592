"""Takebacks against a real server: what is refused leaves the match as it was, and an accepted
one undoes the taker's own last turn (and what followed it), never another one."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Server
from tests.web.test_api import MURUS_HOT_SEAT, create, turn, wait_for_ply

AGAINST_A_BOT = {
    "game": "murus-gallicus",
    "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
}
BOT_FIRST = {
    "game": "murus-gallicus",
    "seats": [{"kind": "bot", "bot": "random"}, {"kind": "human"}],
}


def takeback(server: Server, match: str, token: str | None, seat: int) -> tuple[int, Any]:
    return server.post(f"/api/matches/{match}/takeback", {"seat": seat}, token)


def refused_without_change(
    server: Server, match: str, token: str, seat: int, words: str
) -> dict[str, Any]:
    """Ask for a takeback that must be refused with 409 and ``words``; the view the player
    and a spectator see is the same before and after. Returns the player's view."""
    before = [server.get(f"/api/matches/{match}", who) for who in (token, None)]
    status, answer = takeback(server, match, token, seat)
    assert status == 409, answer
    assert words in answer["error"]
    after = [server.get(f"/api/matches/{match}", who) for who in (token, None)]
    assert after == before
    view: dict[str, Any] = after[0][1]
    return view


def test_a_takeback_after_a_resignation_is_refused(shared_server: Server) -> None:
    match, (romans, _) = create(shared_server, AGAINST_A_BOT)
    assert romans
    turn(shared_server, match, romans, 0, 0, "d1-d3")
    wait_for_ply(shared_server, match, 2, romans)
    status, _ = shared_server.post(f"/api/matches/{match}/resign", {"seat": 0}, romans)
    assert status == 200
    view = refused_without_change(shared_server, match, romans, 0, "the game is over")
    assert view["status"] == "finished" and view["ply"] == 2
    assert view["result"]["termination"] == "resignation"
    assert view["result"]["results"] == ["loss", "win"]
    finished = shared_server.get("/api/matches?status=finished&limit=200")[1]["matches"]
    assert {"id": match, "plies": 2} in [{k: m[k] for k in ("id", "plies")} for m in finished]


def test_a_takeback_in_a_game_without_a_bot_is_refused_even_holding_every_seat(
    shared_server: Server,
) -> None:
    body = {"game": "murus-gallicus", "seats": [{"kind": "human"}, {"kind": "human"}]}
    match, (romans, gauls) = create(shared_server, body)
    assert romans and gauls
    both = f"{romans},{gauls}"
    assert shared_server.get(f"/api/matches/{match}", both)[1]["you"] == [0, 1]
    turn(shared_server, match, both, 0, 0, "d1-d3")
    turn(shared_server, match, both, 1, 1, "a7-a5")
    view = refused_without_change(shared_server, match, both, 0, "only allowed against a bot")
    assert view["ply"] == 2 and [m["turn"] for m in view["moves"]] == ["d1-d3", "a7-a5"]


def test_a_takeback_against_a_bot_by_a_seat_sharing_the_game_with_an_invited_human(
    shared_server: Server,
) -> None:
    seats = [{"kind": "human"}, {"kind": "invite"}, {"kind": "bot", "bot": "random"}]
    match, (p1, _, _) = create(shared_server, {"game": "colosseum-offcuts", "seats": seats})
    assert p1
    legal = shared_server.get(f"/api/matches/{match}", p1)[1]["legal"][0]["text"]
    assert turn(shared_server, match, p1, 0, 0, legal)[0] == 200
    view = refused_without_change(shared_server, match, p1, 0, "only allowed against a bot")
    assert view["ply"] == 1 and view["to_move"] == 1


def test_a_takeback_before_the_seat_has_played_is_refused(shared_server: Server) -> None:
    match, (romans, _) = create(shared_server, AGAINST_A_BOT)
    assert romans
    view = refused_without_change(shared_server, match, romans, 0, "Romans has no turn to take")
    assert view["ply"] == 0 and view["to_move"] == 0 and view["status"] == "active"

    match, (_, gauls) = create(shared_server, BOT_FIRST)
    assert gauls
    wait_for_ply(shared_server, match, 1, gauls)
    view = refused_without_change(shared_server, match, gauls, 1, "Gauls has no turn to take")
    assert view["ply"] == 1 and view["to_move"] == 1 and view["moves"][0]["seat"] == 0


def test_a_takeback_undoes_the_takers_last_turn_and_the_bots_reply_only(
    shared_server: Server,
) -> None:
    match, (romans, _) = create(shared_server, AGAINST_A_BOT)
    turn(shared_server, match, romans, 0, 0, "d1-d3")
    after_two = wait_for_ply(shared_server, match, 2, romans)
    picture_at_two = shared_server.get(f"/api/matches/{match}/position?at=2")[1]["svg"]
    turn(shared_server, match, romans, 0, 2, after_two["legal"][0]["text"])
    wait_for_ply(shared_server, match, 4, romans)
    status, view = takeback(shared_server, match, romans, 0)
    assert status == 200
    assert view["ply"] == 2 and view["to_move"] == 0 and not view["thinking"]
    assert view["moves"] == after_two["moves"]
    assert view["svg"] == picture_at_two
    assert shared_server.get(f"/api/matches/{match}", romans)[1]["ply"] == 2
    # A second takeback goes back to the Romans' first turn: the start.
    status, view = takeback(shared_server, match, romans, 0)
    assert status == 200 and view["ply"] == 0 and view["moves"] == []


def test_a_takeback_when_the_bot_moved_first_keeps_the_bots_opening(
    shared_server: Server,
) -> None:
    match, (_, gauls) = create(shared_server, BOT_FIRST)
    opening = wait_for_ply(shared_server, match, 1, gauls)
    turn(shared_server, match, gauls, 1, 1, opening["legal"][0]["text"])
    wait_for_ply(shared_server, match, 3, gauls)
    status, view = takeback(shared_server, match, gauls, 1)
    assert status == 200
    assert view["ply"] == 1 and view["to_move"] == 1
    assert view["moves"] == opening["moves"]


def test_a_takeback_needs_the_seats_token(shared_server: Server) -> None:
    match, (romans, _) = create(shared_server, AGAINST_A_BOT)
    turn(shared_server, match, romans, 0, 0, "d1-d3")
    wait_for_ply(shared_server, match, 2, romans)
    before = shared_server.get(f"/api/matches/{match}", romans)
    status, answer = takeback(shared_server, match, None, 0)
    assert status == 403 and "you do not hold the seat of Romans" in answer["error"]
    assert shared_server.get(f"/api/matches/{match}", romans) == before
    hot_seat, _ = create(shared_server, MURUS_HOT_SEAT)
    assert takeback(shared_server, hot_seat, romans, 0)[0] == 403
