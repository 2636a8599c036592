"""Hostile users around Cyvasse's reveal and invite links, against a real server: the reveal is a
one-way door (no takeback or takeback offer returns a seat to a deployment made without the
lineup it has since seen), and a seat's authority is read for every message and every act (a
socket or a request naming an invite link's token holds nothing once the link is claimed)."""

from __future__ import annotations

import json
from contextlib import ExitStack

from tests.web.conftest import Server
from tests.web.test_api import create, wait_for_ply
from tests.web.test_api_hidden import listen, preset

REVEALED = "hidden information has been revealed since: that turn cannot be taken back"


def test_no_takeback_against_a_bot_crosses_the_reveal(shared_server: Server) -> None:
    server = shared_server
    match, (south, _) = create(
        server,
        {
            "game": "cyvasse",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "level:easy"}],
        },
    )
    assert south
    lineup = preset(server, match, south, 0, 0, "classic")["moves"][0]["turn"]
    view = wait_for_ply(server, match, 2, south)
    # The bot's lineup is on South's board now: South may not deploy again knowing it.
    assert "hidden" not in json.dumps(view["moves"][1])
    status, answer = server.post(f"/api/matches/{match}/takeback", {"seat": 0}, south)
    assert (status, answer) == (409, {"error": REVEALED})
    # Nothing was taken back (the bot, first to move in play, may have moved since).
    assert server.get(f"/api/matches/{match}", south)[1]["moves"][0]["turn"] == lineup


def test_no_takeback_offer_between_people_crosses_the_reveal(shared_server: Server) -> None:
    server = shared_server
    match, (south, invite) = create(
        server, {"game": "cyvasse", "seats": [{"kind": "human"}, {"kind": "invite"}]}
    )
    assert south and invite
    status, claimed = server.post(f"/api/matches/{match}/claim", {"seat": 1, "token": invite})
    assert status == 200
    north = claimed["token"]
    preset(server, match, south, 0, 0, "classic")
    # Before the reveal South may still ask for its deployment back.
    assert "takeback" in server.get(f"/api/matches/{match}", south)[1]["may_offer"]
    preset(server, match, north, 1, 1, "fortress")
    view = server.get(f"/api/matches/{match}", north)[1]
    assert "takeback" not in view["may_offer"]
    body = {"seat": 1, "kind": "takeback"}
    status, answer = server.post(f"/api/matches/{match}/offer", body, north)
    assert (status, answer) == (409, {"error": REVEALED})


def test_a_socket_with_a_claimed_invite_token_sees_only_what_a_spectator_sees(
    shared_server: Server,
) -> None:
    server = shared_server
    match, (invite, north) = create(
        server, {"game": "cyvasse", "seats": [{"kind": "invite"}, {"kind": "human"}]}
    )
    assert invite and north
    with ExitStack() as stack:
        # The creator follows the match with the link's token before sending the link.
        old = listen(stack, server, match, [invite])
        status, claimed = server.post(f"/api/matches/{match}/claim", {"seat": 0, "token": invite})
        assert status == 200
        # Told at once: the socket is a spectator's now.
        downgraded = json.loads(str(old.recv(timeout=30)))
        assert downgraded["type"] == "view" and downgraded["view"]["you"] == []
        # The friend deploys South: the old socket must not see the lineup.
        lineup = preset(server, match, claimed["token"], 0, 0, "classic")["moves"][0]["turn"]
        frame = str(old.recv(timeout=30))
        view = json.loads(frame)["view"]
        assert view["ply"] == 1 and view["you"] == []
        assert lineup not in frame and "K@e2" not in frame
    # A request made with the link's token acts for nobody.
    status, _ = server.post(f"/api/matches/{match}/resign", {"seat": 0}, invite)
    assert status == 403
