"""The analysis board's API against a real server: positions after a line, the bot's
suggestion, play on from a position, records uploaded, the refusals, and Cyvasse's hidden
deployment, which no analysis answer may reveal."""

from __future__ import annotations

import json
import os
import random
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardlab
from boardlab.core.records import parse_record
from tests.web.conftest import Server, start_server
from tests.web.test_api import create, turn
from tests.web.test_api_hidden import NORTH_ZONE, SOUTH_ZONE, deployment, preset
from tests.web.test_restart import descendants

MG: dict[str, Any] = {"game": "murus-gallicus", "options": {}, "start": None}


def played(server: Server, plies: int) -> tuple[str, list[str | None], list[str]]:
    """A hot-seat Murus Gallicus match after ``plies`` turns (the first legal move each time);
    its id, tokens and turns."""
    match, tokens = create(server, {"game": "murus-gallicus", "seats": [{"kind": "human"}] * 2})
    turns = []
    for ply in range(plies):
        view = server.get(f"/api/matches/{match}", tokens[ply % 2])[1]
        text = view["legal"][ply % len(view["legal"])]["text"]
        turn(server, match, tokens[ply % 2], ply % 2, ply, text)
        turns.append(text)
    return match, tokens, turns


def analyse(server: Server, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    status, answer = server.post(f"/api/analysis/{path}", body, token)
    assert status in (200, 201), answer
    return answer


def test_a_match_opens_with_its_moves_and_any_position_is_shown(shared_server: Server) -> None:
    match, _, turns = played(shared_server, 5)
    opened = analyse(shared_server, "open", {"match": match})
    assert opened["main"] == turns and opened["turns"] == [1] * 5
    state = boardlab.make("murus-gallicus").new_initial_state()
    for text in turns[:3]:
        state.play(text)
    answer = analyse(
        shared_server, "position", {"source": opened["source"], "line": turns, "at": 3}
    )
    # The position after three decisions, with the whole line's turns listed.
    assert answer["to_move"] == state.current_player == 1
    assert sorted(d["text"] for d in answer["legal"]) == state.legal_moves()
    assert [t["text"] for t in answer["turns"]] == turns
    assert [t["end"] for t in answer["turns"]] == [1, 2, 3, 4, 5]
    assert answer["play_on"] and not answer["hidden"]


def test_the_bot_suggests_a_legal_move_and_a_line(shared_server: Server) -> None:
    body = {"source": MG, "line": ["a1-a3"], "bot": "level:medium"}
    found = analyse(shared_server, "evaluate", body)
    state = boardlab.make("murus-gallicus").new_initial_state()
    state.play("a1-a3")
    assert found["suggestion"] in state.legal_moves()
    assert found["mover"] == 1 and found["line"][0] == found["suggestion"]
    # The cells the board rings are the suggestion's click path.
    assert found["targets"] == list(
        state.click_path(state.parse_action(found["suggestion"])).targets
    )
    for decision in found["line"]:
        state.play(decision)  # every decision of the line is legal in turn
    assert [t["text"] for t in found["line_turns"]] == found["line"]
    assert len(found["before"]) == 2
    assert all(-1 <= value <= 1 for value in found["before"] + found["after"])
    assert found["seconds"] < 10


def test_play_on_starts_a_match_with_the_line_and_a_bot(shared_server: Server) -> None:
    line = ["a1-a3", "a7-c5", "b1-b3"]
    body = {"source": MG, "line": line, "seat": 1, "bot": "random"}
    created = analyse(shared_server, "play", body)
    token = created["seats"][1]["token"]
    assert "token" not in created["seats"][0] and created["seats"][0]["kind"] == "bot"
    view = shared_server.get(f"/api/matches/{created['id']}", token)[1]
    assert [m["turn"] for m in view["moves"]] == line
    assert view["to_move"] == 1 and view["players"][1]["held"]
    assert view["players"][0]["bot"] == "random"


def test_a_record_opens_with_its_moves(shared_server: Server) -> None:
    match, tokens, turns = played(shared_server, 4)
    record = shared_server.request("GET", f"/api/matches/{match}/record", None, tokens[0])[1]
    opened = analyse(shared_server, "open", {"record": record})
    assert opened["main"] == turns
    assert opened["source"]["game"] == "murus-gallicus"
    assert parse_record(record)[0].game.option_items() == list(opened["source"]["options"].items())


def refusal(server: Server, path: str, body: Any, status: int, words: str) -> None:
    got, answer = server.post(f"/api/analysis/{path}", body)
    assert got == status, answer
    assert words in answer["error"] and "\n" not in answer["error"], answer


def test_bad_positions_are_refused_with_a_reason(shared_server: Server) -> None:
    cases = [
        ("position", {}, 400, "'source' must be an object"),
        ("position", {"source": {"game": "chess"}}, 400, "'game' must be one of"),
        ("position", {"source": {"game": "carnyx", "options": {"x": 1}}}, 400, "x"),
        ("position", {"source": {**MG, "start": "nonsense"}}, 400, "bad start position"),
        ("position", {"source": MG, "line": "a1-a3"}, 400, "'line' must be a list"),
        ("position", {"source": MG, "line": [""]}, 400, "each decision"),
        ("position", {"source": MG, "line": ["a1-a3", "a1-a3"]}, 422, "decision 2 of the line"),
        ("position", {"source": MG, "line": ["a1-a3"] * 4001}, 400, "at most 4000"),
        ("position", {"source": MG, "line": ["a1-a3"], "at": 2}, 400, "'at' must be"),
        ("position", {"source": {"match": "nosuchmatch00000"}}, 404, "no match"),
        ("position", {"source": {"match": "../../etc"}}, 404, "no match"),
        ("position", {"source": MG, "preset": "classic"}, 422, "no such preset"),
        ("evaluate", {"source": MG, "bot": "mcts:time=3600"}, 400, "'bot' must be one of"),
        ("play", {"source": MG, "seat": 2, "bot": "random"}, 400, "'seat' must be"),
        ("play", {"source": MG, "seat": 0, "bot": "human"}, 400, "'bot' must be one of"),
        ("open", {}, 400, "send 'match'"),
        ("open", {"record": 5}, 400, "'record' must be"),
        ("open", {"record": "# Boardlab game record\nGame: carnyx\n"}, 400, "header"),
        ("open", {"record": "hello"}, 400, "not a Boardlab record"),
    ]
    for path, body, status, words in cases:
        refusal(shared_server, path, body, status, words)


def test_a_finished_or_unfinished_turn_position_cannot_be_played_on(shared_server: Server) -> None:
    anacund = {"game": "anacund", "options": {"layout": "l0"}}
    state = boardlab.make("anacund", layout="l0").new_initial_state()
    first = state.legal_moves()[0]
    state.play(first)
    assert not state.turn_start  # inside a compound turn
    body = {"source": anacund, "line": [first], "seat": 0, "bot": "random"}
    refusal(shared_server, "play", body, 409, "finish the turn")
    answer = analyse(shared_server, "position", {"source": anacund, "line": [first]})
    assert not answer["play_on"] and "finish the turn" in answer["play_on_refusal"]
    match, tokens, _ = played(shared_server, 2)
    shared_server.post(f"/api/matches/{match}/resign", {"seat": 0}, tokens[0])
    # A resigned game's position goes on: it can be explored and played on.
    opened = analyse(shared_server, "open", {"match": match})
    assert "won" in opened["result"]
    assert analyse(shared_server, "position", {"source": opened["source"], "line": opened["main"]})[
        "play_on"
    ]


def test_oversized_records_are_refused(shared_server: Server) -> None:
    big = "# Boardlab game record\n" + "x" * (50 * 1024)
    refusal(shared_server, "open", {"record": big}, 413, "larger than")
    huge = "# Boardlab game record\n" + "x" * (100 * 1024)
    refusal(shared_server, "open", {"record": huge}, 413, "larger than")


def test_bot_searches_are_rate_limited(tmp_path: Any) -> None:
    # Refilled once in 1000 minutes: however long the searches take (a bot worker's first start
    # takes seconds on a loaded machine), no allowance comes back during the burst.
    options = ("--analysis-burst", "6", "--analyses-per-minute", "0.001")
    server = start_server(tmp_path / "limits.sqlite3", options=options)
    try:
        statuses = [
            server.post("/api/analysis/evaluate", {"source": MG, "bot": "random"}) for _ in range(8)
        ]
        assert [status for status, _ in statuses[:6]] == [200] * 6
        assert statuses[6][0] == 429 and "too many analyses" in statuses[6][1]["error"]
    finally:
        server.stop()


# -- hidden information -------------------------------------------------------------------


def north_attacks(server: Server, south_lineup: list[str]) -> tuple[str, list[str], str]:
    """Everything the analysis endpoints tell North and a spectator while North deploys
    after South deployed ``south_lineup``: the match id, the answers, South's turn."""
    match, (south, north) = create(
        server, {"game": "cyvasse", "options": {"seed": 3}, "seats": [{"kind": "human"}] * 2}
    )
    assert south and north
    status, _ = server.post(
        f"/api/matches/{match}/turn", {"seat": 0, "ply": 0, "turn": "+".join(south_lineup)}, south
    )
    assert status == 200
    north_full = deployment(NORTH_ZONE)
    answers = []
    for token in (north, None):
        answers.append(json.dumps(server.post("/api/analysis/open", {"match": match}, token)))
        for at in (0, 1):
            source = {"match": match, "at": at}
            for line in (
                [],
                north_full[:3],
                north_full,
                [*north_full, "pass"],
                ["K@" + SOUTH_ZONE[0]],
            ):
                body: dict[str, Any] = {"source": source, "line": line}
                answers.append(json.dumps(server.post("/api/analysis/position", body, token)))
                body |= {"seat": 1, "bot": "random"}
                answers.append(json.dumps(server.post("/api/analysis/play", body, token)))
            # What a search sees (its figures of the position) cannot depend on South's army.
            status, found = server.post(
                "/api/analysis/evaluate", {"source": source, "bot": "random"}, token
            )
            assert status == 200, found
            answers.append(json.dumps(found["before"]))
        answers.append(
            json.dumps(
                server.post("/api/analysis/position", {"source": {"match": match, "at": 2}}, token)
            )
        )
    return match, answers, "+".join(south_lineup)


def test_a_live_hidden_deployment_never_reaches_the_analysis(tmp_path: Any) -> None:
    server = start_server(tmp_path / "hidden.sqlite3")
    try:
        first, seen_first, south_first = north_attacks(server, deployment(SOUTH_ZONE))
        second, seen_second, south_second = north_attacks(server, deployment(SOUTH_ZONE[::-1]))
    finally:
        server.stop()
    assert south_first != south_second
    normalise = [
        [payload.replace(first, "ID").replace(second, "ID") for payload in seen]
        for seen in (seen_first, seen_second)
    ]
    # Byte for byte the same whatever South deployed: no answer depends on the secret. (Single
    # placements of South's such as K@a1 do appear, as legal moves of the start position.)
    assert normalise[0] == normalise[1]
    blob = "\n".join(seen_first + seen_second)
    assert south_first not in blob and south_second not in blob
    assert "play on is possible once nothing in this match is hidden from you" in blob
    assert '"hidden": true' in blob


def test_after_the_deployment_everything_is_open_to_analysis(shared_server: Server) -> None:
    match, (south, north) = create(
        shared_server, {"game": "cyvasse", "seats": [{"kind": "human"}, {"kind": "invite"}]}
    )
    preset(shared_server, match, south, 0, 0, "classic")
    # South sees its own deployment (North has placed nothing yet); North sees its own view.
    own = analyse(shared_server, "open", {"match": match}, south)
    assert own["turns"] == [19] and own["source"]["game"] == "cyvasse"
    other = analyse(shared_server, "open", {"match": match}, north)
    assert other["main"] == [] and other["source"] == {"match": match, "at": 1}
    assert analyse(shared_server, "position", {"source": other["source"]}, north)["hidden"]
    preset(shared_server, match, north, 1, 1, "vanguard")
    for token in (north, None):
        opened = analyse(shared_server, "open", {"match": match}, token)
        assert len(opened["main"]) == sum(opened["turns"]) and opened["turns"][0] == 19
        assert opened["source"]["game"] == "cyvasse"


# -- hostile bodies -----------------------------------------------------------------------

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**30), 10**30),
    st.text(max_size=30),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
