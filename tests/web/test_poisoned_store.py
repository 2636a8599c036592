"""No request and no stored row can stop the server from listing or starting (issue 19, item 1).

A create request is checked as a restart will read it (options as the text the store keeps),
so it is refused before anything is stored; a stored match that cannot be loaded anyway (rows
written by hand here) is set aside, logged and reported, and everything else is served.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from boardlab.core.registry import game_class, game_ids
from tests.web.conftest import Server, start_server
from tests.web.test_api import MURUS_HOT_SEAT, create, turn

HUGE = 10**150


def seats_for(game: str) -> list[dict[str, str]]:
    """Human seats, as many as the game has by default."""
    return [{"kind": "human"}] * game_class(game)().num_players


INT_OPTIONS = [
    (game, spec.key)
    for game in game_ids()
    for spec in game_class(game).OPTIONS
    if spec.kind == "int" and spec.key != "players"
]


def match_count(server: Server) -> int:
    status, answer = server.get("/api/matches?limit=200")
    assert status == 200, answer
    return len(answer["matches"])


@pytest.fixture(scope="module")
def poisoned(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A server that was sent every integer option of every game at 10**150 (and the same
    values as booleans and as text): what it answered, and the database it stored in."""
    db = tmp_path_factory.mktemp("poison") / "boardlab.sqlite3"
    server = start_server(db)
    answers: dict[tuple[str, str, str], tuple[int, Any]] = {}
    try:
        for game, key in INT_OPTIONS:
            for form, value in (("int", HUGE), ("text", str(HUGE)), ("bool", True)):
                body = {"game": game, "seats": seats_for(game), "options": {key: value}}
                answers[(game, key, form)] = server.post("/api/matches", body)
        listed = match_count(server)
    finally:
        server.stop()
    return answers, listed, db


@pytest.mark.parametrize(("game", "key"), INT_OPTIONS)
def test_an_option_the_store_could_not_read_back_is_refused(
    poisoned: Any, game: str, key: str
) -> None:
    answers, _, _ = poisoned
    for form in ("int", "text", "bool"):
        status, answer = answers[(game, key, form)]
        assert status == 400, (form, answer)
        assert f"option {key}: bad value" in answer["error"] and "\n" not in answer["error"]


def test_nothing_poisoned_is_stored_and_the_server_starts_again(poisoned: Any) -> None:
    _, listed, db = poisoned
    assert listed == 0
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT COUNT(*) FROM matches").fetchone() == (0,)
    server = start_server(db)
    try:
        assert match_count(server) == 0
        match, (romans, _) = create(server, MURUS_HOT_SEAT)
        assert turn(server, match, romans, 0, 0, "d1-d3")[0] == 200
    finally:
        server.stop()


def _edit_config(db: Path, match: str, change: Any) -> None:
    """Rewrite a stored match's configuration in place, as a hand edit (or old code) might."""
    with sqlite3.connect(db) as connection:
        (text,) = connection.execute("SELECT config FROM matches WHERE id = ?", (match,)).fetchone()
        connection.execute(
            "UPDATE matches SET config = ? WHERE id = ?", (change(json.loads(text)), match)
        )


def test_unloadable_stored_matches_are_set_aside_and_the_rest_served(tmp_path: Path) -> None:
    db = tmp_path / "boardlab.sqlite3"
    server = start_server(db)
    try:
        good, (romans, gauls) = create(server, MURUS_HOT_SEAT)
        assert turn(server, good, romans, 0, 0, "d1-d3")[0] == 200
        # Start-up loads no match waiting for a person: each is set aside when first opened.
        poisoned_options, not_json, illegal_event, finished_poisoned = (
            create(server, MURUS_HOT_SEAT)[0] for _ in range(4)
        )
    finally:
        server.stop()

    def huge_max_plies(config: dict[str, Any]) -> str:
        config["options"]["max_plies"] = str(HUGE)
        return json.dumps(config)

    _edit_config(db, poisoned_options, huge_max_plies)
    # Not loaded at start-up (finished): the lobby listing meets it first.
    _edit_config(db, finished_poisoned, huge_max_plies)
    _edit_config(db, not_json, lambda config: "{not json")
    with sqlite3.connect(db) as connection:
        count = connection.execute(
            "SELECT COUNT(*) FROM events WHERE match_id = ?", (illegal_event,)
        ).fetchone()[0]
        connection.execute(
            "INSERT INTO events (match_id, idx, kind, seat, text) "
            "VALUES (?, ?, 'turn', 0, 'z9-z1')",
            (illegal_event, count),
        )
        connection.execute(
            "UPDATE matches SET status = 'finished' WHERE id = ?", (finished_poisoned,)
        )

    server = start_server(db)
    # Each poisoned match is logged once, as it is set aside (asserted below).
    server.expect_log(r"^match \S+ cannot be loaded and is set aside: ")
    try:
        bad = {poisoned_options, not_json, illegal_event, finished_poisoned}
        status, answer = server.get("/api/matches?limit=200")
        assert status == 200
        listed = {entry["id"] for entry in answer["matches"]}
        # The lobby meets the configurations it cannot read; the rest are found when opened.
        assert good in listed and not listed & {not_json, finished_poisoned}
        status, view = server.get(f"/api/matches/{good}", romans)
        assert status == 200 and view["moves"][0]["turn"] == "d1-d3"
        assert turn(server, good, gauls, 1, 1, "a7-a5")[0] == 200
        for match_id in bad:
            status, answer = server.get(f"/api/matches/{match_id}")
            assert status == 410 and "set aside" in answer["error"]
        status, answer = server.get("/api/matches?limit=200")
        assert {entry["id"] for entry in answer["matches"]} == {good}
        status, health = server.get("/api/health")
        assert status == 200 and health["status"] == "ok"
        assert {entry["id"] for entry in health["set_aside"]} == bad
        log = server.output()
        for match_id in bad:
            assert f"match {match_id} cannot be loaded and is set aside" in log
        assert "Traceback" not in log
    finally:
        server.stop()
    with sqlite3.connect(db) as connection:
        marked = {row[0] for row in connection.execute("SELECT match_id FROM set_aside")}
    assert marked == bad
