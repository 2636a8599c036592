"""Rated games against a real server (issue 41, item 2): who may start and join one, ratings
that move exactly as OpenSkill computes them (two seats, three seats, a draw), once per match,
and never for an aborted or casual match; the player's page shows them; the same on a server
whose store is PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from tests.web.account_client import Browser, sign_up
from tests.web.conftest import Server, start_server

MODEL = PlackettLuce()


def rated_match(
    creator: Browser, others: list[Browser], game: str = "murus-gallicus", **extra: Any
) -> tuple[str, list[str]]:
    """A rated match made by ``creator`` (seat 0) whose invites ``others`` claim in turn;
    its id and each seat's token."""
    seats = [{"kind": "human"}] + [{"kind": "invite"}] * len(others)
    body = {"game": game, "seats": seats, "rated": True, **extra}
    status, answer = creator.post("/api/matches", body)
    assert status == 201, answer
    match = answer["id"]
    tokens = [answer["seats"][0]["token"]]
    for seat, browser in enumerate(others, 1):
        status, claimed = browser.post(
            f"/api/matches/{match}/claim", {"seat": seat, "token": answer["seats"][seat]["token"]}
        )
        assert status == 200, claimed
        tokens.append(claimed["token"])
    return match, tokens


def rating(browser: Browser, name: str, game: str, speed: str) -> dict[str, Any] | None:
    status, profile = browser.get(f"/api/players/{name}")
    assert status == 200, profile
    found = [r for r in profile["ratings"] if (r["game"], r["speed"]) == (game, speed)]
    return found[0] if found else None


def expected(ranks: list[int]) -> list[Any]:
    """OpenSkill's own answer for new players, computed here from the library directly."""
    teams = [[MODEL.rating()] for _ in ranks]
    return [team[0] for team in MODEL.rate(teams, ranks=[float(rank) for rank in ranks])]


def test_who_may_start_or_join_a_rated_game(shared_server: Server) -> None:
    guest, ada, bob = Browser(shared_server), Browser(shared_server), Browser(shared_server)
    sign_up(ada)
    sign_up(bob)
    body: dict[str, Any] = {"game": "murus-gallicus", "rated": True}
    two = [{"kind": "human"}, {"kind": "invite"}]
    status, answer = guest.post("/api/matches", {**body, "seats": two})
    assert (status, answer["error"]) == (
        403,
        "sign in to start a rated game: ratings belong to accounts",
    )
    bot = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    assert ada.post("/api/matches", {**body, "seats": bot})[0] == 400
    hot_seat = [{"kind": "human"}, {"kind": "human"}]
    assert ada.post("/api/matches", {**body, "seats": hot_seat})[0] == 400
    assert ada.post("/api/matches", {**body, "seats": two, "rated": "yes"})[0] == 400
    status, answer = ada.post("/api/matches", {**body, "seats": two})
    assert status == 201
    match, link = answer["id"], answer["seats"][1]["token"]
    claim = {"seat": 1, "token": link}
    # A guest cannot take the seat, nor can the creator's own account: each seat is another's.
    assert guest.post(f"/api/matches/{match}/claim", claim)[1] == {
        "error": "this game is rated: sign in, then open the invite link again to take your seat"
    }
    assert ada.post(f"/api/matches/{match}/claim", claim)[0] == 409
    assert bob.post(f"/api/matches/{match}/claim", claim)[0] == 200
    assert ada.get(f"/api/matches/{match}")[0] == 200


def test_a_rated_game_moves_both_ratings_as_openskill_says_once(shared_server: Server) -> None:
    ada, bob = Browser(shared_server), Browser(shared_server)
    ada_name, bob_name = sign_up(ada), sign_up(bob)
    match, _ = rated_match(ada, [bob], clock={"base": 180, "increment": 2})
    assert rating(ada, ada_name, "murus-gallicus", "realtime") is None
    assert ada.post(f"/api/matches/{match}/turn", {"seat": 0, "ply": 0, "turn": "d1-d3"})[0] == 200
    assert bob.post(f"/api/matches/{match}/resign", {"seat": 1})[0] == 200
    won, lost = expected([1, 2])
    mine = rating(bob, ada_name, "murus-gallicus", "realtime")
    theirs = rating(ada, bob_name, "murus-gallicus", "realtime")
    assert mine is not None and theirs is not None
    assert (mine["mu"], mine["sigma"], mine["games"]) == (round(won.mu, 3), round(won.sigma, 3), 1)
    assert (theirs["mu"], theirs["sigma"]) == (round(lost.mu, 3), round(lost.sigma, 3))
    assert mine["provisional"] and mine["shown"].endswith("?")
    # Shown on a 1500 scale, 40 points a unit of mu, with two sigmas as its uncertainty.
    assert mine["rating"] == round(1500 + 40 * (won.mu - 25)) > 1500
    assert mine["shown"] == f"{mine['rating']} ± {round(80 * won.sigma)}?"
    # The rematch event after the end tells the observer again: nothing changes twice.
    assert bob.post(f"/api/matches/{match}/rematch", {})[0] == 201
    again = rating(ada, ada_name, "murus-gallicus", "realtime")
    assert again == mine
    profile = ada.get(f"/api/players/{ada_name}")[1]
    assert [(h["match"], h["games"]) for h in profile["history"]] == [(match, 1)]
    assert profile["games"] == [
        {"game": "murus-gallicus", "game_name": "Murus Gallicus", "win": 1, "loss": 0, "draw": 0}
    ]
    # The rematch is rated too and in progress: a current game of both.
    assert [g["rated"] for g in profile["current"]] == [True]


