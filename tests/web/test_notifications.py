"""E-mail notifications (issue 41, item 5) against a real server on 127.0.0.1 sending through a
real local SMTP server (aiosmtpd): a mail arrives when the opponent moves and the player has no
page open on the match, none while a page is open; it names the match and the opponent, never a
hidden Cyvasse deployment; its unsubscribe link (also its List-Unsubscribe header, with
List-Unsubscribe-Post) shows a button and changes nothing when only opened, and RFC 8058's
one-click POST to it turns the mails off, from any origin, with no cookie (form-encoded or
multipart); addresses that could add a header are refused."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import connect

import boardlab
from boardlab.web.notifications import Notice, build_message
from boardlab.web.notifications_settings import MailSettings
from boardlab.web.stores import open_store
from tests.web.account_client import Browser, sign_up
from tests.web.conftest import Server
from tests.web.notification_inbox import Inbox, mailing_server, running_inbox
from tests.web.test_api_hidden import preset


@pytest.fixture(scope="module")
def inbox() -> Iterator[Inbox]:
    with running_inbox() as handler:
        yield handler


@pytest.fixture(scope="module")
def mailing(inbox: Inbox, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server mailing through the local SMTP server."""
    with mailing_server(inbox, tmp_path_factory.mktemp("mail")) as running:
        yield running


def players(
    server: Server, game: str, clock: dict[str, int] | None, address: str
) -> dict[str, Any]:
    """A match of ``game`` between two new accounts: the creator (seat 0) and the invited one
    (seat 1), who asked for mail to ``address``; their browsers are ``creator`` and
    ``invited``."""
    creator, invited = Browser(server, "127.0.3.1"), Browser(server, "127.0.3.2")
    creator_name, invited_name = sign_up(creator), sign_up(invited)
    status, answer = invited.post(
        "/api/account/notifications", {"address": address, "enabled": True}
    )
    assert status == 200 and answer == {"address": address, "enabled": True, "available": True}
    body = {"game": game, "seats": [{"kind": "human"}, {"kind": "invite"}], "clock": clock}
    status, created = creator.post("/api/matches", body)
    assert status == 201, created
    link = created["seats"][1]["link"]
    claim = {"seat": 1, "token": re.search(r"token=([\w-]+)", link).group(1)}  # type: ignore[union-attr]
    status, claimed = invited.post(f"/api/matches/{created['id']}/claim", claim)
    assert status == 200, claimed
    return {
        "match": created["id"],
        "tokens": [created["seats"][0]["token"], claimed["token"]],
        "names": [creator_name, invited_name],
        "creator": creator,
        "invited": invited,
    }


def move(server: Server, match: str, token: str, seat: int) -> None:
    """Play the first legal move of ``seat``."""
    status, view = server.get(f"/api/matches/{match}", token)
    state = boardlab.make(view["game"], **view["options"]).new_initial_state()
    for played in view["moves"]:
        state.play(played["turn"])
    text = state.action_to_str(state.legal_actions()[0])
    body = {"seat": seat, "ply": view["ply"], "turn": text}
    status, answer = server.post(f"/api/matches/{match}/turn", body, token)
    assert status == 200, answer


def test_a_mail_arrives_when_the_opponent_moves_and_no_page_is_open(
    mailing: Server, inbox: Inbox
) -> None:
    address = "bea.one@example.org"
    game = players(mailing, "murus-gallicus", {"days": 3}, address)
    match, (first, second) = game["match"], game["tokens"]
    url = mailing.url.replace("http://", "ws://") + f"ws/matches/{match}"
    with connect(url, open_timeout=30) as page:
        page.send(json.dumps({"tokens": [second]}))
        page.recv(timeout=30)
        move(mailing, match, first, 0)  # the invited player's turn, with a page open on it
        time.sleep(1.0)
        assert inbox.to(address) == []
        move(mailing, match, second, 1)
    move(mailing, match, first, 0)  # the page is closed now
    (mail,) = inbox.wait_for(address)
    text = mail.get_content()
    assert mail["Subject"] == "Your move in Murus Gallicus"
    assert mail["From"] == "boardlab@example.org"
    assert f"{mailing.url}match/{match}" in text
    assert f"against {game['names'][0]}" in text
    (link,) = re.findall(r"http://\S+/unsubscribe/[\w-]+", text)
    assert mail["List-Unsubscribe"] == f"<{link}>"
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # Opened (a mail scanner fetches every link): a page with a button, and nothing changes.
    path = link.removeprefix(mailing.url.rstrip("/"))
    status, page_text = game["invited"].get(path)
    assert status == 200 and f'<form method="post" action="{path}">' in page_text
    assert '<button type="submit" class="primary">Unsubscribe</button>' in page_text
    assert game["invited"].get("/api/account/notifications")[1]["enabled"]
    # A POST without the one-click body changes nothing either.
    stranger = Browser(mailing, "127.0.3.7")
    assert one_click(stranger, path, b"List-Unsubscribe=Maybe")[0] == 400
    assert game["invited"].get("/api/account/notifications")[1]["enabled"]
    # The one-click POST, as a mail program sends it: no cookie, another origin.
    status, page_text = one_click(stranger, path, b"List-Unsubscribe=One-Click")
    assert status == 200 and "no more e-mails" in page_text
    status, settings = game["invited"].get("/api/account/notifications")
    assert settings == {"address": address, "enabled": False, "available": True}
    # Multipart, the other form RFC 8058 allows: still the account's link, off stays off.
    boundary = "----boundary--x"
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\n'
        f"One-Click\r\n--{boundary}--\r\n"
    ).encode()
    kind = f"multipart/form-data; boundary={boundary}"
    assert one_click(stranger, path, body, kind)[0] == 200
    # A link of no account: its page says the link is unknown, and so does a one-click POST.
    unknown = "/unsubscribe/" + "x" * 43
    status, page_text = stranger.get(unknown)
    assert status == 404 and "not (or no longer) valid" in page_text
    status, page_text = one_click(stranger, unknown, b"List-Unsubscribe=One-Click")
    assert status == 404 and "not (or no longer) valid" in page_text
    assert stranger.get("/unsubscribe/" + "x" * 300)[0] == 404
    # Only that URL is let through: any other form POST from another site is refused.
    assert one_click(stranger, "/api/account/notifications", b"List-Unsubscribe=One-Click")[0] in (
        403,
        415,
    )


