"""Playtests through a real server (issue 42): a designer's playtest, playtesters seated by
variant (balanced) beside each other or a bot, the survey once per seat after the game, refused
turns counted, the dashboard for the designer alone, exports holding exactly what was entered,
hidden information kept hidden, and hostile requests refused with one sentence."""

from __future__ import annotations

import csv
import io
import json
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import boardlab
from boardlab.ai.base import Bot
from boardlab.ai.players import make_bot
from boardlab.core.state import State
from tests.web.account_client import Browser as AccountBrowser
from tests.web.conftest import Server, start_server
from tests.web.test_cross_site import EVIL, send

CARNYX = {
    "game": "carnyx",
    "title": "Carnyx: supply or token?",
    "variants": [
        {"name": "Supply", "options": {"conversion": "supply"}},
        {"name": "Token", "options": {"conversion": "token"}},
    ],
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for this module's tests (each makes playtests of its own)."""
    running = start_server(tmp_path_factory.mktemp("playtests") / "store.sqlite3")
    try:
        yield running
    finally:
        running.stop()


def create(server: Server, **fields: Any) -> dict[str, Any]:
    status, answer = server.post("/api/playtests", {**CARNYX, **fields})
    assert status == 201, answer
    made: dict[str, Any] = answer
    return made


def join(server: Server, playtest: str) -> dict[str, Any]:
    status, answer = server.post(f"/api/playtests/{playtest}/join", {})
    assert status in (200, 201), answer
    seated: dict[str, Any] = answer
    return seated


def raw(server: Server, path: str, token: str) -> bytes:
    request = urllib.request.Request(server.url.rstrip("/") + path)
    request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as answer:
        body: bytes = answer.read()
        return body


def test_playtesters_are_spread_evenly_over_the_variants_against_the_bot(server: Server) -> None:
    made = create(server, opponent="random")
    seated = [join(server, made["id"]) for _ in range(6)]
    assert sorted(s["variant"] for s in seated) == ["Variant A"] * 3 + ["Variant B"] * 3
    for one in seated:
        assert not one["waiting"]
        status, view = server.get(f"/api/matches/{one['match']}", one["token"])
        assert status == 200 and view["you"] == [one["seat"]]
        kinds = [player["kind"] for player in view["players"]]
        assert kinds.count("bot") == 1 and kinds[one["seat"]] == "human"
        expected = "token" if one["variant"] == "Variant B" else "supply"
        assert view["options"]["conversion"] == expected == one["options"]["conversion"]


def test_people_wait_for_each_other_and_the_variant_can_be_kept_from_them(server: Server) -> None:
    made = create(server, show_variant=False)
    first = join(server, made["id"])
    assert first["waiting"] and first["variant"] is None and first["options"] is None
    assert server.get(f"/api/playtests/{made['id']}/matches/{first['match']}")[1] == {"open": 1}
    second = join(server, made["id"])
    assert second["match"] == first["match"] and {first["seat"], second["seat"]} == {0, 1}
    assert not second["waiting"]
    assert server.get(f"/api/playtests/{made['id']}/matches/{first['match']}")[1] == {"open": 0}
    third = join(server, made["id"])
    assert third["match"] != first["match"] and third["waiting"]
    # Each holds only their own seat.
    status, view = server.get(f"/api/matches/{first['match']}", second["token"])
    assert status == 200 and view["you"] == [second["seat"]]


def whole_turn(state: State, bot: Bot) -> list[str]:
    """The decisions of one whole turn the bot chooses, played on ``state``."""
    steps: list[str] = []
    while not steps or not (state.is_terminal() or state.turn_start):
        action = bot.choose(state)
        steps.append(state.action_to_str(action))
        state.apply_action(action)
    return steps


def play_out(server: Server, match: str, tokens: dict[int, str]) -> None:
    """Play the match to its end with random decisions (the engine's replay of its view)."""
    status, view = server.get(f"/api/matches/{match}", tokens[0])
    game = boardlab.make(view["game"], **view["options"])
    state = game.new_initial_state()
    bot = make_bot("random", game, 7)
    assert bot is not None
    ply = 0
    while not state.is_terminal():
        seat = state.current_player
        steps = whole_turn(state, bot)
        body = {"seat": seat, "ply": ply, "turn": "+".join(steps)}
        status, answer = server.post(f"/api/matches/{match}/turn", body, tokens[seat])
        assert status == 200, answer
        ply += 1


def test_the_survey_is_answered_once_per_seat_after_the_game_and_exported_as_typed(
    server: Server,
) -> None:
    made = create(server, opponent="people")
    first, second = join(server, made["id"]), join(server, made["id"])
    match, tokens = first["match"], {first["seat"]: first["token"], second["seat"]: second["token"]}
    path = f"/api/playtests/{made['id']}/matches/{match}/survey"
    answer = {"seat": 0, "scores": [5, None, 3, 1], "text": '<script>alert(1)</script>, "=1+1"'}
    assert server.post(path, answer, tokens[0]) == (
        409,
        {"error": "the survey opens when the game ends"},
    )
    # A refused turn is a rule-entry error the dashboard counts.
    refused = server.post(
        f"/api/matches/{match}/turn", {"seat": 0, "ply": 0, "turn": "zz"}, tokens[0]
    )
    assert refused[0] == 422
    play_out(server, match, tokens)
    assert server.get(path, tokens[1])[1]["seats"] == [1]
    assert server.post(path, {**answer, "seat": 1}, tokens[0])[0] == 403
    assert server.post(path, answer)[0] == 403
    for bad in (
        {"seat": 0, "scores": [6, 1, 1, 1]},
        {"seat": 0, "scores": [1, 1, 1]},
        {"seat": 0, "scores": ["5", 1, 1, 1]},
        {"seat": 0, "scores": [True, 1, 1, 1]},
        {"seat": 0, "scores": [None, None, None, None], "text": " "},
        {"seat": 0, "scores": [1, 1, 1, 1], "text": "x" * 2001},
        {"seat": "0", "scores": [1, 1, 1, 1]},
    ):
        status, refusal = server.post(path, bad, tokens[0])
        assert status == 400 and refusal["error"].endswith(
            ("null)", "null", "characters", "comment", "1")
        ), refusal
    assert server.post(path, answer, tokens[0]) == (201, {"thanks": True})
    assert server.post(path, answer, tokens[0])[0] == 409
    assert server.get(path, tokens[0])[1]["answered"] == [0]
    second_answer = {"seat": 1, "scores": [2, 2, 2, 2], "text": ""}
    assert server.post(path, second_answer, tokens[1])[0] == 201

    rows = list(
        csv.reader(
            io.StringIO(
                raw(server, f"/api/playtests/{made['id']}/answers.csv", made["token"]).decode()
            )
        )
    )
    assert rows[0][:3] == ["match", "variant", "seat"] and len(rows) == 3
    assert rows[1][2:7] == ["0", "5", "", "3", "1"] and rows[1][7] == answer["text"]
    assert rows[2][2:8] == ["1", "2", "2", "2", "2", ""]
    status, data = server.get(f"/api/playtests/{made['id']}/dashboard", made["token"])
    assert status == 200
    variant = next(v for v in data["variants"] if v["people"]["games"] == 1)
    assert variant["survey"]["texts"] == [answer["text"]]
    assert variant["survey"]["questions"][0]["spread"] == [0, 1, 0, 0, 1]
    assert variant["people"]["refused"]["count"] == 1
    assert variant["people"]["refused"]["typed"] == [{"turn": "zz", "count": 1}]
    assert data["games"][0]["status"] == "finished"
    report = raw(server, f"/api/playtests/{made['id']}/report.html", made["token"]).decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in report and "<script>" not in report
    with zipfile.ZipFile(
        io.BytesIO(raw(server, f"/api/playtests/{made['id']}/records.zip", made["token"]))
    ) as records:
        (name,) = records.namelist()
        record = records.read(name).decode()
    assert name == f"carnyx-{match}.txt" and "Result: *" not in record
    assert f"Option conversion: {variant['options']['conversion']}" in record
    assert (
        raw(server, f"/api/playtests/{made['id']}/report.png", made["token"])[:8]
        == b"\x89PNG\r\n\x1a\n"
    )


def test_only_the_designer_reads_the_dashboard(server: Server) -> None:
    made = create(server, opponent="random")
    seated = join(server, made["id"])
    refused = (
        403,
        {"error": "only the playtest's designer may read its dashboard: open the private link"},
    )
    for path in (
        "dashboard",
        "answers.csv",
        "games.csv",
        "export.json",
        "records.zip",
        "report.html",
        "report.png",
    ):
        full = f"/api/playtests/{made['id']}/{path}"
        assert server.get(full) == refused
        assert server.get(full, seated["token"]) == refused  # a playtester's seat token
        assert (
            server.get(full, made["token"][:-1] + ("A" if made["token"][-1] != "A" else "B"))
            == refused
        )
        assert server.get(full, "x" * 65)[0] == 400
    other = create(server)
    assert server.get(f"/api/playtests/{made['id']}/dashboard", other["token"]) == refused
    assert server.post(f"/api/playtests/{made['id']}/bots", {}, seated["token"]) == refused
    assert server.get(f"/api/playtests/{made['id']}/dashboard", made["token"])[0] == 200
    assert server.get("/api/playtests/AAAAAAAAAAAAAAAA/dashboard", made["token"]) == (
        404,
        {"error": "there is no playtest with this id"},
    )
    # The token is 256 bits and the store keeps only its hash.
    assert len(made["token"]) == 43 and made["dashboard"].endswith(f"#token={made['token']}")
    assert made["token"].encode() not in server.db.read_bytes()


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"game": "chess"}, "'game' must be one of"),
        ({"variants": []}, "'variants' must list 1 to 4 variants"),
        ({"variants": [{"name": "a", "options": {}}] * 5}, "'variants' must list 1 to 4"),
        ({"variants": [{"name": "x", "options": {"conversion": "gold"}}]}, "conversion"),
        ({"variants": [{"name": "a", "options": {}}, {"name": "b", "options": {}}]}, "same rules"),
        ({"variants": "supply"}, "'variants' must list"),
        ({"opponent": "level:godlike"}, "'opponent' must be people or one of"),
        ({"ends": "2000-01-01"}, "'ends' must be a date"),
        ({"ends": "tomorrow"}, "'ends' must be a date"),
        ({"questions": []}, "'questions' must list 1 to 8"),
        ({"questions": ["?" * 201]}, "at most 200 characters"),
        ({"questions": [3]}, "each question must be a non-empty text"),
        ({"show_variant": "yes"}, "'show_variant' must be true or false"),
        ({"clock": {"base": -1}}, "clock"),
        ({"title": ""}, "'title' must be a non-empty text"),
        ({"owner": "me"}, "unknown field 'owner'"),
    ],
)
def test_a_bad_playtest_is_refused_with_one_sentence(
    server: Server, body: dict[str, Any], error: str
) -> None:
    status, answer = server.post("/api/playtests", {**CARNYX, **body})
    assert status == 400 and error in answer["error"], answer