def test_a_draw_an_abort_and_a_casual_game(shared_server: Server) -> None:
    ada, bob = Browser(shared_server), Browser(shared_server)
    ada_name, bob_name = sign_up(ada), sign_up(bob)
    # Correspondence (days per move): its own rating. A draw by agreement.
    match, _ = rated_match(ada, [bob], clock={"days": 3})
    assert ada.post(f"/api/matches/{match}/turn", {"seat": 0, "ply": 0, "turn": "d1-d3"})[0] == 200
    assert ada.post(f"/api/matches/{match}/offer", {"seat": 0, "kind": "draw"})[0] == 200
    assert bob.post(f"/api/matches/{match}/accept", {"seat": 1, "kind": "draw", "ply": 1})[0] == 200
    drawn = expected([1, 1])[0]
    found = rating(ada, bob_name, "murus-gallicus", "correspondence")
    assert found is not None and (found["mu"], found["sigma"]) == (
        round(drawn.mu, 3),
        round(drawn.sigma, 3),
    )
    # Aborted before both sides moved: no rating change at all.
    aborted, _ = rated_match(ada, [bob])
    assert ada.post(f"/api/matches/{aborted}/abort", {"seat": 0})[0] == 200
    # A casual game between the same accounts: no change either.
    _, answer = ada.post(
        "/api/matches", {"game": "murus-gallicus", "seats": [{"kind": "human"}, {"kind": "invite"}]}
    )
    casual = answer["id"]
    bob.post(f"/api/matches/{casual}/claim", {"seat": 1, "token": answer["seats"][1]["token"]})
    assert ada.post(f"/api/matches/{casual}/resign", {"seat": 0})[0] == 200
    profile = ada.get(f"/api/players/{ada_name}")[1]
    assert [(r["speed"], r["games"]) for r in profile["ratings"]] == [("correspondence", 1)]
    assert [h["match"] for h in profile["history"]] == [match]
    # The casual game is archived (as casual), the aborted one is not.
    games = ada.get(f"/api/games?player={ada_name}")[1]["games"]
    assert [(g["id"], g["rated"]) for g in games] == [(casual, False), (match, True)]


def test_three_seats_of_colosseum_offcuts_are_rated_with_shared_places(
    shared_server: Server,
) -> None:
    browsers = [Browser(shared_server) for _ in range(3)]
    names = [sign_up(browser) for browser in browsers]
    match, _ = rated_match(browsers[0], browsers[1:], "colosseum-offcuts", options={"players": 3})
    # P1 resigns at the start: a resignation that leaves no game to play on ends it, P1 last
    # and the two others sharing the first place.
    assert browsers[0].post(f"/api/matches/{match}/resign", {"seat": 0})[0] == 200
    view = browsers[2].get(f"/api/matches/{match}")[1]
    assert view["result"]["results"] == ["loss", "win", "win"]
    after = expected([2, 1, 1])
    for name, skill in zip(names, after, strict=True):
        found = rating(browsers[0], name, "colosseum-offcuts", "correspondence")
        assert found is not None
        assert (found["mu"], found["sigma"]) == (round(skill.mu, 3), round(skill.sigma, 3))
    assert after[0].mu < MODEL.mu < after[1].mu == after[2].mu


def test_a_rated_game_on_postgresql_is_rated_archived_and_found(
    tmp_path: Path, postgres_url: str
) -> None:
    server = start_server(tmp_path / "boardlab.sqlite3", url=postgres_url)
    try:
        ada, bob = Browser(server), Browser(server)
        ada_name, bob_name = sign_up(ada), sign_up(bob)
        match, _ = rated_match(ada, [bob], "anacund")
        assert bob.post(f"/api/matches/{match}/abort", {"seat": 1})[0] == 200
        match, _ = rated_match(ada, [bob], "anacund")
        assert ada.post(f"/api/matches/{match}/resign", {"seat": 0})[0] == 200
        lost, won = expected([2, 1])
        found = rating(ada, bob_name, "anacund", "correspondence")
        assert found is not None and (found["mu"], found["games"]) == (round(won.mu, 3), 1)
        games = ada.get(f"/api/games?player={ada_name}&result=loss&game=anacund")[1]["games"]
        assert [(g["id"], g["rated"]) for g in games] == [(match, True)]
        history = ada.get(f"/api/players/{ada_name}")[1]["history"]
        assert [(h["match"], h["mu"]) for h in history] == [(match, round(lost.mu, 3))]
    finally:
        server.stop()