FUZZ_EXAMPLES = int(os.environ.get("BOARDLAB_ANALYSIS_FUZZ_EXAMPLES", "60"))
"""Examples of the hostile-body test (more for a longer run)."""
MG_MOVES = boardlab.make("murus-gallicus").new_initial_state().legal_moves()


@st.composite
def analysis_bodies(draw: st.DrawFn, match: str) -> dict[str, Any]:
    """A body one mutation or so away from the page's own (so the deeper checks are reached)."""
    source = draw(
        st.one_of(
            st.just(MG),
            st.just({"match": match, "at": draw(st.one_of(st.integers(-2, 5), JUNK))}),
            st.fixed_dictionaries(
                {
                    "game": st.sampled_from(["cyvasse", "anacund", "colosseum-offcuts", "x"]),
                    "options": st.one_of(
                        st.dictionaries(
                            st.sampled_from(["players", "seed", "max_plies", "layout", "q"]),
                            st.one_of(st.integers(-5, 10**20), st.text(max_size=8)),
                            max_size=3,
                        ),
                        JUNK,
                    ),
                    "start": st.one_of(st.none(), st.text(max_size=40), JUNK),
                }
            ),
            JUNK,
        )
    )
    body: dict[str, Any] = {"source": source}
    step = st.one_of(st.sampled_from([*MG_MOVES, "resign", "pass", "end"]), st.text(max_size=8))
    body["line"] = draw(st.one_of(st.lists(step, max_size=6), JUNK))
    for key, values in (
        ("at", st.one_of(st.integers(-1, 7), JUNK)),
        ("bot", st.one_of(st.sampled_from(["random", "level:easy", "human"]), JUNK)),
        ("seat", st.one_of(st.integers(-1, 5), JUNK)),
        ("preset", st.one_of(st.sampled_from(["classic", "random"]), JUNK)),
        ("record", st.one_of(st.text(max_size=200), JUNK)),
        ("match", st.one_of(st.just(match), JUNK)),
    ):
        if draw(st.booleans()):
            body[key] = draw(values)
    return body


@settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_hostile_analysis_bodies_get_a_sentence_never_a_failure(
    shared_server: Server, data: st.DataObject
) -> None:
    match = create(shared_server, {"game": "murus-gallicus", "seats": [{"kind": "human"}] * 2})[0]
    path = data.draw(st.sampled_from(["open", "position", "evaluate", "play"]))
    status, answer = shared_server.post(f"/api/analysis/{path}", data.draw(analysis_bodies(match)))
    assert status < 500, answer
    if status >= 400:
        assert isinstance(answer["error"], str) and "\n" not in answer["error"], answer


def test_a_killed_worker_fails_one_analysis_and_the_next_is_answered(tmp_path: Any) -> None:
    server = start_server(tmp_path / "killed.sqlite3")
    # The killed worker is logged, and so is the analysis it was running.
    server.expect_log(r"^a bot worker died; starting new ones$")
    server.expect_log(r"^the analysis bot level:expert failed")
    try:
        body = {"source": MG, "line": ["a1-a3"], "bot": "level:expert"}
        with ThreadPoolExecutor(1) as pool:
            asked = pool.submit(server.post, "/api/analysis/evaluate", body)
            deadline = time.monotonic() + 120
            workers: list[int] = []
            while not workers and time.monotonic() < deadline:
                # One reading: the fork server, started meanwhile, must not pass for a worker.
                workers = descendants(server.process.pid, first=2)
                time.sleep(0.05)
            assert workers
            for pid in workers:
                os.kill(pid, signal.SIGKILL)
            status, answer = asked.result(60)
        assert status == 503 and answer["error"] == "the analysis bot failed; try again"
        status, found = server.post("/api/analysis/evaluate", {**body, "bot": "random"})
        assert status == 200, found
    finally:
        server.stop()


