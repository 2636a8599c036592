"""Seeks in real Chromium (issue 41, item 3), two browser contexts: a seek posted by one
account by keyboard shows in the other's lobby without a reload; accepted there by keyboard,
the match opens in both pages with each player in their own seat; a seek disappears from the
other lobby when its page closes; axe-core finds no serious violation in the section. Three
contexts, each from its own client address: a three-seat Colosseum Offcuts seek posted by one
account, joined by a second (every lobby shows "2 of 3 seats"), then by the third, opens the
match for all three, each in their own seat. The lobby's screenshots are saved beside the
test's files (docs/web-pages.md shows them)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from tests.web.account_client import new_name
from tests.web.address_relay import relayed
from tests.web.conftest import Server
from tests.web.test_browser_axe import violations

SIZE: ViewportSize = {"width": 1100, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}


def signed_in(
    browser: Browser, server: Server, name: str, url: str | None = None
) -> tuple[BrowserContext, Page]:
    """A browser context signed up as ``name``, on the lobby (at ``url``: the server's, or a
    relay's from another client address)."""
    context = browser.new_context(viewport=SIZE, bypass_csp=True)
    page = context.new_page()
    page.goto(url or server.url)
    status = page.evaluate(
        """async (name) => (await fetch("/api/account/signup", {method: "POST",
             headers: {"Content-Type": "application/json"},
             body: JSON.stringify({name, password: "correct horse"})})).status""",
        name,
    )
    assert status == 201
    page.reload()
    expect(page.locator("#account-link")).to_have_text(name)
    return context, page


def post_by_keyboard(
    page: Page, game: str, clock: str, ratings: tuple[int, int] | None = None
) -> None:
    """Fill the seek form with the keyboard and send it (rated within ``ratings``, if given)."""
    page.locator("#seek-game").focus()
    page.locator("#seek-game").select_option(game)
    page.keyboard.press("Tab")
    page.locator("#seek-clock").select_option(clock)
    if ratings is not None:
        page.locator("#seek-casual").focus()
        page.keyboard.press("ArrowRight")  # the radio group: Casual -> Rated
        expect(page.locator("#seek-rated")).to_be_checked()
        page.keyboard.press("Tab")
        expect(page.locator("#seek-min")).to_be_focused()
        page.keyboard.type(str(ratings[0]))
        page.keyboard.press("Tab")
        page.keyboard.type(str(ratings[1]))
    page.locator("#seek-form button[type=submit]").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#seek-status")).to_contain_text("Your seek is open")


def seat_of(page: Page) -> Any:
    """The seats this page holds in its match, as the page's own view says."""
    page.wait_for_selector("body[data-ply]")
    match = page.url.rsplit("/", 1)[1]
    return page.evaluate(
        """async (match) => {
             const kept = localStorage.getItem("boardlab:match:" + match) ?? "{}";
             const tokens = Object.values(JSON.parse(kept));
             const headers = tokens.length ? {Authorization: "Bearer " + tokens.join(",")} : {};
             return (await (await fetch("/api/matches/" + match, {headers})).json()).you;
           }""",
        match,
    )


def test_a_seek_accepted_in_another_browser_starts_the_match_for_both(
    browser: Browser, shared_server: Server, tmp_path: Path
) -> None:
    ada, bea = new_name("Ada"), new_name("Bea")
    first, poster = signed_in(browser, shared_server, ada)
    second, accepter = signed_in(browser, shared_server, bea)
    post_by_keyboard(poster, "murus-gallicus", "3d", (1400, 1600))
    row = accepter.locator("#seek-list tr", has_text=ada)
    expect(row).to_contain_text("3 days per move")  # live: no reload
    expect(row).to_contain_text("Rated (1400\u20131600)")
    expect(row).to_contain_text("1500 ± 667?")
    expect(poster.locator("#seek-list tr[data-mine=yes]")).to_contain_text(f"{ada} (you)")
    poster.locator("#seeks").screenshot(path=tmp_path / "web-seeks-posted.png")
    accepter.locator("#seeks").screenshot(path=tmp_path / "web-seeks.png")
    assert violations(accepter) == []
    button = row.get_by_role("button", name=f"Accept {ada}'s Murus Gallicus seek")
    button.focus()
    accepter.keyboard.press("Enter")
    accepter.wait_for_url("**/match/*")
    poster.wait_for_url("**/match/*")
    assert accepter.url == poster.url
    assert sorted(seat_of(accepter) + seat_of(poster)) == [0, 1]
    first.close()
    second.close()


def test_a_seek_disappears_from_other_lobbies_when_its_page_closes(
    browser: Browser, shared_server: Server, tmp_path: Path
) -> None:
    first, poster = signed_in(browser, shared_server, new_name("Cy"))
    watcher = browser.new_context(viewport=PHONE).new_page()
    watcher.goto(shared_server.url)
    post_by_keyboard(poster, "carnyx", "1d")
    name = str(poster.locator("#account-link").text_content())
    row = watcher.locator("#seek-list tr", has_text=name)
    expect(row).to_have_count(1)
    # On a phone the whole row is in view: the clock under the game, and the Accept button.
    expect(row).to_contain_text("1 day per move")
    expect(row.get_by_role("button", name="Accept")).to_be_in_viewport()
    watcher.locator("#seeks").screenshot(path=tmp_path / "web-phone-seeks.png")
    poster.close()
    expect(row).to_have_count(0)
    first.close()
    watcher.context.close()


def test_a_seek_of_three_seats_starts_for_all_three_once_two_have_joined(
    browser: Browser, shared_server: Server, tmp_path: Path
) -> None:
    names = [new_name(prefix) for prefix in ("Ada", "Bea", "Cy")]
    with contextlib.ExitStack() as stack:
        relays = [
            stack.enter_context(relayed(shared_server.port, f"127.0.9.{i}")) for i in (1, 2, 3)
        ]
        pages = []
        for name, relay in zip(names, relays, strict=True):
            context, page = signed_in(browser, shared_server, name, relay.url)
            stack.callback(context.close)
            pages.append(page)
        poster, first, last = pages
        poster.locator("#seek-game").select_option("colosseum-offcuts")
        poster.locator("#seek-seats").focus()
        poster.keyboard.press("ArrowDown")  # 2 -> 3 seats
        expect(poster.locator("#seek-seats")).to_have_value("3")
        poster.locator("#seek-clock").select_option("1d")
        poster.locator("#seek-form button[type=submit]").focus()
        poster.keyboard.press("Enter")
        expect(poster.locator("#seek-status")).to_contain_text("Your seek is open")
        rows = [page.locator("#seek-list tr", has_text=names[0]) for page in pages]
        for row in rows:
            expect(row).to_contain_text("1 of 3 seats")
        join = rows[1].get_by_role("button", name=f"Join {names[0]}'s Colosseum Offcuts seek")
        join.focus()
        first.keyboard.press("Enter")
        expect(first.locator("#seek-status")).to_contain_text("starts when all 3 seats are taken")
        expect(rows[1]).to_contain_text("2 of 3 seats (you joined)")
        for row in (rows[0], rows[2]):
            expect(row).to_contain_text("2 of 3 seats")  # live in every lobby
        expect(rows[1].get_by_role("button", name="Leave")).to_be_visible()
        last.locator("#seeks").screenshot(path=tmp_path / "web-seeks-multiseat.png")
        rows[2].get_by_role("button", name="Join").click()
        for page in pages:
            page.wait_for_url("**/match/*")
        assert len({page.url.rsplit("/", 1)[1] for page in pages}) == 1
        assert sorted(seat for page in pages for seat in seat_of(page)) == [0, 1, 2]
