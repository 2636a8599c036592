"""How a match ends, or goes on, as its players see it, against the app served in the test
process (``local.py``) so that mutation testing sees the session's code: resignations (that end
the game, or that leave the others playing), agreed draws, the caption of a finished game, the
record a player downloads, rematches, and a match played on from the analysis board.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.local import LocalServer, serve_here

HUMANS = [{"kind": "human"}, {"kind": "invite"}]


@pytest.fixture(scope="module")
def here(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    with serve_here(tmp_path_factory.mktemp("endings") / "boardlab.sqlite3") as server:
        yield server


def create(server: LocalServer, game: str, seats: list[dict[str, str]]) -> tuple[str, list[str]]:
    """A new match: its id and each seat's token."""
    status, answer = server.post("/api/matches", {"game": game, "seats": seats})
    assert status == 201, answer
    return answer["id"], [seat["token"] for seat in answer["seats"]]


def post(server: LocalServer, match: str, path: str, token: str, **body: Any) -> Any:
    status, answer = server.post(f"/api/matches/{match}/{path}", body, token)
    assert status == 200, answer
    return answer


def everyone(server: LocalServer, match: str, tokens: list[str]) -> list[Any]:
    """The view of each seat and of a spectator."""
    return [server.get(f"/api/matches/{match}", token)[1] for token in [*tokens, None]]


def colosseum_past_setup(server: LocalServer) -> tuple[str, str, Any]:
    """A three-seat Colosseum Offcuts match, all seats held by one client, played to the
    first turn after the setup: id, the client's tokens, its view."""
    match, tokens = create(server, "colosseum-offcuts", [{"kind": "human"}] * 3)
    held = ",".join(tokens)
    view = server.get(f"/api/matches/{match}", held)[1]
    for ply in range(12):  # four placements each
        text = view["legal"][0]["text"]
        view = post(server, match, "turn", held, seat=view["to_move"], ply=ply, turn=text)
    assert view["phase"] == "play" and view["ply"] == 12, view
    return match, held, view


def test_a_resignation_ends_a_two_seat_game_for_everyone(here: LocalServer) -> None:
    match, (romans, gauls) = create(here, "murus-gallicus", HUMANS)
    post(here, match, "turn", romans, seat=0, ply=0, turn="d1-d3")
    post(here, match, "resign", romans, seat=0)
    for view in everyone(here, match, [romans, gauls]):
        assert view["status"] == "finished" and view["to_move"] is None
        assert view["status_text"] == "Game over: Gauls won."
        assert view["result"]["text"] == "Gauls won (resignation)"
    position = here.get(f"/api/matches/{match}/position?at=1")[1]
    assert position["status"] == "Game over: Gauls won."
    record = here.get(f"/api/matches/{match}/record", romans)[1]
    assert "\nResult: Romans=loss Gauls=win\nTermination: resignation\n" in record
    assert record.endswith("\n1 Romans: d1-d3\n")


def test_a_resignation_in_the_setup_ends_the_game_and_every_other_seat_wins(
    here: LocalServer,
) -> None:
    match, tokens = create(here, "colosseum-offcuts", [{"kind": "human"}] * 3)
    held = ",".join(tokens)
    first = here.get(f"/api/matches/{match}", held)[1]["legal"][0]["text"]
    post(here, match, "turn", held, seat=0, ply=0, turn=first)
    view = post(here, match, "resign", held, seat=1)
    assert view["status"] == "finished" and view["result"]["results"] == ["win", "loss", "win"]
    assert view["status_text"] == "Game over: P1 and P3 won."
    record = here.get(f"/api/matches/{match}/record", held)[1]
    assert "\nResult: P1=win P2=loss P3=win\nTermination: resignation\n" in record


