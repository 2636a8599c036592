"""A match's rules checks and views as a player sees them, against the app served in the test
process (``local.py``) so that mutation testing sees every check these tests make.

Each refusal answers a status and a sentence and changes nothing; each view shows its viewer
what the rules let it see.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from tests.web.local import LocalServer, serve_here

HOT_SEAT = {"game": "murus-gallicus", "seats": [{"kind": "human"}, {"kind": "human"}]}
BOT = {"kind": "bot", "bot": "random"}


@pytest.fixture(scope="module")
def here(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    with serve_here(tmp_path_factory.mktemp("local") / "boardlab.sqlite3") as server:
        yield server


def create(server: LocalServer, body: dict[str, Any]) -> tuple[str, list[str]]:
    """A new match: its id and each seat's token ('' for a bot)."""
    status, answer = server.post("/api/matches", body)
    assert status == 201, answer
    return answer["id"], [seat.get("token") or "" for seat in answer["seats"]]


def play(server: LocalServer, match: str, token: str, seat: int, ply: int, text: str) -> Any:
    body = {"seat": seat, "ply": ply, "turn": text}
    return server.post(f"/api/matches/{match}/turn", body, token)


def refused(
    server: LocalServer, match: str, token: str, path: str, body: Any, status: int, words: str
) -> None:
    """POST ``body`` to the match's ``path``: refused with ``status`` and a sentence that
    begins with ``words``, and every view of the match is as before."""
    views = [server.get(f"/api/matches/{match}", who) for who in (token, None)]
    answer = server.post(f"/api/matches/{match}/{path}", body, token)
    assert answer[0] == status, answer
    assert answer[1]["error"].startswith(words), answer
    assert [server.get(f"/api/matches/{match}", who) for who in (token, None)] == views


def wait_for(server: LocalServer, match: str, ply: int, token: str) -> Any:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        view = server.get(f"/api/matches/{match}", token)[1]
        if view["ply"] >= ply and not view["thinking"]:
            return view
        time.sleep(0.05)
    raise AssertionError(f"no ply {ply}")


def previews(server: LocalServer, match: str, token: str, seat: int, most: int) -> list[Any]:
    """The previews of ``seat``'s turn built one first legal decision at a time until it is
    complete (at most ``most`` decisions): the empty one first, the whole turn last."""
    steps: list[str] = []
    found = [server.post(f"/api/matches/{match}/preview", {"seat": seat, "steps": steps}, token)]
    while not found[-1][1]["turn_complete"]:
        assert found[-1][0] == 200 and len(steps) < most, found[-1]
        steps.append(found[-1][1]["legal"][0]["text"])
        body = {"seat": seat, "steps": steps}
        found.append(server.post(f"/api/matches/{match}/preview", body, token))
    return [answer for _, answer in found]


def turn_of(shown: list[Any]) -> str:
    """The turn a list of ``previews`` ends with, decisions joined by '+'."""
    return "+".join(path["text"] for path in (p["legal"][0] for p in shown[:-1]))


def test_turns_out_of_order_or_stale_are_refused(here: LocalServer) -> None:
    match, (romans, gauls) = create(here, HOT_SEAT)
    refused(here, match, gauls, "turn", {"seat": 1, "ply": 0, "turn": "a7-a5"}, 409,
            "it is not Gauls's turn: Romans is to move")  # fmt: skip
    refused(here, match, romans, "turn", {"seat": 0, "ply": 3, "turn": "d1-d3"}, 409,
            "the position has changed (you sent ply 3, it is 0); reload it")  # fmt: skip
    refused(here, match, romans, "turn", {"seat": 1, "ply": 0, "turn": "a7-a5"}, 403,
            "you do not hold the seat of Gauls")  # fmt: skip
    refused(here, match, romans, "turn", {"seat": 0, "ply": 0, "turn": "d1-d4"}, 422,
            "illegal move 'd1-d4'")  # fmt: skip
    assert play(here, match, romans, 0, 0, "d1-d3")[0] == 200
    refused(here, match, romans, "turn", {"seat": 0, "ply": 1, "turn": "c1-c3"}, 409,
            "it is not Romans's turn: Gauls is to move")  # fmt: skip
    refused(here, match, gauls, "turn", {"seat": 1, "ply": 0, "turn": "a7-a5"}, 409,
            "the position has changed (you sent ply 0, it is 1)")  # fmt: skip


