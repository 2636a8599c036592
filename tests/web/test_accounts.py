"""Accounts against a real server (issue 41, item 1): sign up, in and out, change the password,
delete the account; the session cookie; a guest's games moving to the account; seats that follow
the account to another browser; and what one account can never do for another."""

from __future__ import annotations

import json
import re
from contextlib import ExitStack

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from tests.web.account_client import Browser, new_name, sign_up
from tests.web.conftest import Server
from tests.web.test_api import MURUS_HOT_SEAT, create, turn
from tests.web.test_api_hidden import preset

PASSWORD = "correct horse"
PATHS = ("", "/position?at=1", "/position?at=0", "/record")


def test_sign_up_in_and_out_with_a_session_cookie(shared_server: Server) -> None:
    browser = Browser(shared_server)
    assert browser.account() is None
    name = sign_up(browser)
    attributes = browser.cookie_attributes()
    assert {"httponly", "samesite=lax", "path=/"} <= attributes
    assert "secure" not in attributes  # plain http on 127.0.0.1
    first = browser.cookie
    browser.last_set_cookie = ""
    assert browser.account() == name
    # Each page asks who is signed in: the same cookie, kept 30 days from its last use.
    assert browser.cookie == first and "max-age=2592000" in browser.cookie_attributes()

    status, answer = browser.post("/api/account/signout", {})
    assert (status, answer, browser.cookie) == (200, {"account": None}, None)
    assert browser.account() is None
    # The old cookie, replayed, signs nobody in: the session ended on the server.
    assert Browser(shared_server, cookie=first).account() is None

    status, answer = browser.post(
        "/api/account/signin", {"name": name.upper(), "password": "x" * 9}
    )
    assert (status, answer) == (401, {"error": "wrong name or password"})
    status, answer = browser.post(
        "/api/account/signin", {"name": name.upper(), "password": PASSWORD}
    )
    assert status == 200 and answer["account"]["name"] == name
    assert browser.cookie not in (None, first) and browser.account() == name
    unknown = {"name": new_name(), "password": PASSWORD}
    assert Browser(shared_server).post("/api/account/signin", unknown)[0] == 401


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"name": "ab", "password": PASSWORD}, 400),
        ({"name": "a" * 21, "password": PASSWORD}, 400),
        ({"name": "bad name", "password": PASSWORD}, 400),
        ({"name": "<b>x</b>", "password": PASSWORD}, 400),
        ({"name": "Ωmega", "password": PASSWORD}, 400),
        ({"name": "fine_name", "password": "short"}, 400),
        ({"name": "fine_name", "password": "x" * 201}, 400),
        ({"name": "fine_name", "password": 12345678}, 400),
        ({"name": "fine_name", "password": PASSWORD, "matches": []}, 400),
    ],
)
def test_bad_names_and_passwords_are_refused(
    shared_server: Server, body: dict[str, object], status: int
) -> None:
    browser = Browser(shared_server)
    answer = browser.post("/api/account/signup", body)
    assert answer[0] == status and browser.cookie is None


def test_a_name_is_taken_once_whatever_its_case(shared_server: Server) -> None:
    name = sign_up(Browser(shared_server))
    status, answer = Browser(shared_server).post(
        "/api/account/signup", {"name": name.upper(), "password": PASSWORD}
    )
    assert (status, answer) == (409, {"error": "that name is taken; choose another"})


def test_a_session_cannot_be_fixated(shared_server: Server) -> None:
    name = sign_up(Browser(shared_server))
    planted = "A" * 43  # what another page or person set in the victim's browser
    victim = Browser(shared_server, cookie=planted)
    assert victim.account() is None
    assert victim.post("/api/account/signin", {"name": name, "password": PASSWORD})[0] == 200
    assert victim.cookie not in (None, planted)
    assert Browser(shared_server, cookie=planted).account() is None
    # A signed-in browser that signs in again gets a new id; the old one ends.
    before = victim.cookie
    assert victim.post("/api/account/signin", {"name": name, "password": PASSWORD})[0] == 200
    assert victim.cookie != before and Browser(shared_server, cookie=before).account() is None


def test_changing_the_password_signs_out_every_other_session(shared_server: Server) -> None:
    laptop = Browser(shared_server)
    name = sign_up(laptop)
    phone = Browser(shared_server)
    assert phone.post("/api/account/signin", {"name": name, "password": PASSWORD})[0] == 200
    before = laptop.cookie

    wrong = {"old": "not the password", "new": "a new password"}
    assert laptop.post("/api/account/password", wrong)[0] == 401
    assert laptop.post("/api/account/password", {"old": PASSWORD, "new": "short"})[0] == 400
    change = {"old": PASSWORD, "new": "a new password"}
    assert Browser(shared_server).post("/api/account/password", change)[0] == 401  # a guest
    assert laptop.post("/api/account/password", change)[0] == 200
    assert laptop.cookie != before and laptop.account() == name
    assert phone.account() is None
    assert Browser(shared_server, cookie=before).account() is None
    again = Browser(shared_server)
    assert again.post("/api/account/signin", {"name": name, "password": PASSWORD})[0] == 401
    assert again.post("/api/account/signin", {"name": name, "password": "a new password"})[0] == 200