def one_click(
    browser: Browser,
    path: str,
    body: bytes,
    kind: str = "application/x-www-form-urlencoded",
) -> tuple[int, Any]:
    """POST ``body`` to ``path`` as a mail program's one-click unsubscribe does: a form from
    elsewhere (here with another site's origin), no cookie."""
    headers = {"Content-Type": kind, "Origin": "https://mail.example.net"}
    return browser.request("POST", path, headers=headers, raw=body)


def test_a_cyvasse_mail_tells_nothing_of_the_hidden_deployment(
    mailing: Server, inbox: Inbox
) -> None:
    address = "north@example.org"
    game = players(mailing, "cyvasse", None, address)
    match, (south, north) = game["match"], game["tokens"]
    preset(mailing, match, south, 0, 0, "classic")
    (mail,) = inbox.wait_for(address)
    view = preset(mailing, match, north, 1, 1, "classic")
    south_turn = view["moves"][0]["turn"]
    text = mail.get_content() + str(mail)
    assert "Cyvasse" in text and game["names"][0] in text
    placements = [d for d in south_turn.split("+") if re.search(rf"{re.escape(d)}(?!\d)", text)]
    assert placements == [] and "classic" not in text


@pytest.mark.parametrize(
    "address",
    [
        "a@example.org\r\nBcc: evil@example.org",
        "a@example.org\nBcc: evil@example.org",
        "Ada <a@example.org>",
        "a@example.org, evil@example.org",
        "no-at-sign",
        "a" * 250 + "@example.org",
        '"quoted"@example.org',
    ],
)
def test_an_address_that_could_add_a_header_or_a_recipient_is_refused(
    mailing: Server, address: str
) -> None:
    browser = Browser(mailing, "127.0.3.3")
    sign_up(browser)
    status, answer = browser.post(
        "/api/account/notifications", {"address": address, "enabled": True}
    )
    assert status == 400 and "plain e-mail address" in answer["error"]
    assert browser.get("/api/account/notifications")[1]["address"] == ""


def test_a_guest_has_no_notification_settings(mailing: Server) -> None:
    guest = Browser(mailing, "127.0.3.4")
    assert guest.get("/api/account/notifications")[0] == 401
    body = {"address": "a@example.org", "enabled": True}
    assert guest.post("/api/account/notifications", body)[0] == 401


def test_a_message_refuses_a_line_break_in_any_header() -> None:
    settings = MailSettings("127.0.0.1", 25, "boardlab@example.org", "http://127.0.0.1:8000")
    notice = Notice("acc", "a@example.org", "tok", "m" * 16, "Carnyx", "Carnyx, against b")
    assert "Bcc" not in str(build_message(settings, [notice]))
    for bad in (
        Notice("acc", "a@example.org\nBcc: e@example.org", "tok", "m" * 16, "Carnyx", "x"),
        Notice("acc", "a@example.org", "tok", "m" * 16, "Carnyx\r\nBcc: e@example.org", "x"),
    ):
        with pytest.raises(ValueError):
            str(build_message(settings, [bad]))


def test_a_deleted_account_leaves_no_address_behind(mailing: Server) -> None:
    browser = Browser(mailing, "127.0.3.5")
    name = sign_up(browser)
    body = {"address": "gone@example.org", "enabled": True}
    assert browser.post("/api/account/notifications", body)[0] == 200
    store = open_store(mailing.db)
    try:
        account = store.account_named(name.lower())
        assert account is not None and store.notify_settings(account.id) is not None
        status, answer = browser.post("/api/account/delete", {"password": "correct horse"})
        assert status == 200, answer
        assert store.notify_settings(account.id) is None
    finally:
        store.close()


def test_no_mail_for_a_fast_clock_nor_for_ones_own_hot_seat_move(
    mailing: Server, inbox: Inbox
) -> None:
    blitz = players(mailing, "murus-gallicus", {"base": 180, "increment": 2}, "fast@example.org")
    move(mailing, blitz["match"], blitz["tokens"][0], 0)
    both = Browser(mailing, "127.0.3.6")
    sign_up(both)
    both.post("/api/account/notifications", {"address": "self@example.org", "enabled": True})
    body = {"game": "murus-gallicus", "seats": [{"kind": "human"}] * 2, "clock": {"days": 1}}
    status, created = both.post("/api/matches", body)
    assert status == 201, created
    for seat in (0, 1):
        move(mailing, created["id"], created["seats"][seat]["token"], seat)
    # A 30-minute clock is long enough: its mail shows the mail thread had its chance.
    slow = players(mailing, "murus-gallicus", {"base": 1800, "increment": 0}, "slow@example.org")
    move(mailing, slow["match"], slow["tokens"][0], 0)
    inbox.wait_for("slow@example.org")
    assert inbox.to("fast@example.org") == [] and inbox.to("self@example.org") == []