ANACUND = {"game": "anacund", "options": {"layout": "l0"}}


def test_an_unfinished_turn_is_refused_and_a_whole_one_committed(here: LocalServer) -> None:
    body = {**ANACUND, "seats": [{"kind": "human"}, {"kind": "invite"}]}
    match, (a, _) = create(here, body)
    refused(here, match, a, "turn", {"seat": 0, "ply": 0, "turn": "6@19+5@21"}, 422,
            "the turn is not complete: A still has a decision to make")  # fmt: skip
    status, view = play(here, match, a, 0, 0, "6@19+5@21+4@18")
    assert status == 200 and view["moves"] == [{"n": 1, "seat": 0, "turn": "6@19+5@21+4@18"}]
    assert view["to_move"] == 1 and view["legal"] == [] and view["ply"] == 1


def test_presets_are_offered_by_name_and_others_refused(here: LocalServer) -> None:
    match, (romans, _) = create(here, HOT_SEAT)
    body = {"seat": 0, "ply": 0, "preset": "classic"}
    refused(here, match, romans, "turn", body, 422,
            "no preset 'classic' can be played here; presets: none")  # fmt: skip
    cyvasse = {"game": "cyvasse", "seats": [{"kind": "human"}, {"kind": "invite"}]}
    match, (south, north) = create(here, cyvasse)
    view = here.get(f"/api/matches/{match}", south)[1]
    assert "classic" in view["presets"]
    assert here.get(f"/api/matches/{match}", north)[1]["presets"] == []
    refused(here, match, south, "turn", {"seat": 0, "ply": 0, "preset": "nonsense"}, 422,
            "no preset 'nonsense' can be played here; presets: classic")  # fmt: skip
    status, view = here.post(f"/api/matches/{match}/turn", body, south)
    assert status == 200 and view["ply"] == 1 and view["moves"][0]["turn"].count("@") == 19
    assert here.get(f"/api/matches/{match}")[1]["moves"][0]["turn"] == "(hidden)"


def test_a_view_offers_moves_only_to_the_seat_to_move(here: LocalServer) -> None:
    match, (romans, gauls) = create(here, HOT_SEAT)
    mover = here.get(f"/api/matches/{match}", romans)[1]
    assert len(mover["legal"]) == 20 and mover["you"] == [0] and mover["presets"] == []
    assert (mover["id"], mover["game"], mover["phase"]) == (match, "murus-gallicus", "play")
    assert mover["options"] == {"board": "8x7", "repetition_draw": "3", "max_plies": "400"}
    assert mover["name"] == "Murus Gallicus" and mover["colours"] == ["#f1ebdc", "#33302c"]
    assert mover["thinking"] is False  # no bot in this match
    # Without hidden information every seat sees the spectator's picture.
    pictures = {here.get(f"/api/matches/{match}", who)[1]["svg"] for who in (romans, gauls, None)}
    assert pictures == {mover["svg"]}
    d1 = next(move for move in mover["legal"] if move["text"] == "d1-d3")
    assert d1 == {"text": "d1-d3", "targets": ["d1", "d3"], "button": ""}
    for token in (gauls, ""):
        view = here.get(f"/api/matches/{match}", token or None)[1]
        assert view["legal"] == [] and view["presets"] == []
    assert here.get(f"/api/matches/{match}")[1]["you"] == []
    players = mover["players"]
    assert [(p["seat"], p["name"], p["kind"], p["held"]) for p in players] == [
        (0, "Romans", "human", True),
        (1, "Gauls", "human", False),
    ]
    # Holding both seats, the view is that of the seat to move.
    both = f"{romans},{gauls}"
    assert play(here, match, both, 0, 0, "d1-d3")[0] == 200
    view = here.get(f"/api/matches/{match}", both)[1]
    assert view["you"] == [0, 1] and view["to_move"] == 1
    assert {move["text"] for move in view["legal"]} >= {"a7-a5"}


