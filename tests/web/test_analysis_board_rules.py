"""The analysis board's rules (``web/analysis.py``), against the app served in the test process
(``local.py``) so that mutation testing sees this code: sources and lines as the analyst sends
them, what each answer holds, what each request costs, and the refusals, each a sentence.

``test_api_analysis.py`` tests the board through ``boardlab serve`` (bot searches, hidden
deployments, the page's sequences of requests).
"""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import boardlab
from boardlab.web.limits import Limits
from tests.web.local import LocalServer, serve_here
from tests.web.test_api_hidden import SOUTH_ZONE, deployment

MG: dict[str, Any] = {"game": "murus-gallicus", "options": {}, "start": None}
CYVASSE: dict[str, Any] = {"game": "cyvasse", "options": {"seed": 1}, "start": None}
LINE = ["a1-a3", "a7-c5", "b1-b3", "b7-b5"]


@pytest.fixture(scope="module")
def here(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    with serve_here(tmp_path_factory.mktemp("analysis") / "boardlab.sqlite3") as server:
        yield server


def ask(server: LocalServer, path: str, body: Any, token: str | None = None) -> Any:
    status, answer = server.post(f"/api/analysis/{path}", body, token)
    assert status in (200, 201), answer
    return answer


def refused(server: LocalServer, path: str, body: Any, token: str | None = None) -> tuple[int, str]:
    status, answer = server.post(f"/api/analysis/{path}", body, token)
    assert status >= 400 and set(answer) == {"error"}, answer
    return status, answer["error"]


def hot_seat(server: LocalServer, game: str, turns: list[str]) -> tuple[str, list[str]]:
    """A match between two people at one screen after ``turns``: its id and tokens."""
    body = {"game": game, "seats": [{"kind": "human"}] * 2}
    status, answer = server.post("/api/matches", body)
    assert status == 201, answer
    match, tokens = answer["id"], [seat["token"] for seat in answer["seats"]]
    for ply, text in enumerate(turns):
        view = {"seat": ply % 2, "ply": ply, "turn": text}
        status, answer = server.post(f"/api/matches/{match}/turn", view, tokens[ply % 2])
        assert status == 200, answer
    return match, tokens


def test_any_position_of_a_line_is_shown_with_the_whole_lines_turns(here: LocalServer) -> None:
    answer = ask(here, "position", {"source": MG, "line": LINE, "at": 2})
    state = boardlab.make("murus-gallicus").new_initial_state()
    for text in LINE[:2]:
        state.play(text)
    assert answer["line"] == LINE and answer["to_move"] == 0 and answer["turn_start"]
    assert sorted(d["text"] for d in answer["legal"]) == state.legal_moves()
    assert answer["turns"] == [
        {"seat": seat % 2, "text": text, "end": seat + 1} for seat, text in enumerate(LINE)
    ]
    assert answer["game"] == "murus-gallicus" and answer["players"] == ["Romans", "Gauls"]
    assert answer["options"] == dict(state.game.option_items())
    assert answer["play_on"] and answer["play_on_refusal"] is None and not answer["hidden"]
    assert answer["result"] is None and answer["presets"] == [] and "<svg" in answer["svg"]
    # The last turn's cells are marked: the picture after a1-a3 is not the start's.
    start = ask(here, "position", {"source": MG, "line": LINE, "at": 0})
    assert start["svg"] != ask(here, "position", {"source": MG, "line": LINE[:1]})["svg"]
    assert start["to_move"] == 0 and start["turns"] == answer["turns"]
    whole = ask(here, "position", {"source": MG, "line": LINE})
    after = ask(here, "position", {"source": MG, "line": LINE, "at": len(LINE)})
    assert whole == after


def test_a_position_text_starts_a_line_but_no_match(here: LocalServer) -> None:
    state = boardlab.make("murus-gallicus").new_initial_state()
    state.play("a1-a3")
    source = {**MG, "start": state.position_text()}
    answer = ask(here, "position", {"source": source, "line": ["a7-c5"]})
    assert answer["to_move"] == 0 and answer["turns"] == [{"seat": 1, "text": "a7-c5", "end": 1}]
    assert not answer["play_on"]
    assert answer["play_on_refusal"] == "play on needs a record that begins at the game's start"
    body = {"source": source, "line": ["a7-c5"], "seat": 0, "bot": "random"}
    assert refused(here, "play", body) == (409, answer["play_on_refusal"])


def test_a_match_opens_with_its_moves_and_each_position_after_at_turns(here: LocalServer) -> None:
    match, _ = hot_seat(here, "murus-gallicus", LINE)
    opened = ask(here, "open", {"match": match})
    assert opened == {
        "title": "Murus Gallicus",
        "result": None,
        "source": {"game": "murus-gallicus", "options": opened["source"]["options"], "start": None},
        "main": LINE,
        "turns": [1, 1, 1, 1],
    }
    for at in (0, 3, 4):
        answer = ask(here, "position", {"source": {"match": match, "at": at}})
        expected = ask(here, "position", {"source": MG, "line": LINE[:at]})
        assert answer["legal"] == expected["legal"]
        assert answer["status_text"] == expected["status_text"]
        assert answer["to_move"] == at % 2 and answer["play_on"]
        assert answer["turns"] == []
    # Played on from a match's position: the match's turns, then the line's.
    created = ask(here, "play", {"source": {"match": match, "at": 2}, "seat": 0, "bot": "random"})
    view = here.get(f"/api/matches/{created['id']}", created["seats"][0]["token"])[1]
    assert [m["turn"] for m in view["moves"]] == LINE[:2]


def test_a_record_opens_with_its_moves_and_is_charged_by_size(tmp_path: Path) -> None:
    limits = Limits(move_burst=4, moves_per_minute=0.001, creation_burst=100)
    with serve_here(tmp_path / "b.sqlite3", limits) as server:
        match, tokens = hot_seat(server, "murus-gallicus", LINE[:2])
        record = record_of(server, match, tokens[0])
        opened = ask(server, "open", {"record": record})
        assert opened["main"] == LINE[:2] and opened["turns"] == [1, 1]
        assert opened["title"] == "Murus Gallicus" and opened["source"]["start"] is None
        # 2 moves' worth are left: a record of 1 KiB and more costs one more per KiB.
        padded = record + "\n" * 1024
        status, error = refused(server, "open", {"record": padded})
        assert status == 429 and error.startswith("too many moves")


def test_a_preset_played_mid_line_replaces_what_came_after_it(here: LocalServer) -> None:
    first = ask(here, "position", {"source": CYVASSE})
    assert first["presets"] == ["classic", "fortress", "vanguard", "random"]
    later = first["legal"][0]["text"]
    body = {"source": CYVASSE, "line": [later], "at": 0, "preset": "classic"}
    answer = ask(here, "position", body)
    state = boardlab.make("cyvasse", seed=1).new_initial_state()
    expected = []
    for action in state.preset_actions("classic", 0):
        expected.append(state.action_to_str(action))
        state.apply_action(action)
    assert answer["line"] == expected and later not in answer["line"][1:]
    assert answer["turn_start"] and answer["to_move"] == 1
    # Without `at`, the preset follows the whole line; where no preset can be played, 422.
    status, error = refused(here, "position", {"source": CYVASSE, "line": [later], "preset": "x"})
    assert (status, error) == (422, "no such preset can be played here")
    whole = ask(here, "position", {"source": CYVASSE, "line": [], "preset": "classic"})
    assert whole["line"] == expected
    status, _ = refused(here, "position", {"source": CYVASSE, "line": [later], "preset": 5})
    assert status == 422


@pytest.mark.parametrize(
    ("path", "body", "status", "words"),
    [
        ("position", {}, 400, "'source' must be an object naming a game or a match"),
        ("position", {"source": []}, 400, "'source' must be an object"),
        ("position", {"source": {"game": 3}}, 400, "'game' must be one of: "),
        ("position", {"source": {**MG, "start": 5}}, 400, "'start' must be a position text"),
        ("position", {"source": {**MG, "start": "x" * 49153}}, 400, "'start' must be"),
        ("position", {"source": {**MG, "start": "junk"}}, 400, "bad start position: "),
        ("position", {"source": {**MG, "start": "9" * 4400}}, 400, "bad start position: "),
        ("position", {"source": MG, "line": {}}, 400, "'line' must be a list of at most 4000"),
        ("position", {"source": MG, "line": [5]}, 400, "each decision of 'line' must be"),
        ("position", {"source": MG, "line": ["x" * 65]}, 400, "each decision of 'line'"),
        ("position", {"source": MG, "line": ["a1-a3", "zz"]}, 422, "decision 2 of the line: "),
        ("position", {"source": MG, "line": LINE, "at": 5}, 400, "'at' must be an integer"),
        ("position", {"source": MG, "line": LINE, "at": -1}, 400, "'at' must be"),
        ("position", {"source": MG, "line": LINE, "at": "1"}, 400, "'at' must be"),
        ("position", {"source": {"match": 5}}, 400, "'match' must be a match id"),
        ("position", {"source": {"match": ["a"]}}, 400, "'match' must be a match id"),
        ("position", {"source": {"match": "../x"}}, 404, "there is no match with this id"),
        ("position", {"source": {"match": "q" * 16}}, 404, "there is no match with this id"),
        ("open", {"match": 5}, 400, "send 'match' (a match id) or 'record'"),
        ("open", {"match": "no such match"}, 404, "there is no match with this id"),
        ("open", {"record": "x" * 49153}, 413, "the record is larger than 49152 bytes"),
        ("open", {"record": ["x"]}, 400, "'record' must be the text of a record"),
        ("evaluate", {"source": MG, "bot": "human"}, 400, "'bot' must be one of: "),
        ("evaluate", {"source": MG}, 400, "'bot' must be one of: "),
        ("play", {"source": MG, "seat": 2, "bot": "random"}, 400, "'seat' must be"),
        ("play", {"source": MG, "seat": 0, "bot": "nobody"}, 400, "'bot' must be one of"),
    ],
)
def test_bad_requests_are_refused_with_a_sentence(
    here: LocalServer, path: str, body: Any, status: int, words: str
) -> None:
    got, error = refused(here, path, body)
    assert got == status and error.startswith(words) and "\n" not in error, error


def test_a_match_source_must_name_a_turn_it_has_played(here: LocalServer) -> None:
    match, _ = hot_seat(here, "murus-gallicus", LINE[:2])
    for at in (3, -1, None, "1"):
        status, error = refused(here, "position", {"source": {"match": match, "at": at}})
        assert (status, error) == (400, "'at' must be an integer from 0 to 2")


def test_a_finished_position_is_explored_not_played_on_or_searched(here: LocalServer) -> None:
    match, tokens = hot_seat(here, "murus-gallicus", LINE[:1])
    assert here.post(f"/api/matches/{match}/resign", {"seat": 1}, tokens[1])[0] == 200
    opened = ask(here, "open", {"match": match})
    assert opened["result"] == "Romans won (resignation)"
    # The resignation is no move: the position goes on, and can be played on.
    answer = ask(here, "position", {"source": opened["source"], "line": opened["main"]})
    assert answer["play_on"] and answer["to_move"] == 1
    source = {"game": "murus-gallicus", "options": {"max_plies": 2}, "start": None}
    answer = ask(here, "position", {"source": source, "line": LINE[:2]})
    assert "draw" in answer["result"].lower()
    assert answer["legal"] == [] and answer["to_move"] is None
    assert answer["play_on_refusal"] == "the game is over in this position"
    body: dict[str, Any] = {"source": source, "line": LINE[:2], "bot": "random"}
    assert refused(here, "evaluate", body) == (409, "the game is over in this position")
    body |= {"seat": 0}
    assert refused(here, "play", body) == (409, "the game is over in this position")


def test_a_turn_left_unfinished_cannot_be_played_on(here: LocalServer) -> None:
    source = {"game": "anacund", "options": {"layout": "l0"}, "start": None}
    state = boardlab.make("anacund", layout="l0").new_initial_state()
    first = state.legal_moves()[0]
    answer = ask(here, "position", {"source": source, "line": [first]})
    words = "finish the turn (or step back to its start) to play on from here"
    assert not answer["turn_start"] and answer["play_on_refusal"] == words
    assert answer["presets"] == []
    body = {"source": source, "line": [first], "seat": 0, "bot": "random"}
    assert refused(here, "play", body) == (409, words)


def test_play_on_starts_a_match_from_the_whole_line_whatever_at_says(here: LocalServer) -> None:
    body = {"source": MG, "line": LINE[:3], "at": 1, "seat": 1, "bot": "random"}
    created = ask(here, "play", body)
    token = created["seats"][1]["token"]
    view = here.get(f"/api/matches/{created['id']}", token)[1]
    assert [m["turn"] for m in view["moves"]] == LINE[:3]
    assert view["players"][0]["bot"] == "random" and view["players"][1]["held"]
    assert "token" not in created["seats"][0]


def test_the_analysis_bot_answers_with_the_suggestions_cells_and_turns(here: LocalServer) -> None:
    found = ask(here, "evaluate", {"source": MG, "line": LINE[:1], "bot": "random"})
    state = boardlab.make("murus-gallicus").new_initial_state()
    state.play(LINE[0])
    action = state.parse_action(found["suggestion"])
    assert found["bot"] == "random" and found["mover"] == 1
    assert found["targets"] == list(state.click_path(action).targets)
    assert [turn["text"] for turn in found["line_turns"]] == found["line"]
    assert [turn["seat"] for turn in found["line_turns"]][:2] == [1, 0]


def test_each_request_is_charged_to_its_address(tmp_path: Path) -> None:
    limits = Limits(move_burst=3, moves_per_minute=0.001, analysis_burst=2, creation_burst=1)
    limits = Limits(**{**limits.__dict__, "analyses_per_minute": 0.001})
    with serve_here(tmp_path / "b.sqlite3", limits) as server:
        statuses = [server.post("/api/analysis/position", {"source": MG})[0] for _ in range(4)]
        assert statuses == [200, 200, 200, 429]
        search = {"source": MG, "bot": "random"}
        statuses = [server.post("/api/analysis/evaluate", search)[0] for _ in range(3)]
        assert statuses == [200, 200, 429]
        play = {"source": MG, "seat": 0, "bot": "random"}
        assert [server.post("/api/analysis/play", play)[0] for _ in range(2)] == [201, 429]


def test_a_long_line_costs_a_move_per_hundred_decisions_before_it_is_read(tmp_path: Path) -> None:
    limits = Limits(move_burst=3, moves_per_minute=0.001)
    line = ["a1-a3"] * 100  # charged before it is played (and found illegal: 422)
    with serve_here(tmp_path / "b.sqlite3", limits) as server:
        statuses = [
            server.post("/api/analysis/position", {"source": MG, "line": line})[0] for _ in range(3)
        ]
        assert statuses == [422, 429, 429]
    with serve_here(tmp_path / "c.sqlite3", limits) as server:
        statuses = [
            server.post("/api/analysis/position", {"source": MG, "line": line[:99]})[0]
            for _ in range(4)
        ]
        assert statuses == [422, 422, 422, 429]


def record_of(server: LocalServer, match: str, token: str) -> str:
    """The record of a match, as its page downloads it."""
    request = urllib.request.Request(
        f"{server.url}api/matches/{match}/record", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request) as answer:
        text: str = answer.read().decode()
    return text


def test_a_record_opens_with_its_game_options_and_result(here: LocalServer) -> None:
    source = {"game": "murus-gallicus", "options": {"max_plies": 90}, "start": None}
    status, created = here.post("/api/matches", {**source, "seats": [{"kind": "human"}] * 2})
    assert status == 201, created
    match, tokens = created["id"], [seat["token"] for seat in created["seats"]]
    view = {"seat": 0, "ply": 0, "turn": LINE[0]}
    assert here.post(f"/api/matches/{match}/turn", view, tokens[0])[0] == 200
    assert here.post(f"/api/matches/{match}/resign", {"seat": 1}, tokens[1])[0] == 200
    opened = ask(here, "open", {"record": record_of(here, match, tokens[0])})
    options = dict(boardlab.make("murus-gallicus", max_plies=90).option_items())
    assert opened["source"] == {"game": "murus-gallicus", "options": options, "start": None}
    assert opened["result"] == "Romans won (resignation)" and opened["main"] == LINE[:1]


def test_a_record_that_is_none_is_refused_naming_what_is_wrong(here: LocalServer) -> None:
    status, error = refused(here, "open", {"record": "hello"})
    assert status == 400 and error.startswith("the record") and "Boardlab record" in error
    # As large as allowed is read (and refused for what it says), one byte more is not read.
    status, error = refused(here, "open", {"record": "x" * 49152})
    assert status == 400 and error.startswith("the record"), error
    assert refused(here, "open", {"record": "é" * 24577})[0] == 413


def test_a_hidden_deployment_is_analysed_in_the_callers_own_view(here: LocalServer) -> None:
    match, (south, _) = hot_seat(here, "cyvasse", ["+".join(deployment(SOUTH_ZONE))])
    source = {"match": match, "at": 1}
    # South sees all there is (North has placed nothing yet); a spectator, South's army hidden.
    own = ask(here, "position", {"source": source}, south)
    seen = ask(here, "position", {"source": source})
    assert not own["hidden"] and own["play_on"]
    assert seen["hidden"] and not seen["play_on"] and seen["svg"] != own["svg"]
    words = "play on is possible once nothing in this match is hidden from you"
    assert seen["play_on_refusal"] == words
    body = {"source": source, "seat": 1, "bot": "random"}
    assert refused(here, "play", body) == (409, words)
    assert ask(here, "open", {"match": match}) == {
        "title": "Cyvasse",
        "result": None,
        "source": {"match": match, "at": 1},
        "main": [],
        "turns": [],
    }
    assert ask(here, "open", {"match": match}, south)["main"] == deployment(SOUTH_ZONE)


def test_a_record_under_a_kib_costs_only_its_request(tmp_path: Path) -> None:
    limits = Limits(move_burst=2, moves_per_minute=0.001)
    with serve_here(tmp_path / "b.sqlite3", limits) as server:
        statuses = [server.post("/api/analysis/open", {"record": "hello"})[0] for _ in range(3)]
        assert statuses == [400, 400, 429]


def test_play_on_judges_where_the_whole_line_ends_whatever_at_says(here: LocalServer) -> None:
    source = {"game": "murus-gallicus", "options": {"max_plies": 2}, "start": None}
    body = {"source": source, "line": LINE[:2], "at": 1, "seat": 0, "bot": "random"}
    assert refused(here, "play", body) == (409, "the game is over in this position")
