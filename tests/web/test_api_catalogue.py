"""The catalogue and the pages: what the lobby reads before any match exists."""

from __future__ import annotations

from boardlab.ai.level_ratings import LADDER, level_rating
from tests.web.conftest import Server

GAMES = {"carnyx", "murus-gallicus", "colosseum-offcuts", "anacund", "cyvasse"}


def test_catalogue_lists_every_game_with_summary_options_and_bots(shared_server: Server) -> None:
    status, data = shared_server.get("/api/catalogue")
    assert status == 200
    games = {game["id"]: game for game in data["games"]}
    assert set(games) == GAMES
    for game in games.values():
        assert len(game["summary"]) > 80
        assert game["min_players"] <= len(game["player_names"]) <= game["max_players"]
    colosseum = games["colosseum-offcuts"]
    assert (colosseum["min_players"], colosseum["max_players"]) == (2, 5)
    board = next(o for o in games["murus-gallicus"]["options"] if o["key"] == "board")
    assert board["kind"] == "choice" and board["default"] == "8x7"
    assert "8x8" in board["choices"]
    assert [bot["spec"] for bot in data["bots"]][1:] == [
        "level:easy",
        "level:medium",
        "level:hard",
        "level:expert",
    ]


def test_catalogue_gives_the_measured_bot_ratings_per_seat_count(shared_server: Server) -> None:
    games = {game["id"]: game for game in shared_server.get("/api/catalogue")[1]["games"]}
    assert set(games["colosseum-offcuts"]["ratings"]) == {"2", "3", "4", "5"}
    for game_id, game in games.items():
        for seats, ratings in game["ratings"].items():
            for spec, rating in ratings.items():
                assert rating == level_rating(game_id, int(seats), spec)
    # Only levels told apart from the level below show a rating, so they rise with the level.
    carnyx = games["carnyx"]["ratings"]["2"]
    shown = [carnyx[spec] for spec in LADDER if spec in carnyx]
    assert carnyx["random"] == 0 and shown == sorted(shown) and len(shown) > 1


def test_unknown_api_path_is_one_json_error(shared_server: Server) -> None:
    status, data = shared_server.get("/api/nothing-here")
    assert status == 404
    assert set(data) == {"error"}


def test_every_answer_carries_the_security_headers(shared_server: Server) -> None:
    import urllib.request

    with urllib.request.urlopen(shared_server.url + "api/catalogue", timeout=30) as answer:
        headers = answer.headers
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert "default-src 'self'" in headers["Content-Security-Policy"]