def test_a_seat_that_resigned_stays_out_in_the_analysis_and_the_match_played_on(
    shared_server: Server,
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
    resigned = view["to_move"]
    status, view = shared_server.post(
        f"/api/matches/{match}/resign", {"seat": resigned}, tokens[resigned]
    )
    assert status == 200, view
    opened = analyse(shared_server, "open", {"match": match})
    assert opened["main"][-1] == "resign"
    answer = analyse(
        shared_server, "position", {"source": opened["source"], "line": opened["main"]}
    )
    assert answer["to_move"] == view["to_move"] and answer["turns"][-1]["text"] == "resign"
    play = {"source": opened["source"], "line": opened["main"], "seat": 0, "bot": "random"}
    created = analyse(shared_server, "play", play)
    token = created["seats"][0]["token"]
    played_on = shared_server.get(f"/api/matches/{created['id']}", token)[1]
    assert [move["turn"] for move in played_on["moves"]][: len(view["moves"])] == [
        move["turn"] for move in view["moves"]
    ]
    assert played_on["moves"][len(view["moves"]) - 1] == view["moves"][-1]


def test_play_on_from_a_match_position_keeps_the_turns_before_it(shared_server: Server) -> None:
    match, _, turns = played(shared_server, 5)
    state = boardlab.make("murus-gallicus").new_initial_state()
    for text in turns[:3]:
        state.play(text)
    line = [state.legal_moves()[-1]]
    body = {"source": {"match": match, "at": 3}, "line": line, "seat": 0, "bot": "random"}
    created = analyse(shared_server, "play", body)
    view = shared_server.get(f"/api/matches/{created['id']}", created["seats"][0]["token"])[1]
    assert [move["turn"] for move in view["moves"]][:4] == [*turns[:3], *line]


def test_a_position_where_the_game_is_over_is_shown_but_not_searched(
    shared_server: Server,
) -> None:
    state = boardlab.make("murus-gallicus").new_initial_state()
    rng = random.Random(5)
    line = []
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        line.append(state.action_to_str(action))
        state.apply_action(action)
    answer = analyse(shared_server, "position", {"source": MG, "line": line})
    assert answer["to_move"] is None and answer["legal"] == [] and answer["result"]
    refusal(shared_server, "evaluate", {"source": MG, "line": line, "bot": "random"}, 409, "over")
    play = {"source": MG, "line": line, "seat": 0, "bot": "random"}
    refusal(shared_server, "play", play, 409, "the game is over")