def test_bodies_too_large_or_not_json_objects_are_refused(server: Server) -> None:
    made = create(server)
    huge = json.dumps({**CARNYX, "title": "x" * 70_000})
    headers = {"Content-Type": "application/json"}
    assert send(server, "POST", "/api/playtests", huge, headers)[0] == 413
    assert send(server, "POST", "/api/playtests", "[1]", headers)[0] == 400
    assert send(server, "POST", f"/api/playtests/{made['id']}/join", "{", headers)[0] == 400
    assert server.get("/api/playtests/nope")[0] == 404
    assert server.get(f"/api/playtests/{made['id']}/matches/AAAAAAAAAAAAAAAA")[0] == 404


def test_another_site_cannot_make_join_or_answer(server: Server) -> None:
    made = create(server, opponent="random")
    body = json.dumps(CARNYX)
    for path in ("/api/playtests", f"/api/playtests/{made['id']}/join"):
        for headers in (
            {"Content-Type": "application/json", "Origin": EVIL},
            {"Content-Type": "text/plain"},
        ):
            assert send(server, "POST", path, body, headers)[0] in (403, 415)
    status, data = server.get(f"/api/playtests/{made['id']}/dashboard", made["token"])
    assert status == 200 and data["games"] == []


def test_a_cyvasse_playtest_hides_a_deployment_until_both_have_deployed(server: Server) -> None:
    made = create(server, game="cyvasse", variants=None, title="Cyvasse")
    first, second = join(server, made["id"]), join(server, made["id"])
    south = first if first["seat"] == 0 else second
    game = boardlab.make("cyvasse")
    state = game.new_initial_state()
    bot = make_bot("random", game, 3)
    assert bot is not None
    steps = whole_turn(state, bot)
    turn = "+".join(steps)
    status, _ = server.post(
        f"/api/matches/{south['match']}/turn", {"seat": 0, "ply": 0, "turn": turn}, south["token"]
    )
    assert status == 200
    seen = [
        json.dumps(server.get(f"/api/playtests/{made['id']}/dashboard", made["token"])[1]),
        raw(server, f"/api/playtests/{made['id']}/export.json", made["token"]).decode(),
        raw(server, f"/api/playtests/{made['id']}/report.html", made["token"]).decode(),
        json.dumps(server.get(f"/api/playtests/{made['id']}")[1]),
    ]
    with zipfile.ZipFile(
        io.BytesIO(raw(server, f"/api/playtests/{made['id']}/records.zip", made["token"]))
    ) as records:
        assert records.namelist() == []
    for text in seen:
        assert steps[0] not in text and steps[5] not in text


