"""Seeks (issue 41, item 3) against a real server on 127.0.0.1: a seek posted is listed live,
accepted by another player it starts the match for both (the poster's page told over its
websocket, its seek token its seat token, both seats held by the accounts), it disappears when
its page leaves, its fields are checked like a new match's, racing accepts make exactly one
match, and another site can neither post nor accept."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from boardlab.web.stores import open_store
from tests.web.account_client import COOKIE, Browser, sign_up
from tests.web.conftest import Server
from tests.web.test_cross_site import EVIL, send

SEEK = {"game": "murus-gallicus", "options": {}, "clock": {"days": 3}}


@pytest.fixture
def lobby(shared_server: Server) -> Server:
    """The session's server (each test uses its own client addresses and leaves no seek)."""
    return shared_server


@contextlib.contextmanager
def lobby_socket(
    server: Server, tokens: list[str], cookie: str | None = None
) -> Iterator[ClientConnection]:
    """A lobby page's websocket keeping the seeks of ``tokens``."""
    url = server.url.replace("http://", "ws://") + "ws/seeks"
    headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else {}
    with connect(url, open_timeout=30, additional_headers=headers) as socket:
        socket.send(json.dumps({"tokens": tokens}))
        yield socket


def next_message(socket: ClientConnection, kind: str, until: Any = None) -> Any:
    """The next message of ``kind`` (for which ``until`` holds, if given)."""
    while True:
        message = json.loads(socket.recv(timeout=30))
        if message["type"] == kind and (until is None or until(message)):
            return message


def listed(server: Server) -> list[str]:
    status, answer = server.get("/api/seeks")
    assert status == 200, answer
    return [seek["id"] for seek in answer["seeks"]]


def test_an_accepted_seek_starts_the_match_for_both_accounts(lobby: Server) -> None:
    poster, accepter = Browser(lobby, "127.0.1.1"), Browser(lobby, "127.0.1.2")
    poster_name, accepter_name = sign_up(poster), sign_up(accepter)
    with lobby_socket(lobby, [], poster.cookie) as page:
        next_message(page, "seeks")
        status, posted = poster.post(
            "/api/seeks", {**SEEK, "rated": True, "min_rating": 1400, "max_rating": 1600}
        )
        assert status == 201, posted
        page.send(json.dumps({"tokens": [posted["token"]]}))
        shown = next_message(page, "seeks", lambda m: m["seeks"])["seeks"]
        assert shown == [posted["seek"]]
        assert shown[0]["name"] == poster_name and shown[0]["clock"] == "3 days per move"
        assert shown[0]["rated"] and shown[0]["rating"] == "1500 ± 667?"  # the start
        assert "token" not in json.dumps(shown) and posted["token"] not in json.dumps(shown)
        status, match = accepter.post(f"/api/seeks/{posted['id']}/accept", {})
        assert status == 201, match
        told = next_message(page, "matched")
    assert told["seek"] == posted["id"] and told["match"] == match["id"]
    (accepted,) = match["seats"]
    assert {told["seat"], accepted["seat"]} == {0, 1}
    # The seek's token is the poster's seat token; each account holds its own seat.
    status, view = lobby.get(f"/api/matches/{match['id']}", posted["token"])
    assert status == 200 and view["you"] == [told["seat"]], view
    assert lobby.get(f"/api/matches/{match['id']}", accepted["token"])[1]["you"] == [
        accepted["seat"]
    ]
    for browser, seat in ((poster, told["seat"]), (accepter, accepted["seat"])):
        status, mine = browser.post("/api/mine", {"matches": {}})
        assert [(m["id"], m["you"]) for m in mine["matches"]] == [(match["id"], [seat])]
    assert posted["id"] not in listed(lobby)
    assert accepter_name != poster_name
    store = open_store(lobby.db)
    try:
        stored = store.load(match["id"])
        assert stored is not None and stored.config.rated and stored.config.clock == "3d"
    finally:
        store.close()


def test_a_rated_seek_is_only_for_accounts_within_its_range(lobby: Server) -> None:
    poster = Browser(lobby, "127.0.1.10")
    sign_up(poster)
    status, posted = poster.post("/api/seeks", {**SEEK, "rated": True, "min_rating": 1600})
    assert status == 201, posted
    status, answer = Browser(lobby, "127.0.1.11").post(f"/api/seeks/{posted['id']}/accept", {})
    assert status == 401 and "sign in" in answer["error"]
    newcomer = Browser(lobby, "127.0.1.12")
    sign_up(newcomer)
    status, answer = newcomer.post(f"/api/seeks/{posted['id']}/accept", {})
    assert status == 403 and "outside this seek's range (1600 to 4000)" in answer["error"]
    assert posted["id"] in listed(lobby)
    poster.post("/api/seeks/withdraw", {"tokens": [posted["token"]]})


def test_a_seek_disappears_when_its_page_closes(lobby: Server) -> None:
    guest = Browser(lobby, "127.0.1.3")
    status, posted = guest.post("/api/seeks", SEEK)
    assert status == 201, posted
    with lobby_socket(lobby, [posted["token"]]) as page:
        assert posted["id"] in [s["id"] for s in next_message(page, "seeks")["seeks"]]
        with lobby_socket(lobby, []) as other:
            next_message(other, "seeks")
            page.close()
            gone = next_message(other, "seeks", lambda m: posted["id"] not in str(m))
            assert posted["id"] not in [s["id"] for s in gone["seeks"]]
    assert posted["id"] not in listed(lobby)
    status, answer = Browser(lobby, "127.0.1.4").post(f"/api/seeks/{posted['id']}/accept", {})
    assert status == 404, answer