def test_a_guests_games_move_to_the_account_and_follow_it_to_another_browser(
    shared_server: Server,
) -> None:
    match, (first, second) = create(shared_server, MURUS_HOT_SEAT)
    other, (stranger, _) = create(shared_server, MURUS_HOT_SEAT)
    assert first and second and stranger
    guest = Browser(shared_server)
    name = new_name()
    # The browser's tokens: its own match, and a wrong token for another one.
    held = {match: [first], other: [first]}
    body = {"name": name, "password": PASSWORD, "matches": held}
    assert guest.post("/api/account/signup", body)[0] == 201

    elsewhere = Browser(shared_server)
    assert elsewhere.post("/api/account/signin", {"name": name, "password": PASSWORD})[0] == 200
    status, mine = elsewhere.post("/api/mine", {"matches": {}})
    assert status == 200
    assert [(m["id"], m["you"], m["state"]) for m in mine["matches"]] == [(match, [0], "your turn")]
    view = elsewhere.get(f"/api/matches/{match}")[1]
    assert view["you"] == [0]
    status, view = elsewhere.post(
        f"/api/matches/{match}/turn", {"seat": 0, "ply": 0, "turn": "d1-d3"}
    )
    assert status == 200 and view["ply"] == 1
    # The invited seat is not the account's: only its token holds it.
    status, _ = elsewhere.post(f"/api/matches/{match}/turn", {"seat": 1, "ply": 1, "turn": "c7-c5"})
    assert status == 403
    assert turn(shared_server, match, second, 1, 1, "c7-c5")[0] == 200
    # The guest's browser keeps its token: it plays on as before.
    assert turn(shared_server, match, first, 0, 2, "e1-e3")[0] == 200
    elsewhere.post("/api/account/signout", {})
    status, _ = elsewhere.post(f"/api/matches/{match}/turn", {"seat": 0, "ply": 3, "turn": "x"})
    assert status == 403


def test_matches_made_claimed_and_rematched_while_signed_in_follow_the_accounts(
    shared_server: Server,
) -> None:
    ada, bob = Browser(shared_server), Browser(shared_server)
    sign_up(ada)
    sign_up(bob)
    status, answer = ada.post("/api/matches", MURUS_HOT_SEAT)
    assert status == 201
    match, link = answer["id"], answer["seats"][1]["link"]
    token = link.partition("token=")[2]
    assert bob.post(f"/api/matches/{match}/claim", {"seat": 1, "token": token})[0] == 200
    assert ada.get(f"/api/matches/{match}")[1]["you"] == [0]
    assert bob.get(f"/api/matches/{match}")[1]["you"] == [1]
    assert ada.post(f"/api/matches/{match}/resign", {"seat": 0})[0] == 200
    status, answer = bob.post(f"/api/matches/{match}/rematch", {})
    assert status == 201
    rematch = answer["id"]
    # Seats rotate: Ada plays seat 1 of the rematch, Bob seat 0, each from their account.
    assert ada.get(f"/api/matches/{rematch}")[1]["you"] == [1]
    assert bob.get(f"/api/matches/{rematch}")[1]["you"] == [0]
    assert ada.post(f"/api/matches/{match}/rematch", {})[1]["id"] == rematch


def test_one_account_cannot_act_or_see_for_another(shared_server: Server) -> None:
    ada, bob = Browser(shared_server), Browser(shared_server)
    sign_up(ada)
    sign_up(bob)
    seats = [{"kind": "human"}, {"kind": "invite"}]
    body = {"game": "cyvasse", "options": {"seed": 3}, "seats": seats}
    status, answer = ada.post("/api/matches", body)
    assert status == 201
    match, ada_token = answer["id"], answer["seats"][0]["token"]
    lineup = preset(shared_server, match, ada_token, 0, 0, "classic")["moves"][0]["turn"]
    assert lineup != "(hidden)"
    # Ada's account sees what her token sees; Bob's account what a spectator sees.
    assert ada.get(f"/api/matches/{match}")[1]["moves"][0]["turn"] == lineup
    spectator = [shared_server.get(f"/api/matches/{match}{path}")[1] for path in PATHS]
    seen = [bob.get(f"/api/matches/{match}{path}")[1] for path in PATHS]
    assert seen == spectator
    assert not leaked(lineup, seen)
    for action in ("turn", "resign", "takeback", "offer", "preview"):
        attempt = {"seat": 0, "ply": 1, "turn": "x", "kind": "draw", "steps": []}
        assert bob.post(f"/api/matches/{match}/{action}", attempt)[0] == 403, action
    assert bob.post(f"/api/matches/{match}/rematch", {})[0] == 403
    assert all(m["id"] != match for m in bob.post("/api/mine", {"matches": {}})[1]["matches"])
    # Bob takes the invited seat: through his account he sees exactly what its token sees.
    link = answer["seats"][1]["token"]
    status, claimed = bob.post(f"/api/matches/{match}/claim", {"seat": 1, "token": link})
    assert status == 200
    by_account = [bob.get(f"/api/matches/{match}{path}")[1] for path in PATHS]
    by_token = [
        shared_server.get(f"/api/matches/{match}{path}", claimed["token"])[1] for path in PATHS
    ]
    assert by_account == by_token and by_account[0]["you"] == [1]
    assert not leaked(lineup, by_account)