def test_a_finished_match_shows_its_result_to_everyone(here: LocalServer) -> None:
    match, (romans, gauls) = create(here, HOT_SEAT)
    play(here, match, romans, 0, 0, "d1-d3")
    active = here.get(f"/api/matches/{match}")[1]
    assert active["status"] == "active" and active["result"] is None and active["to_move"] == 1
    assert here.post(f"/api/matches/{match}/resign", {"seat": 1}, gauls)[0] == 200
    for token in (romans, gauls, None):
        view = here.get(f"/api/matches/{match}", token)[1]
        assert view["status"] == "finished" and view["to_move"] is None and view["legal"] == []
        assert view["result"] == {
            "text": "Romans won (resignation)",
            "termination": "resignation",
            "results": ["win", "loss"],
            "scores": None,
        }
    refused(here, match, romans, "turn", {"seat": 0, "ply": 1, "turn": "c1-c3"}, 409,
            "the game is over")  # fmt: skip
    refused(here, match, romans, "preview", {"seat": 0, "steps": []}, 409, "the game is over")
    listed = here.get("/api/matches?status=finished&limit=200")[1]["matches"]
    line = next(m for m in listed if m["id"] == match)
    assert (line["status"], line["result"], line["plies"]) == (
        "finished",
        "Romans won (resignation)",
        1,
    )


def test_a_scored_game_shows_its_scores(here: LocalServer) -> None:
    match, (a, b) = create(here, {**ANACUND, "seats": [{"kind": "human"}, {"kind": "human"}]})
    both = f"{a},{b}"
    view = here.get(f"/api/matches/{match}", both)[1]
    assert view["scores"] is not None and len(view["scores"]) == 2
    for _ in range(40):  # the l0 layout is full after fewer turns
        if view["status"] != "active":
            break
        turn = turn_of(previews(here, match, both, view["to_move"], 3))
        ply = view["ply"]
        status, view = play(here, match, both, view["to_move"], ply, turn)
        assert status == 200 and view["ply"] == ply + 1, view
    result = view["result"]
    assert result["termination"] == "placements_complete"
    assert result["scores"] == view["scores"] and sum(result["scores"]) > 0
    assert sorted(result["results"]) in (["loss", "win"], ["draw", "draw"])


def test_a_preview_shows_the_next_decisions_of_an_unfinished_turn(here: LocalServer) -> None:
    match, (a, _) = create(here, {**ANACUND, "seats": [{"kind": "human"}, {"kind": "invite"}]})
    start = here.post(f"/api/matches/{match}/preview", {"seat": 0, "steps": []}, a)[1]
    assert not start["turn_complete"] and start["legal"]
    one = here.post(f"/api/matches/{match}/preview", {"seat": 0, "steps": ["6@19"]}, a)[1]
    assert not one["turn_complete"] and one["svg"] != start["svg"]
    assert "5@21" in {move["text"] for move in one["legal"]}
    steps = ["6@19", "5@21", "4@18"]
    whole = here.post(f"/api/matches/{match}/preview", {"seat": 0, "steps": steps}, a)[1]
    assert whole["turn_complete"] and whole["legal"] == []
    assert whole["scores"] is not None and whole["phase"] and whole["status_text"]
    too_long = {"seat": 0, "steps": [*steps, "3@1"]}
    refused(here, match, a, "preview", too_long, 422, "the turn ends after 6@19+5@21+4@18")
    refused(here, match, a, "preview", {"seat": 0, "steps": ["6@37"]}, 422, "malformed move")
    refused(here, match, a, "preview", {"seat": 1, "steps": []}, 403, "you do not hold")


def test_positions_of_the_move_list_and_their_limits(here: LocalServer) -> None:
    match, (romans, gauls) = create(here, HOT_SEAT)
    play(here, match, romans, 0, 0, "d1-d3")
    play(here, match, gauls, 1, 1, "a7-a5")
    status, answer = here.get(f"/api/matches/{match}/position?at=3")
    assert status == 400 and "'at'" in answer["error"]
    now = here.get(f"/api/matches/{match}")[1]
    at = [here.get(f"/api/matches/{match}/position?at={n}")[1] for n in range(3)]
    assert [a["at"] for a in at] == [0, 1, 2] and at[2]["svg"] == now["svg"]
    assert at[2]["status"] == now["status_text"] and at[0]["svg"] != at[1]["svg"]


