"""Invite links and "your games" (``web/seating.py``), against the app served in the test
process (``local.py``) so that mutation testing sees this code: a link claimed once, every
other claim told it only watches; a claim that names no invited seat refused with a
sentence; and a browser's own matches listed its turns first, then in progress, abandoned and
finished, each newest first.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from boardlab.web.limits import Limits
from tests.web.local import LocalServer, serve_here

INVITED = [{"kind": "human"}, {"kind": "invite"}]
USED = "this invite link has already been used, so it only lets you watch"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("seating") / "boardlab.sqlite3"


@pytest.fixture(scope="module")
def here(db: Path) -> Iterator[LocalServer]:
    with serve_here(db) as server:
        yield server


def created(server: LocalServer, seats: list[dict[str, str]] = INVITED) -> tuple[str, list[str]]:
    """A new Murus Gallicus match: its id and each seat's token."""
    status, answer = server.post("/api/matches", {"game": "murus-gallicus", "seats": seats})
    assert status == 201, answer
    return answer["id"], [seat.get("token") for seat in answer["seats"]]


def claim(server: LocalServer, match: str, body: Any) -> tuple[int, Any]:
    return server.post(f"/api/matches/{match}/claim", body)


def test_an_invite_link_seats_its_first_claimer_and_only_watches_afterwards(
    here: LocalServer,
) -> None:
    match, (_, link) = created(here)
    status, answer = claim(here, match, {"seat": 1, "token": link})
    assert status == 200 and answer["seat"] == 1 and answer["token"] != link
    fresh = answer["token"]
    # The new token plays the seat; the link's token now only watches, and claims no more.
    assert here.get(f"/api/matches/{match}", fresh)[1]["you"] == [1]
    assert here.get(f"/api/matches/{match}", link)[1]["you"] == []
    assert claim(here, match, {"seat": 1, "token": link}) == (409, {"error": USED})


def test_a_claim_naming_no_invited_seat_is_refused_with_a_sentence(here: LocalServer) -> None:
    match, (creator, link) = created(here)
    for seat in (2, -1, 99, "1", None, True):
        status, answer = claim(here, match, {"seat": seat, "token": link})
        assert (status, answer) == (400, {"error": "'seat' must be an integer from 0 to 1"})
    status, answer = claim(here, match, {"seat": 0, "token": creator})
    assert (status, answer) == (400, {"error": "the seat of Romans is not an invited seat"})
    for token in (None, "", 7):
        status, answer = claim(here, match, {"seat": 1, "token": token})
        assert status == 400 and "'token' must be" in answer["error"], answer
    assert claim(here, match, {"seat": 1, "token": "not a token!"})[0] == 400
    # Another seat's token is no invite link of seat 1; the link still works after it.
    assert claim(here, match, {"seat": 1, "token": creator}) == (409, {"error": USED})
    assert claim(here, match, {"seat": 1, "token": link})[0] == 200


def test_a_claim_of_an_unknown_match_is_404(here: LocalServer) -> None:
    status, answer = claim(here, "z" * 16, {"seat": 1, "token": "a" * 43})
    assert status == 404, answer


def mine(server: LocalServer, held: dict[str, list[str]]) -> list[dict[str, Any]]:
    status, answer = server.post("/api/mine", {"matches": held})
    assert status == 200, answer
    listed: list[dict[str, Any]] = answer["matches"]
    return listed


def test_your_games_list_your_turns_then_in_progress_abandoned_finished_newest_first(
    here: LocalServer, db: Path
) -> None:
    made = {}
    for name in ("old turn", "turn", "old waiting", "waiting", "abandoned", "finished"):
        made[name] = created(here)
        time.sleep(0.01)  # each match changed after the one before
    for name in ("old waiting", "waiting"):
        match, (romans, _) = made[name]
        status, _ = here.post(
            f"/api/matches/{match}/turn", {"seat": 0, "ply": 0, "turn": "d1-d3"}, romans
        )
        assert status == 200
    match, (romans, _) = made["finished"]
    assert here.post(f"/api/matches/{match}/resign", {"seat": 0}, romans)[0] == 200
    with sqlite3.connect(db) as connection:
        connection.execute(
            "UPDATE matches SET updated = ? WHERE id = ?",
            ("2020-01-01T00:00:00+00:00", made["abandoned"][0]),
        )
    order = ["turn", "old turn", "waiting", "old waiting", "abandoned", "finished"]
    held = {made[name][0]: [made[name][1][0]] for name in reversed(order)}
    listed = mine(here, held)
    assert [entry["id"] for entry in listed] == [made[name][0] for name in order]
    states = [entry["state"] for entry in listed]
    assert states == ["your turn"] * 2 + ["in progress"] * 2 + ["abandoned", "finished"]
    first, last = listed[0], listed[-1]
    assert first["you"] == [0] and first["to_move"] == 0 and first["plies"] == 0
    assert first["players"] == ["Romans", "Gauls"] and first["game"] == "murus-gallicus"
    assert first["result"] is None and listed[2]["to_move"] == 1
    assert last["to_move"] is None and last["result"] and last["plies"] == 0
    assert listed[0]["updated"] > listed[1]["updated"]


def test_your_games_leave_out_matches_the_tokens_hold_no_seat_in(here: LocalServer) -> None:
    match, (romans, link) = created(here)
    other, _ = created(here)
    # An id of no match first: the matches after it are still listed.
    listed = mine(here, {"y" * 16: [romans], match: [link], other: [romans]})
    assert [(entry["id"], entry["you"], entry["state"]) for entry in listed] == [
        (match, [1], "in progress")
    ]
    assert mine(here, {match: [romans, link]})[0]["you"] == [0, 1]
    many: dict[str, list[str]] = {f"{n:016d}": [] for n in range(101)}
    status, answer = here.post("/api/mine", {"matches": many})
    assert status == 400 and "at most 100" in answer["error"]
    assert here.post("/api/mine", {"matches": {f"{n:016d}": [] for n in range(100)}})[0] == 200
    status, answer = here.post("/api/mine", {"matches": {match: [link], "../x": [link]}})
    assert (status, answer) == (400, {"error": "'matches' holds a malformed match id"})


def test_of_two_servers_only_one_hands_out_the_seat(tmp_path: Path) -> None:
    db = tmp_path / "b.sqlite3"
    with serve_here(db) as first, serve_here(db) as second:
        match, (_, link) = created(first)
        # Both servers have the match in memory, each with the link's token as the seat's.
        assert second.get(f"/api/matches/{match}")[0] == 200
        assert claim(first, match, {"seat": 1, "token": link})[0] == 200
        # The store holds the claim: the second server, whose copy still knows the link, is
        # refused by it.
        assert claim(second, match, {"seat": 1, "token": link}) == (409, {"error": USED})


def test_claims_and_listings_count_as_moves(tmp_path: Path) -> None:
    limits = Limits(creation_burst=10, move_burst=3, moves_per_minute=0.001)
    with serve_here(tmp_path / "b.sqlite3", limits) as server:
        match, (_, link) = created(server)
        statuses = [server.post("/api/mine", {"matches": {}})[0] for _ in range(2)]
        statuses.append(claim(server, match, {"seat": 1, "token": link})[0])
        statuses.append(claim(server, match, {"seat": 1, "token": link})[0])
        statuses.append(server.post("/api/mine", {"matches": {}})[0])
        assert statuses == [200, 200, 200, 429, 429]
