"""The archive, imports and the records zip against a real server (issue 41, item 4).

A finished record imported into a player's history is checked by replaying it, listed as
imported and unrated, and served back so that ``boardlab replay`` reads it; an illegal,
unfinished, oversized or ill-typed one is refused with a sentence; a guest and another site
cannot import, and one account's zip never holds another's imports. The search refuses
malformed filters with a sentence, pages with its ``next`` cursor and filters by options; the
player's page says nothing private.
"""

from __future__ import annotations

import http.client
import io
import json
import sqlite3
import time
import zipfile
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.web.account_client import COOKIE, Browser, new_name, sign_up
from tests.web.conftest import Server, start_server
from tests.web.test_accounts import leaked
from tests.web.test_api import MURUS_HOT_SEAT, create, replayed
from tests.web.test_api_hidden import preset

RECORD = (
    "# Boardlab game record\nGame: murus-gallicus\nOption board: 8x8\n"
    "Result: Romans=loss Gauls=win\nTermination: resignation\n\n1 Romans: d1-d3\n"
)


def imported(browser: Browser, record: str = RECORD, seat: int = 0) -> dict[str, str]:
    """Import ``record`` as ``browser``'s account at ``seat``; the answer (id, game, result)."""
    status, answer = browser.post("/api/account/import", {"record": record, "seat": seat})
    assert status == 201, answer
    result: dict[str, str] = answer
    return result


def zipped(browser: Browser) -> dict[str, str]:
    """The records zip of ``browser``'s account: file name to text."""
    connection = http.client.HTTPConnection("127.0.0.1", browser.server.port, timeout=60)
    try:
        connection.request(
            "GET", "/api/account/records.zip", headers={"Cookie": f"{COOKIE}={browser.cookie}"}
        )
        answer = connection.getresponse()
        assert answer.status == 200 and answer.getheader("Content-Type") == "application/zip"
        raw = answer.read()
    finally:
        connection.close()
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        return {name: archive.read(name).decode() for name in archive.namelist()}


def test_an_imported_record_joins_the_history_unrated_and_replays(
    shared_server: Server, tmp_path: Path
) -> None:
    ada = Browser(shared_server)
    name = sign_up(ada)
    answer = imported(ada, seat=1)
    assert answer["result"] == "Gauls won (resignation)"
    status, found = ada.get(f"/api/games?player={name}")
    (game,) = found["games"]
    assert game["id"] == answer["id"] and game["imported"] and not game["rated"]
    assert [(p["name"], p["player"], p["result"]) for p in game["players"]] == [
        (None, "imported", "loss"),
        (name, "imported", "win"),
    ]
    assert game["options"]["board"] == "8x8"
    assert ada.get(f"/api/games?player={name}&options=board=8x7")[1]["games"] == []
    assert ada.get(f"/api/games?player={name}&options=board=8x8,max_plies=400")[1]["games"]
    status, text = Browser(shared_server).get(f"/api/games/{answer['id']}/record")
    assert status == 200 and "1 Romans: d1-d3" in text
    assert "Result: Gauls won (resignation)" in replayed(text, tmp_path)
    # No rating moves for an imported game.
    profile = ada.get(f"/api/players/{name}")[1]
    assert profile["ratings"] == [] and profile["games"][0]["win"] == 1
    # In the zip, replayable too.
    (only,) = zipped(ada).values()
    assert only == text


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        ({"record": "not a record", "seat": 0}, 400, "the record:1: not a Boardlab record"),
        (
            {"record": RECORD.replace("d1-d3", "d1-d7"), "seat": 0},
            400,
            "the record:7: ",
        ),
        (
            {
                "record": RECORD.replace(
                    "Result: Romans=loss Gauls=win\nTermination: resignation\n", ""
                ),
                "seat": 0,
            },
            400,
            "the record's game is not finished: only finished games go into your history",
        ),
        ({"record": RECORD + "x" * 49_200, "seat": 0}, 413, "the record is larger than"),
        ({"record": 5, "seat": 0}, 400, "'record' must be the text of a game record"),
        ({"record": RECORD, "seat": "0"}, 400, "'seat' must be an integer from 0 to 4"),
        ({"record": RECORD, "seat": 2}, 400, "'seat' must be one of the record's 2 seats"),
    ],
)
def test_a_bad_import_is_refused_with_a_sentence(
    shared_server: Server, body: dict[str, object], status: int, error: str
) -> None:
    ada = Browser(shared_server)
    name = sign_up(ada)
    got, answer = ada.post("/api/account/import", body)
    assert got == status and answer["error"].startswith(error), answer
    assert ada.get(f"/api/games?player={name}")[1]["games"] == []


def test_guests_other_sites_and_other_accounts_cannot_use_a_players_records(
    shared_server: Server,
) -> None:
    guest, ada, bob = Browser(shared_server), Browser(shared_server), Browser(shared_server)
    sign_up(ada)
    bob_name = sign_up(bob)
    assert guest.post("/api/account/import", {"record": RECORD, "seat": 0})[0] == 401
    assert guest.get("/api/account/records.zip")[0] == 401
    raw = json.dumps({"record": RECORD, "seat": 0}).encode()
    evil = {"Origin": "https://evil.example", "Content-Type": "application/json"}
    assert ada.request("POST", "/api/account/import", raw=raw, headers=evil)[0] == 403
    plain = {"Content-Type": "text/plain"}
    assert ada.request("POST", "/api/account/import", raw=raw, headers=plain)[0] == 415
    mine = imported(ada)
    # Bob's zip holds Bob's games only, whatever he sends; the import named nobody but Ada.
    assert zipped(bob) == {}
    assert ada.post("/api/account/import", {"record": RECORD, "seat": 0, "account": "x"})[0] == 201
    assert bob.get(f"/api/games?player={bob_name}")[1]["games"] == []
    # A player's page holds nothing private: no token, hash, session or address.
    profile = json.dumps(ada.get(f"/api/players/{bob_name}")[1])
    for secret in ("token", "password", "session", "127.0.0.1", "hash"):
        assert secret not in profile
    assert mine["id"] not in profile