def test_playtests_are_rate_limited_per_address(tmp_path: Path) -> None:
    limited = start_server(
        tmp_path / "store.sqlite3", options=("--creation-burst", "3", "--chat-burst", "1")
    )
    try:
        made = [limited.post("/api/playtests", {**CARNYX, "opponent": "random"}) for _ in range(2)]
        assert [status for status, _ in made] == [201, 201]
        playtest = made[0][1]
        assert limited.post(f"/api/playtests/{playtest['id']}/join", {})[0] == 201
        status, refusal = limited.post(f"/api/playtests/{playtest['id']}/join", {})
        assert status == 429 and refusal["error"].startswith("too many match creations")
        survey = f"/api/playtests/{playtest['id']}/matches/{'A' * 16}/survey"
        assert limited.post(survey, {})[0] == 404  # counted, then refused: no such match
        status, refusal = limited.post(survey, {})
        assert status == 429 and refusal["error"].startswith("too many survey answers")
    finally:
        limited.stop()


def test_a_signed_in_designer_opens_the_dashboard_with_the_account(server: Server) -> None:
    designer, stranger = AccountBrowser(server), AccountBrowser(server)
    assert (
        designer.request(
            "POST", "/api/account/signup", {"name": "gary", "password": "carnyx-sheet"}
        )[0]
        == 201
    )
    status, made = designer.request("POST", "/api/playtests", {**CARNYX, "opponent": "random"})
    assert status == 201 and made["owned"]
    assert designer.request("GET", f"/api/playtests/{made['id']}/dashboard")[0] == 200
    assert designer.request("GET", "/api/playtests")[1]["playtests"] == [
        {"id": made["id"], "title": CARNYX["title"], "game": "carnyx"}
    ]
    assert stranger.request("GET", f"/api/playtests/{made['id']}/dashboard")[0] == 403
    assert stranger.request("GET", "/api/playtests") == (200, {"playtests": []})