def leaked(lineup: str, seen: object) -> list[str]:
    """The placements of ``lineup`` found in what was ``seen`` (K@c1, not the prefix of
    K@c10)."""
    blob = json.dumps(seen)
    return [d for d in lineup.split("+") if re.search(rf"{re.escape(d)}(?!\d)", blob)]


def test_a_signed_in_websocket_holds_the_accounts_seats_until_it_signs_out(
    shared_server: Server,
) -> None:
    browser = Browser(shared_server)
    sign_up(browser)
    status, answer = browser.post("/api/matches", MURUS_HOT_SEAT)
    assert status == 201
    match, (first, second) = answer["id"], [seat["token"] for seat in answer["seats"]]
    url = shared_server.url.replace("http://", "ws://") + f"ws/matches/{match}"
    with ExitStack() as stack:
        socket = stack.enter_context(
            connect(url, additional_headers={"Cookie": f"boardlab_session={browser.cookie}"})
        )
        socket.send(json.dumps({"tokens": []}))
        assert json.loads(socket.recv(timeout=30))["view"]["you"] == [0]
        assert turn(shared_server, match, first, 0, 0, "d1-d3")[0] == 200
        assert json.loads(socket.recv(timeout=30))["view"]["you"] == [0]
        browser.post("/api/account/signout", {})
        assert turn(shared_server, match, second, 1, 1, "c7-c5")[0] == 200
        view = json.loads(socket.recv(timeout=30))["view"]
        assert view["ply"] == 2 and view["you"] == []
    # Another site's page cannot open a socket with a signed-in visitor's cookie.
    sign_up(browser)
    cookie = {"Cookie": f"boardlab_session={browser.cookie}"}
    with pytest.raises(InvalidStatus, match="403"):
        connect(url, origin=Origin("https://evil.example"), additional_headers=cookie)


def test_deleting_the_account_leaves_its_games_to_their_tokens(shared_server: Server) -> None:
    browser = Browser(shared_server)
    name = sign_up(browser)
    status, answer = browser.post("/api/matches", MURUS_HOT_SEAT)
    assert status == 201
    match, first = answer["id"], answer["seats"][0]["token"]
    assert Browser(shared_server).post("/api/account/delete", {"password": PASSWORD})[0] == 401
    assert browser.post("/api/account/delete", {"password": "not the password"})[0] == 401
    kept = browser.cookie
    assert browser.post("/api/account/delete", {"password": PASSWORD})[0] == 200
    assert browser.cookie is None and Browser(shared_server, cookie=kept).account() is None
    # The name is free again, and a new account of that name holds none of the old games.
    again = Browser(shared_server)
    sign_up(again, name)
    assert again.get(f"/api/matches/{match}")[1]["you"] == []
    assert again.post("/api/mine", {"matches": {}})[1]["matches"] == []
    assert turn(shared_server, match, first, 0, 0, "d1-d3")[0] == 200


ENDPOINTS = ("signup", "signin", "signout", "password", "delete")


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_account_requests_from_another_site_are_refused(
    shared_server: Server, endpoint: str
) -> None:
    victim = Browser(shared_server)
    name = sign_up(victim)
    path = f"/api/account/{endpoint}"
    body = json.dumps({"name": name, "password": PASSWORD, "old": PASSWORD, "new": "x" * 9})
    evil = {"Origin": "https://evil.example", "Content-Type": "application/json"}
    assert victim.request("POST", path, raw=body.encode(), headers=evil)[0] == 403
    cross = {"Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"}
    assert victim.request("POST", path, raw=body.encode(), headers=cross)[0] == 403
    for kind, raw in (
        ("application/x-www-form-urlencoded", f"name={name}&password=x".encode()),
        ("multipart/form-data; boundary=x", b"--x--"),
        ("text/plain", body.encode()),
    ):
        assert victim.request("POST", path, raw=raw, headers={"Content-Type": kind})[0] == 415
    # Nothing happened: still signed in with the same password.
    assert victim.account() == name
    again = Browser(shared_server)
    assert again.post("/api/account/signin", {"name": name, "password": PASSWORD})[0] == 200


def test_a_match_played_on_from_the_analysis_board_is_the_accounts(shared_server: Server) -> None:
    browser = Browser(shared_server)
    sign_up(browser)
    source = {"game": "murus-gallicus", "options": {}}
    body = {"source": source, "line": ["a1-a3"], "seat": 1, "bot": "random"}
    status, created = browser.post("/api/analysis/play", body)
    assert status == 201, created
    view = browser.get(f"/api/matches/{created['id']}")[1]
    assert view["you"] == [1]
