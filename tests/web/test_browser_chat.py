"""The game page's chat, abort and invite panel in real Chromium (issue 41, item 6): the
creator's invite link gives way to "Link used" once the friend opens it; a line with markup in
it, typed and sent with Enter, shows as text in both players' pages and never reaches a
spectator's; the spectators' chat is turned off by a player; the Abort button ends the match
before both have moved; axe-core finds nothing serious. Screenshots (desktop and phone) are
saved beside the test's files (docs/web-pages.md shows one)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.web.browser_play import WAIT_MS, create_match, open_link, open_match
from tests.web.conftest import Server
from tests.web.test_browser_axe import PHONE, violations

MARKUP = '<img src=x onerror="document.body.dataset.pwned=1"><script>alert(1)</script>'


def say(page: Page, text: str) -> None:
    """Type ``text`` in the chat box (found by its label) and send it with Enter."""
    box = page.get_by_role("textbox", name=re.compile("^Message"))
    box.fill(text)
    box.press("Enter")


def test_chat_lines_show_as_text_and_the_abort_ends_the_match(
    browser: Browser, shared_server: Server, tmp_path: Path
) -> None:
    created = create_match(shared_server, "murus-gallicus", [{"kind": "human"}, {"kind": "invite"}])
    match = created["id"]
    desktop: ViewportSize = {"width": 1200, "height": 900}
    # The CSP bypassed only so that the test can inject axe-core (as test_browser_axe does).
    creator_context = browser.new_context(viewport=desktop, bypass_csp=True)
    # The creator's browser keeps the invite link it made, as the lobby's form does.
    invites = json.dumps({"1": created["seats"][1]["link"]})
    key = json.dumps(f"boardlab:invites:{match}")
    creator_context.add_init_script(f"localStorage.setItem({key}, {json.dumps(invites)})")
    creator = open_match(creator_context, shared_server, match, {0: created["seats"][0]["token"]})
    expect(creator.locator("#invite-list input")).to_have_count(1)

    friend_context = browser.new_context(viewport=PHONE)
    friend = open_link(friend_context, shared_server, created["seats"][1]["link"])
    expect(friend.locator("#role")).to_have_text("you play Gauls")
    # The creator's panel no longer offers the used link.
    expect(creator.locator("#invite-list input")).to_have_count(0, timeout=WAIT_MS)
    expect(creator.locator("#invite-list")).to_contain_text("Link used")

    watcher_context = browser.new_context(viewport=desktop)
    watcher = open_match(watcher_context, shared_server, match)

    say(creator, MARKUP)
    for page in (creator, friend):
        line = page.locator("#chat-lines .chat-text")
        expect(line).to_have_text(MARKUP, timeout=WAIT_MS)
        expect(page.locator("#chat-lines img")).to_have_count(0)
        assert page.evaluate("document.body.dataset.pwned") is None
    expect(creator.locator("#chat-input")).to_have_value("")

    say(watcher, "who wins?")
    expect(friend.locator("#chat-lines")).to_contain_text("who wins?", timeout=WAIT_MS)
    expect(watcher.locator("#chat-lines .chat-text")).to_have_text(["who wins?"])
    assert MARKUP not in watcher.content()

    expect(friend.locator("#abort")).to_be_visible()
    creator.screenshot(path=tmp_path / "web-chat.png", full_page=True)
    friend.screenshot(path=tmp_path / "web-phone-chat.png", full_page=True)
    assert violations(creator) == []

    creator.get_by_label("Spectators' chat on (for everyone)").uncheck()
    expect(watcher.locator("#chat-empty")).to_have_text(
        "The players have turned the spectators' chat off.", timeout=WAIT_MS
    )
    expect(watcher.locator("#chat-form")).to_be_hidden()

    friend.locator("#abort").click()
    friend.locator("#abort").click()  # the second click confirms
    for page in (creator, friend, watcher):
        expect(page.locator("#banner")).to_contain_text("Aborted, no result", timeout=WAIT_MS)
    for context in (creator_context, friend_context, watcher_context):
        context.close()
