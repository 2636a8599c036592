"""Seeks (issue 41, item 3) against a real server on 127.0.0.1: a seek posted is listed live,
accepted by another player it starts the match for both (the poster's page told over its
websocket, its seek token its seat token, both seats held by the accounts), it disappears when
its page leaves, its fields are checked like a new match's, racing accepts make exactly one
match, and another site can neither post nor accept. A Colosseum Offcuts seek of three or four
seats is joined seat by seat (listed as "2 of 3" seats), started for every joiner by the last
(each page told its own seat), left by a joiner or by their page closing, withdrawn for all by
its poster leaving; a rated one takes only accounts in range, nobody joins twice or their own,
and joins count against the per-address limit."""

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
        {"withdrawn": 1, "left": 0},
    )
    assert posted["id"] not in listed(lobby)


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"game": "chess"}, 400, "'game' must be one of"),
        ({**SEEK, "options": {"players": 6}, "game": "colosseum-offcuts"}, 400, "from 2 to 5"),
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
    assert withdrawn == (200, {"withdrawn": 3, "left": 0})


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


OFFCUTS = {"game": "colosseum-offcuts", "clock": {"days": 3}}


def offcuts(seats: int, **more: Any) -> dict[str, Any]:
    """A Colosseum Offcuts seek of ``seats`` seats."""
    return {**OFFCUTS, "options": {"players": seats}, **more}


def seats_of(seek: dict[str, Any]) -> tuple[int, int]:
    """A listed seek's seats taken and seats."""
    return seek["taken"], seek["seats"]


def showing(message: dict[str, Any], seek_id: str) -> list[tuple[int, int]]:
    """The seats taken and seats of ``seek_id`` in a list the lobby was sent ([]: not in it)."""
    return [seats_of(seek) for seek in message["seeks"] if seek["id"] == seek_id]


def entry(server: Server, seek_id: str) -> dict[str, Any] | None:
    """The seek as the lobby lists it now (None: not listed)."""
    found = [s for s in server.get("/api/seeks")[1]["seeks"] if s["id"] == seek_id]
    return found[0] if found else None


def test_a_seek_of_three_seats_starts_for_all_once_the_last_is_taken(lobby: Server) -> None:
    browsers = [Browser(lobby, f"127.0.7.{i}") for i in (1, 2, 3)]
    names = [sign_up(browser) for browser in browsers]
    poster, first, last = browsers
    status, posted = poster.post("/api/seeks", offcuts(3, rated=True))
    assert status == 201, posted
    assert seats_of(posted["seek"]) == (1, 3) and posted["seek"]["options"] == {"players": "3"}
    with (
        lobby_socket(lobby, [posted["token"]], poster.cookie) as poster_page,
        lobby_socket(lobby, [], first.cookie) as first_page,
    ):
        next_message(first_page, "seeks")
        status, joined = first.post(f"/api/seeks/{posted['id']}/accept", {})
        assert status == 200, joined
        assert joined["joined"] == posted["id"] and seats_of(joined["seek"]) == (2, 3)
        first_page.send(json.dumps({"tokens": [joined["token"]]}))
        next_message(
            poster_page,
            "seeks",
            lambda m: showing(m, posted["id"]) == [(2, 3)],
        )
        # Nobody joins twice: not the same account, not the same page (its join's token).
        status, answer = first.post(f"/api/seeks/{posted['id']}/accept", {})
        assert (status, answer["error"]) == (409, "you have joined this seek already")
        status, answer = Browser(lobby, "127.0.7.4").post(
            f"/api/seeks/{posted['id']}/accept", {"tokens": [joined["token"]]}
        )
        assert status == 401  # rated: a guest is refused first
        status, match = last.post(f"/api/seeks/{posted['id']}/accept", {})
        assert status == 201, match
        told = [next_message(page, "matched") for page in (poster_page, first_page)]
    assert {t["match"] for t in told} == {match["id"]}
    seats = [told[0]["seat"], told[1]["seat"], match["seats"][0]["seat"]]
    assert sorted(seats) == [0, 1, 2]
    for token, seat in zip(
        [posted["token"], joined["token"], match["seats"][0]["token"]], seats, strict=True
    ):
        status, view = lobby.get(f"/api/matches/{match['id']}", token)
        assert status == 200 and view["you"] == [seat], view
    for browser, seat in zip(browsers, seats, strict=True):
        status, mine = browser.post("/api/mine", {"matches": {}})
        assert [(m["id"], m["you"]) for m in mine["matches"]] == [(match["id"], [seat])]
    assert entry(lobby, posted["id"]) is None
    store = open_store(lobby.db)
    try:
        stored = store.load(match["id"])
        assert stored is not None and stored.config.rated and len(stored.config.seats) == 3
    finally:
        store.close()
    assert len(set(names)) == 3


