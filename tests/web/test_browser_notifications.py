"""E-mail notifications in real Chromium (issue 41, item 5): a player turns them on by keyboard on
the account page, closes the match's page, the opponent moves, and the mail arrives at a real
local SMTP server (aiosmtpd); its unsubscribe link, opened in the browser, shows a button that
turns the mails off (pressed by keyboard), and the account page then says so. axe-core finds
no serious violation on the account page. Screenshots are saved beside the test's files
(docs/web-pages.md shows them)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.web.account_client import new_name
from tests.web.conftest import Server
from tests.web.notification_inbox import Inbox, mailing_server, running_inbox
from tests.web.test_browser_axe import violations
from tests.web.test_browser_seeks import signed_in
from tests.web.test_notifications import move

CLOSE_SECONDS = 1.0


@pytest.fixture
def inbox() -> Iterator[Inbox]:
    with running_inbox() as handler:
        yield handler


@pytest.fixture
def mailing(inbox: Inbox, tmp_path: Path) -> Iterator[Server]:
    with mailing_server(inbox, tmp_path) as running:
        yield running


def test_a_mail_arrives_once_the_page_is_closed_and_its_link_unsubscribes(
    browser: Browser, mailing: Server, inbox: Inbox, tmp_path: Path
) -> None:
    address = "bea@example.org"
    context, page = signed_in(browser, mailing, new_name("Bea"))
    page.goto(f"{mailing.url}account")
    page.get_by_label("E-mail address").focus()
    page.keyboard.type(address)
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    expect(page.get_by_label("E-mail me when it is my move")).to_be_checked()
    page.keyboard.press("Enter")
    expect(page.locator("#notify-status")).to_have_text(f"Mails go to {address}.")
    page.locator("#notify-form").screenshot(path=tmp_path / "web-notifications.png")
    assert violations(page) == []

    # The opponent creates a correspondence match and invites this player, who opens it.
    opponent, other = signed_in(browser, mailing, new_name("Ada"))
    created = other.evaluate(
        """async () => (await fetch("/api/matches", {method: "POST",
             headers: {"Content-Type": "application/json"},
             body: JSON.stringify({game: "murus-gallicus", clock: {days: 1},
                                   seats: [{kind: "human"}, {kind: "invite"}]})})).json()"""
    )
    page.goto(mailing.url.rstrip("/") + created["seats"][1]["link"])
    page.wait_for_selector("body[data-ply]")
    match = created["id"]
    page.close()  # no page of this player's is open on the match any more
    # The server notices a closed websocket soon after, not at once: a turn committed before
    # then finds the page still open (and rightly mails nobody).
    time.sleep(CLOSE_SECONDS)
    move(mailing, match, created["seats"][0]["token"], 0)
    (mail,) = inbox.wait_for(address)
    text = mail.get_content()
    assert f"/match/{match}" in text and "Murus Gallicus" in text
    (link,) = re.findall(r"http://\S+/unsubscribe/[\w-]+", text)

    page = context.new_page()
    page.goto(link)  # opening the link changes nothing: its page's button unsubscribes
    expect(page.get_by_role("heading", name="Unsubscribe")).to_be_visible()
    page.screenshot(path=tmp_path / "web-notifications-unsubscribe.png")
    page.get_by_role("button", name="Unsubscribe").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Unsubscribed")).to_be_visible()
    page.screenshot(path=tmp_path / "web-notifications-unsubscribed.png")
    page.goto(f"{mailing.url}account")
    expect(page.locator("#notify-status")).to_have_text("No mails are sent.")
    expect(page.get_by_label("E-mail me when it is my move")).not_to_be_checked()
    context.close()
    opponent.close()