def test_a_hidden_deployment_is_hidden_in_views_records_and_positions(here: LocalServer) -> None:
    cyvasse = {"game": "cyvasse", "seats": [{"kind": "human"}, {"kind": "invite"}]}
    match, (south, north) = create(here, cyvasse)
    body = {"seat": 0, "ply": 0, "preset": "classic"}
    assert here.post(f"/api/matches/{match}/turn", body, south)[0] == 200
    own = here.get(f"/api/matches/{match}", south)[1]
    other = here.get(f"/api/matches/{match}", north)[1]
    spectator = here.get(f"/api/matches/{match}")[1]
    turn = own["moves"][0]["turn"]
    assert turn.count("@") == 19
    assert other["moves"][0]["turn"] == spectator["moves"][0]["turn"] == "(hidden)"
    assert own["svg"] not in (other["svg"], spectator["svg"])
    for token, seen in ((north, other), (None, spectator)):
        status, answer = here.get(f"/api/matches/{match}/record", token)
        assert status == 409
        assert answer["error"] == "the record is available once nothing is hidden from you"
        at_one = here.get(f"/api/matches/{match}/position?at=1", token)[1]["svg"]
        assert at_one == seen["svg"]
    status, record = here.get(f"/api/matches/{match}/record", south)
    assert status == 200 and f"1 South: {turn}" in record
    body = {"seat": 1, "ply": 1, "preset": "classic"}
    assert here.post(f"/api/matches/{match}/turn", body, north)[0] == 200
    for token in (north, None):
        view = here.get(f"/api/matches/{match}", token)[1]
        assert view["moves"][0]["turn"] == turn
        assert here.get(f"/api/matches/{match}/record", token)[0] == 200


def test_one_client_holding_both_armies_sees_the_view_of_the_side_to_move(
    here: LocalServer,
) -> None:
    """Two people at one screen: once South has deployed, the screen is North's, which hides
    South's army, and never South's."""
    cyvasse = {"game": "cyvasse", "seats": [{"kind": "human"}, {"kind": "invite"}]}
    match, (south, north) = create(here, cyvasse)
    both = f"{south},{north}"
    body = {"seat": 0, "ply": 0, "preset": "classic"}
    assert here.post(f"/api/matches/{match}/turn", body, both)[0] == 200
    screen = here.get(f"/api/matches/{match}", both)[1]
    seen = here.get(f"/api/matches/{match}", north)[1]
    assert screen["svg"] == seen["svg"] and screen["moves"][0]["turn"] == "(hidden)"
    assert screen["you"] == [0, 1] and screen["to_move"] == 1
    status, answer = here.get(f"/api/matches/{match}/record", both)
    assert status == 409, answer


def test_each_side_of_a_hidden_game_sees_its_own_picture_whoever_looked_first(
    here: LocalServer,
) -> None:
    """The pictures are drawn once and shared, but never across views: a spectator and North
    looking first change nothing of what South, then North, see (each checked against its
    preview of no steps, which is drawn afresh)."""
    cyvasse = {"game": "cyvasse", "seats": [{"kind": "human"}, {"kind": "invite"}]}
    match, (south, north) = create(here, cyvasse)
    path = f"/api/matches/{match}/preview"
    first = [here.get(f"/api/matches/{match}", who)[1]["svg"] for who in (None, north, south)]
    assert first[2] == here.post(path, {"seat": 0, "steps": []}, south)[1]["svg"] != first[1]
    body = {"seat": 0, "ply": 0, "preset": "classic"}
    assert here.post(f"/api/matches/{match}/turn", body, south)[0] == 200
    then = [here.get(f"/api/matches/{match}", who)[1]["svg"] for who in (None, north)]
    assert then[1] == here.post(path, {"seat": 1, "steps": []}, north)[1]["svg"] != then[0]