def test_the_time_control_is_every_playtest_match_s(server: Server) -> None:
    made = create(server, opponent="random", clock={"base": 300, "increment": 5})
    seated = join(server, made["id"])
    status, view = server.get(f"/api/matches/{seated['match']}", seated["token"])
    assert status == 200 and view["clock"] is not None
    assert server.get(f"/api/playtests/{made['id']}")[1]["clock"] == "5+5"


def test_the_designer_chooses_the_self_play_bot_within_the_bounded_ones(server: Server) -> None:
    made = create(server, variants=[{"name": "Quick", "options": {"max_plies": 4}}])
    path = f"/api/playtests/{made['id']}/bots"
    status, refusal = server.post(path, {"bot": "level:expert"}, made["token"])
    assert status == 400 and refusal["error"].startswith("'bot' must be one of: random")
    assert server.post(path, {"bot": "random"}, made["token"]) == (202, {"running": True})
    deadline = time.monotonic() + 120
    while server.get(f"/api/playtests/{made['id']}/dashboard", made["token"])[1]["bots_running"]:
        assert time.monotonic() < deadline
        time.sleep(0.3)
    status, data = server.get(f"/api/playtests/{made['id']}/dashboard", made["token"])
    bots = data["variants"][0]["bots"]
    assert bots["bot"] == "random" and bots["games"] == 24
    assert bots["endings"] == {"ply cap": 24} and set(bots["lengths"]) == {4}