def test_a_seek_is_withdrawn_and_cannot_be_accepted_by_its_poster(lobby: Server) -> None:
    guest = Browser(lobby, "127.0.1.5")
    _, posted = guest.post("/api/seeks", SEEK)
    refused = guest.post(f"/api/seeks/{posted['id']}/accept", {"tokens": [posted["token"]]})
    assert refused == (409, {"error": "this is your own seek"})
    assert guest.post("/api/seeks/withdraw", {"tokens": [posted["token"]]}) == (
        200,
        {"withdrawn": 1},
    )
    assert posted["id"] not in listed(lobby)


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"game": "chess"}, 400, "'game' must be one of"),
        ({**SEEK, "options": {"players": 3}, "game": "colosseum-offcuts"}, 400, "two players"),
        ({**SEEK, "options": {"max_plies": "x" * 300}}, 400, "short string"),
        ({**SEEK, "options": {"no_such_option": 1}}, 400, "no_such_option"),
        ({**SEEK, "clock": {"days": 99}}, 400, "days"),
        ({**SEEK, "clock": "3d"}, 400, "'clock' must be"),
        ({**SEEK, "rated": "yes"}, 400, "'rated' must be true or false"),
        ({**SEEK, "rated": True}, 401, "sign in"),
        ({**SEEK, "min_rating": 1200}, 400, "only for rated seeks"),
        ({**SEEK, "rated": True, "min_rating": -5}, 400, "'min_rating' must be"),
        ({**SEEK, "rated": True, "max_rating": True}, 400, "'max_rating' must be"),
        ({**SEEK, "rated": True, "min_rating": 1800, "max_rating": 1200}, 400, "not be above"),
    ],
)
def test_seek_fields_are_checked_before_anything_is_kept(
    lobby: Server, body: dict[str, Any], status: int, words: str
) -> None:
    before = listed(lobby)
    code, answer = Browser(lobby, "127.0.1.6").post("/api/seeks", body)
    assert code == status and words in answer["error"], answer
    assert listed(lobby) == before


def test_an_address_keeps_at_most_three_seeks(lobby: Server) -> None:
    guest = Browser(lobby, "127.0.1.7")
    tokens = [guest.post("/api/seeks", SEEK)[1]["token"] for _ in range(3)]
    status, answer = guest.post("/api/seeks", SEEK)
    assert status == 429 and "3 seeks open" in answer["error"]
    guest.post("/api/seeks/withdraw", {"tokens": tokens[:1]})
    status, again = guest.post("/api/seeks", SEEK)
    assert status == 201
    withdrawn = guest.post("/api/seeks/withdraw", {"tokens": [*tokens[1:], again["token"]]})
    assert withdrawn == (200, {"withdrawn": 3})


def test_racing_accepts_make_exactly_one_match(lobby: Server) -> None:
    matches_before = len(lobby.get("/api/matches?limit=200")[1]["matches"])
    for round_ in range(3):
        status, posted = Browser(lobby, "127.0.1.8").post("/api/seeks", SEEK)
        assert status == 201
        answers: list[int] = []
        barrier = threading.Barrier(4)

        def accept(
            index: int,
            seek: str = posted["id"],
            barrier: threading.Barrier = barrier,
            answers: list[int] = answers,
        ) -> None:
            barrier.wait()
            answers.append(
                Browser(lobby, f"127.0.2.{index + 1}").post(f"/api/seeks/{seek}/accept", {})[0]
            )

        threads = [threading.Thread(target=accept, args=(i,)) for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(answers)[0] == 201 and answers.count(201) == 1, answers
        assert set(answers) <= {201, 404, 409}, answers
        after = len(lobby.get("/api/matches?limit=200")[1]["matches"])
        assert after == matches_before + round_ + 1


def test_another_site_can_neither_post_nor_accept_nor_listen(lobby: Server) -> None:
    body = json.dumps(SEEK)
    hostile = {"Content-Type": "application/json", "Origin": EVIL}
    before = listed(lobby)
    assert send(lobby, "POST", "/api/seeks", body, hostile)[0] == 403
    assert send(lobby, "POST", "/api/seeks", body, {"Content-Type": "text/plain"})[0] == 415
    _, posted = Browser(lobby, "127.0.1.9").post("/api/seeks", SEEK)
    assert send(lobby, "POST", f"/api/seeks/{posted['id']}/accept", "{}", hostile)[0] == 403
    assert listed(lobby) == [*before, posted["id"]]
    Browser(lobby, "127.0.1.9").post("/api/seeks/withdraw", {"tokens": [posted["token"]]})
    url = lobby.url.replace("http://", "ws://") + "ws/seeks"
    with pytest.raises(Exception, match="403"):
        connect(url, open_timeout=30, origin=Origin(EVIL))


def test_a_malformed_lobby_message_closes_the_socket(lobby: Server) -> None:
    url = lobby.url.replace("http://", "ws://") + "ws/seeks"
    with connect(url, open_timeout=30) as socket:
        socket.send(json.dumps({"tokens": "not a list"}))
        assert json.loads(socket.recv(timeout=30))["status"] == 400


def test_a_page_back_after_its_seek_was_taken_is_told_its_match(lobby: Server) -> None:
    status, posted = Browser(lobby, "127.0.1.13").post("/api/seeks", SEEK)
    assert status == 201, posted
    # Accepted while no page keeps it (the poster's connection dropped just then).
    status, match = Browser(lobby, "127.0.1.14").post(f"/api/seeks/{posted['id']}/accept", {})
    assert status == 201, match
    with lobby_socket(lobby, [posted["token"]]) as page:
        told = json.loads(page.recv(timeout=30))
    assert told["type"] == "matched" and told["match"] == match["id"]
    assert {told["seat"], match["seats"][0]["seat"]} == {0, 1}