def test_a_joiner_leaves_by_withdrawing_or_closing_and_the_poster_for_all(lobby: Server) -> None:
    poster, joiner = Browser(lobby, "127.0.7.5"), Browser(lobby, "127.0.7.6")
    status, posted = poster.post("/api/seeks", offcuts(4))
    assert status == 201, posted
    with lobby_socket(lobby, [posted["token"]]):
        status, joined = joiner.post(f"/api/seeks/{posted['id']}/accept", {})
        assert status == 200 and seats_of(joined["seek"]) == (2, 4), joined
        assert joiner.post("/api/seeks/withdraw", {"tokens": [joined["token"]]}) == (
            200,
            {"withdrawn": 0, "left": 1},
        )
        listed_now = entry(lobby, posted["id"])
        assert listed_now is not None and seats_of(listed_now) == (1, 4)
        # A joiner's page closing leaves the seek as a poster's closing withdraws it.
        _, joined = joiner.post(f"/api/seeks/{posted['id']}/accept", {})
        with lobby_socket(lobby, [joined["token"]]) as page:
            next_message(page, "seeks")
            assert seats_of(entry(lobby, posted["id"]) or {}) == (2, 4)
        with lobby_socket(lobby, []) as watcher:
            next_message(watcher, "seeks", lambda m: showing(m, posted["id"]) == [(1, 4)])
        _, joined = joiner.post(f"/api/seeks/{posted['id']}/accept", {})
        with lobby_socket(lobby, [joined["token"]]) as page:
            next_message(page, "seeks")
    # The poster's page closes too: the seek goes for everyone, its joins with it.
    with lobby_socket(lobby, []) as watcher:
        next_message(watcher, "seeks", lambda m: showing(m, posted["id"]) == [])
    status, answer = joiner.post(f"/api/seeks/{posted['id']}/accept", {})
    assert status == 404, answer


def test_a_rated_seek_of_more_seats_checks_each_joiner(lobby: Server) -> None:
    poster = Browser(lobby, "127.0.7.7")
    sign_up(poster)
    status, posted = poster.post(
        "/api/seeks", offcuts(4, rated=True, min_rating=1450, max_rating=1550)
    )
    assert status == 201, posted
    newcomer = Browser(lobby, "127.0.7.8")
    sign_up(newcomer)
    status, joined = newcomer.post(f"/api/seeks/{posted['id']}/accept", {})
    assert status == 200, joined
    assert Browser(lobby, "127.0.7.9").post(f"/api/seeks/{posted['id']}/accept", {})[0] == 401
    poster.post("/api/seeks/withdraw", {"tokens": [posted["token"]]})
    status, narrow = poster.post("/api/seeks", offcuts(3, rated=True, min_rating=1600))
    assert status == 201, narrow
    status, answer = newcomer.post(f"/api/seeks/{narrow['id']}/accept", {})
    assert status == 403 and "outside this seek's range (1600 to 4000)" in answer["error"]
    status, answer = poster.post(f"/api/seeks/{narrow['id']}/accept", {})
    assert (status, answer["error"]) == (409, "this is your own seek")
    poster.post("/api/seeks/withdraw", {"tokens": [narrow["token"]]})
    assert newcomer.post("/api/seeks/withdraw", {"tokens": [joined["token"]]})[1]["left"] == 0


def test_open_joins_count_against_an_address_limit(lobby: Server) -> None:
    posters = [Browser(lobby, f"127.0.8.{i}") for i in range(1, 5)]
    seeks = [browser.post("/api/seeks", offcuts(3))[1] for browser in posters]
    joiner = Browser(lobby, "127.0.8.9")
    _, own = joiner.post("/api/seeks", SEEK)
    tokens = [own["token"]]
    for seek in seeks[:2]:
        status, joined = joiner.post(f"/api/seeks/{seek['id']}/accept", {"tokens": tokens})
        assert status == 200, joined
        tokens.append(joined["token"])
    status, answer = joiner.post(f"/api/seeks/{seeks[2]['id']}/accept", {"tokens": tokens})
    assert status == 429 and "3 seeks open" in answer["error"]
    status, answer = joiner.post("/api/seeks", SEEK)
    assert status == 429, answer
    assert joiner.post("/api/seeks/withdraw", {"tokens": tokens}) == (
        200,
        {"withdrawn": 1, "left": 2},
    )
    for browser, seek in zip(posters, seeks, strict=True):
        browser.post("/api/seeks/withdraw", {"tokens": [seek["token"]]})