def test_a_seat_that_resigns_in_play_leaves_and_the_others_play_on(here: LocalServer) -> None:
    match, held, view = colosseum_past_setup(here)
    ply, seat = view["ply"], view["to_move"]
    assert seat == 0
    view = post(here, match, "resign", held, seat=0)
    assert view["status"] == "active" and view["result"] is None
    assert view["ply"] == ply + 1 and view["to_move"] == 1 and view["legal"]
    assert view["moves"][-1] == {"n": ply + 1, "seat": 0, "turn": "resign"}
    assert view["status_text"].startswith("P2 to move")
    record = here.get(f"/api/matches/{match}/record", held)[1]
    assert "\nResult: *\n" in record and record.endswith(f"\n{ply + 1} P1: resign\n")


def test_a_draw_offered_and_accepted_ends_the_game_as_agreed(here: LocalServer) -> None:
    match, (romans, gauls) = create(here, "murus-gallicus", HUMANS)
    post(here, match, "turn", romans, seat=0, ply=0, turn="d1-d3")
    offers = [view["may_offer"] for view in everyone(here, match, [romans, gauls])]
    assert offers == [["draw", "takeback"], ["draw"], []]
    post(here, match, "offer", gauls, seat=1, kind="draw")
    post(here, match, "accept", romans, seat=0, kind="draw", ply=1)
    for view in everyone(here, match, [romans, gauls]):
        assert view["status"] == "finished" and view["status_text"] == "Game over: Draw."
        assert view["result"] == {
            "text": "draw (draw agreed)",
            "termination": "agreement",
            "results": ["draw", "draw"],
            "scores": None,
        }
    record = here.get(f"/api/matches/{match}/record", gauls)[1]
    assert "\nResult: Romans=draw Gauls=draw\nTermination: agreement\n" in record


def test_a_rematch_is_shown_on_the_finished_match_only_once_made(here: LocalServer) -> None:
    match, (romans, gauls) = create(here, "murus-gallicus", HUMANS)
    view = post(here, match, "turn", romans, seat=0, ply=0, turn="d1-d3")
    assert view["rematch"] is None
    assert post(here, match, "resign", gauls, seat=1)["rematch"] is None
    status, answer = here.post(f"/api/matches/{match}/rematch", {}, romans)
    assert status == 201, answer
    for view in everyone(here, match, [romans, gauls]):
        assert view["rematch"] == answer["id"]


def test_a_match_played_on_from_the_analysis_board_starts_with_its_line(
    here: LocalServer,
) -> None:
    line = ["a1-a3", "a7-c5", "b1-b3"]
    source: dict[str, Any] = {"game": "murus-gallicus", "options": {}, "start": None}
    body = {"source": source, "line": line, "seat": 1, "bot": "random"}
    status, created = here.post("/api/analysis/play", body)
    assert status == 201, created
    view = here.get(f"/api/matches/{created['id']}", created["seats"][1]["token"])[1]
    assert [move["turn"] for move in view["moves"]] == line
    assert view["ply"] == 3 and view["to_move"] == 1 and view["legal"]


def test_a_match_reads_back_the_same_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "boardlab.sqlite3"
    with serve_here(db) as first:
        body = {"game": "murus-gallicus", "seats": HUMANS, "clock": {"days": 3}}
        status, answer = first.post("/api/matches", body)
        assert status == 201, answer
        match, romans = answer["id"], answer["seats"][0]["token"]
        gauls = answer["seats"][1]["token"]
        post(first, match, "turn", romans, seat=0, ply=0, turn="d1-d3")
        post(first, match, "turn", gauls, seat=1, ply=1, turn="a7-a5")
        post(first, match, "offer", romans, seat=0, kind="draw")
        before = [first.get(f"/api/matches/{match}", token)[1] for token in (romans, None)]
    with serve_here(db) as second:
        after = [second.get(f"/api/matches/{match}", token)[1] for token in (romans, None)]
    for old, new in zip(before, after, strict=True):
        del old["now"], new["now"]  # the server's time as it answers
        assert new == old
    assert after[0]["ply"] == 2 and after[0]["offer"] == {"kind": "draw", "seat": 0}