def test_takebacks_against_a_bot_and_their_refusals(here: LocalServer) -> None:
    body = {
        "game": "murus-gallicus",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
    }
    match, (romans, _) = create(here, body)
    refused(here, match, romans, "takeback", {"seat": 0}, 409, "Romans has no turn to take back")
    play(here, match, romans, 0, 0, "d1-d3")
    first = wait_for(here, match, 2, romans)
    assert first["players"][1]["bot"] == "random" and first["players"][1]["kind"] == "bot"
    play(here, match, romans, 0, 2, first["legal"][0]["text"])
    wait_for(here, match, 4, romans)
    status, view = here.post(f"/api/matches/{match}/takeback", {"seat": 0}, romans)
    assert status == 200 and view["ply"] == 2 and view["moves"] == first["moves"]
    status, view = here.post(f"/api/matches/{match}/takeback", {"seat": 0}, romans)
    assert status == 200 and view["ply"] == 0 and view["moves"] == []
    hot, (first_seat, second_seat) = create(here, HOT_SEAT)
    both = f"{first_seat},{second_seat}"
    play(here, hot, both, 0, 0, "d1-d3")
    refused(here, hot, both, "takeback", {"seat": 0}, 409,
            "takebacks are only allowed against a bot")  # fmt: skip
    here.post(f"/api/matches/{match}/resign", {"seat": 0}, romans)
    refused(here, match, romans, "takeback", {"seat": 0}, 409, "the game is over")


def test_a_takeback_undoes_the_takers_own_turn_when_it_is_the_last_one(here: LocalServer) -> None:
    """Two people at one screen against a bot: the first person's turn is taken back while the
    second is to move, and the bot's opening stays."""
    seats = [BOT, {"kind": "human"}, {"kind": "human"}]
    match, (_, second, third) = create(here, {"game": "colosseum-offcuts", "seats": seats})
    both = f"{second},{third}"
    opening = wait_for(here, match, 1, both)
    names = [player["name"] for player in opening["players"]]
    refused(here, match, both, "takeback", {"seat": 2}, 409,
            f"{names[2]} has no turn to take back")  # fmt: skip
    status, view = play(here, match, both, 1, 1, opening["legal"][0]["text"])
    assert status == 200 and view["to_move"] == 2
    status, view = here.post(f"/api/matches/{match}/takeback", {"seat": 1}, both)
    assert status == 200, view
    assert view["ply"] == 1 and view["to_move"] == 1 and view["moves"] == opening["moves"]


def test_a_bot_that_moves_first_thinks_then_plays(here: LocalServer) -> None:
    body = {
        "game": "murus-gallicus",
        "seats": [{"kind": "bot", "bot": "random"}, {"kind": "human"}],
    }
    match, (_, gauls) = create(here, body)
    view = wait_for(here, match, 1, gauls)
    assert view["to_move"] == 1 and view["moves"][0]["seat"] == 0 and view["legal"]
    marked = re.findall(r'class="[^"]*\blast\b[^"]*" data-id="([^"]+)"', view["svg"])
    assert len(marked) == 2  # the bot's move, origin and far cell


def test_the_record_of_a_match_replays_its_turns(here: LocalServer, tmp_path: Path) -> None:
    match, (romans, gauls) = create(here, HOT_SEAT)
    play(here, match, romans, 0, 0, "d1-d3")
    play(here, match, gauls, 1, 1, "a7-a5")
    status, record = here.get(f"/api/matches/{match}/record", romans)
    assert status == 200
    assert "Player Romans: human\nPlayer Gauls: human\n" in record
    assert "Result: *\n" in record and record.endswith("1 Romans: d1-d3\n2 Gauls: a7-a5\n")


def test_a_preset_is_checked_like_any_turn(here: LocalServer) -> None:
    cyvasse = {"game": "cyvasse", "seats": [{"kind": "human"}, {"kind": "invite"}]}
    match, (south, _) = create(here, cyvasse)
    offered = here.get(f"/api/matches/{match}", south)[1]["presets"]
    assert len(offered) > 1
    refused(here, match, south, "turn", {"seat": 0, "ply": 0, "preset": "x"}, 422,
            f"no preset 'x' can be played here; presets: {', '.join(offered)}")  # fmt: skip
    refused(here, match, south, "turn", {"seat": 0, "ply": 1, "preset": offered[0]}, 409,
            "the position has changed (you sent ply 1, it is 0); reload it")  # fmt: skip


def marks(svg: str) -> set[str]:
    return set(re.findall(r'class="[^"]*\blast\b[^"]*" data-id="([^"]+)"', svg))