@pytest.mark.parametrize(
    ("query", "error"),
    [
        ("game=chess", "'game' must be one of"),
        ("result=won", "'result' must be win, loss or draw"),
        ("from=2026-13-01", "'from' must be a date written YYYY-MM-DD"),
        ("to=yesterday", "'to' must be a date written YYYY-MM-DD"),
        ("options=board", "'options' must be at most 8 key=value pairs"),
        ("options=" + ",".join(["a=1"] * 9), "'options' must be at most 8 key=value pairs"),
        ("after=nonsense", "'after' must be the 'next' of the previous page"),
        ("player=%3Cb%3E", "a player's name is 3 to 20 letters"),
        ("limit=1000", "'limit' must be an integer from 1 to 100"),
    ],
)
def test_a_malformed_search_is_refused_with_a_sentence(
    shared_server: Server, query: str, error: str
) -> None:
    status, answer = shared_server.get(f"/api/games?{query}")
    assert status == 400 and answer["error"].startswith(error), answer


def test_the_search_pages_with_its_cursor_and_knows_no_unknown_player(
    shared_server: Server,
) -> None:
    ada = Browser(shared_server)
    name = sign_up(ada)
    ids = [imported(ada)["id"] for _ in range(3)]
    first = ada.get(f"/api/games?player={name}&limit=2")[1]
    assert [g["id"] for g in first["games"]] == ids[::-1][:2] and first["next"]
    second = ada.get(f"/api/games?player={name}&limit=2&after={quote(first['next'])}")[1]
    assert [g["id"] for g in second["games"]] == ids[:1] and second["next"] is None
    today = first["games"][0]["ended"][:10]
    dated = ada.get(f"/api/games?player={name}&from={today}&to={today}")[1]["games"]
    assert len(dated) == 3
    assert ada.get(f"/api/games?player={name}&to=2000-01-01")[1]["games"] == []
    nobody = new_name("nobody")
    assert shared_server.get(f"/api/games?player={nobody}")[0] == 404
    assert shared_server.get(f"/api/players/{nobody}") == (
        404,
        {"error": f"there is no player named {nobody}"},
    )
    assert shared_server.get(f"/api/games/{ids[0][:15]}!/record")[0] == 404


def test_a_records_zip_never_reveals_what_the_game_kept_hidden_from_its_player(
    shared_server: Server,
) -> None:
    ada, bob = Browser(shared_server), Browser(shared_server)
    sign_up(ada)
    sign_up(bob)
    seats = [{"kind": "human"}, {"kind": "invite"}]
    status, answer = ada.post("/api/matches", {"game": "cyvasse", "seats": seats})
    assert status == 201
    match = answer["id"]
    claim = {"seat": 1, "token": answer["seats"][1]["token"]}
    assert bob.post(f"/api/matches/{match}/claim", claim)[0] == 200
    lineup = preset(shared_server, match, answer["seats"][0]["token"], 0, 0, "classic")
    placements = lineup["moves"][0]["turn"]
    assert placements != "(hidden)"
    # Bob resigns before deploying: Ada's lineup was never revealed to him.
    assert bob.post(f"/api/matches/{match}/resign", {"seat": 1})[0] == 200
    assert bob.get(f"/api/matches/{match}/record")[0] == 409
    theirs = zipped(bob)
    assert list(theirs) == ["not-included.txt"] and match in theirs["not-included.txt"]
    assert not leaked(placements, theirs)
    # Ada's own record holds her lineup, as her page shows it.
    (mine,) = [text for name, text in zipped(ada).items() if match in name]
    assert placements.split("+")[0] in mine


def test_finished_matches_the_archive_lacks_are_kept_at_start(tmp_path: Path) -> None:
    db = tmp_path / "boardlab.sqlite3"
    server = start_server(db)
    try:
        ended, tokens = create(server, MURUS_HOT_SEAT)
        assert server.post(f"/api/matches/{ended}/resign", {"seat": 0}, tokens[0])[0] == 200
        aborted, tokens = create(server, MURUS_HOT_SEAT)
        assert server.post(f"/api/matches/{aborted}/abort", {"seat": 0}, tokens[0])[0] == 200
        assert [g["id"] for g in server.get("/api/games")[1]["games"]] == [ended]
    finally:
        server.stop()
    # As if the match had ended before the archive existed.
    with sqlite3.connect(db) as connection:
        for table in ("archive_options", "archive_players"):
            connection.execute(f"DELETE FROM {table}")
        connection.execute("DELETE FROM archive_games")
    server = start_server(db)
    try:
        for _ in range(100):
            games = server.get("/api/games")[1]["games"]
            if games:
                break
            time.sleep(0.1)
        assert [(g["id"], g["result"]) for g in games] == [(ended, "Gauls won (resignation)")]
        assert [p["player"] for p in games[0]["players"]] == ["guest", "guest"]
    finally:
        server.stop()