def test_a_preview_is_drawn_as_the_seat_sees_it(here: LocalServer) -> None:
    match, (romans, _) = create(here, HOT_SEAT)
    path = f"/api/matches/{match}/preview"
    preview = here.post(path, {"seat": 0, "steps": ["d1-d3"]}, romans)[1]
    assert marks(preview["svg"]) == {"d1", "d3"} and preview["turn_complete"]
    assert preview["scores"] is None
    assert preview["notes"] == ["Stones: Romans 16, Gauls 16 (of 16 each); ply 1."]
    # North previews its deployment without seeing South's.
    cyvasse = {"game": "cyvasse", "seats": [{"kind": "human"}, {"kind": "invite"}]}
    match, (south, north) = create(here, cyvasse)
    body = {"seat": 0, "ply": 0, "preset": "classic"}
    assert here.post(f"/api/matches/{match}/turn", body, south)[0] == 200
    seen = here.get(f"/api/matches/{match}", north)[1]
    preview = here.post(f"/api/matches/{match}/preview", {"seat": 1, "steps": []}, north)[1]
    assert preview["svg"] == seen["svg"]
    assert preview["notes"] == seen["notes"] and "South's deployment is hidden" in preview["notes"]


def test_a_preview_of_a_whole_turn_shows_the_board_the_turn_commits(here: LocalServer) -> None:
    match, (romans, _) = create(here, HOT_SEAT)
    path = f"/api/matches/{match}/preview"
    preview = here.post(path, {"seat": 0, "steps": ["d1-d3"]}, romans)[1]
    view = play(here, match, romans, 0, 0, "d1-d3")[1]
    assert (preview["svg"], preview["status_text"]) == (view["svg"], view["status_text"])


def test_a_deployment_that_would_reveal_the_other_is_previewed_before_its_last_step(
    here: LocalServer,
) -> None:
    """North deploys second: each step shows on its preview, but the last one, which would end
    the deployment and so reveal South's army, is marked on the position before it."""
    cyvasse = {"game": "cyvasse", "seats": [{"kind": "human"}, {"kind": "invite"}]}
    match, (south, north) = create(here, cyvasse)
    # South's whole deployment shows as it will be committed: nothing is hidden from South.
    shown = previews(here, match, south, 0, 19)
    view = play(here, match, south, 0, 0, turn_of(shown))[1]
    assert shown[-1]["svg"] == view["svg"] and view["phase"] == "deployment"
    shown = previews(here, match, north, 1, 19)
    steps = turn_of(shown).split("+")
    for placed, preview in enumerate(shown[:-1]):
        assert preview["status_text"].endswith(f"({len(steps) - placed} left)"), preview
    whole, before = shown[-1], shown[-2]
    assert whole["legal"] == [] and whole["phase"] == "deployment"
    assert whole["status_text"] == before["status_text"] and whole["notes"] == before["notes"]
    assert "South's deployment is hidden" in whole["notes"]
    assert marks(whole["svg"]) == marks(before["svg"]) | {steps[-1].split("@")[1]}


def test_the_record_is_dated_when_the_match_was_made_and_names_a_resignation(
    here: LocalServer,
) -> None:
    match, (romans, gauls) = create(here, HOT_SEAT)
    play(here, match, romans, 0, 0, "d1-d3")
    here.post(f"/api/matches/{match}/resign", {"seat": 0}, romans)
    created = next(
        m["created"] for m in here.get("/api/matches?limit=200")[1]["matches"] if m["id"] == match
    )
    record = here.get(f"/api/matches/{match}/record", gauls)[1]
    assert f"\nDate: {created}\n" in record
    assert "\nResult: Romans=loss Gauls=win\nTermination: resignation\n" in record


def test_a_follower_receives_the_view_live(here: LocalServer) -> None:
    match, (romans, gauls) = create(here, HOT_SEAT)
    url = here.url.replace("http://", "ws://") + f"ws/matches/{match}"
    with connect(url) as socket:
        socket.send(json.dumps({"tokens": [gauls]}))
        first = json.loads(socket.recv(timeout=30))
        assert first == {"type": "view", "view": here.get(f"/api/matches/{match}", gauls)[1]}
        play(here, match, romans, 0, 0, "d1-d3")
        update = json.loads(socket.recv(timeout=30))
        assert update["type"] == "view" and update["view"]["ply"] == 1
        assert update["view"] == here.get(f"/api/matches/{match}", gauls)[1]
