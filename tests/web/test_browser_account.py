"""Accounts in real Chromium (issue 41, item 1): a guest signs up by keyboard and keeps the
game this browser holds; in a second browser with empty storage the player signs in, finds the
game in "your games" and plays a move; a wrong password is said in words; axe-core finds no
serious violation on the account page, as a guest or signed in. Screenshots of each
state are saved beside the test's files (docs/web-pages.md shows two of them)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.web.account_client import new_name
from tests.web.browser_play import create_match, engine_state, play_turn, ply
from tests.web.conftest import Server
from tests.web.test_browser_axe import violations
from tests.web.test_browser_mine import hold

PASSWORD = "correct horse"


def shoot(page: Page, folder: Path, name: str) -> None:
    page.screenshot(path=folder / f"{name}.png", full_page=True)


def test_a_guest_signs_up_keeps_their_game_and_plays_it_from_another_browser(
    browser: Browser, shared_server: Server, tmp_path: Path
) -> None:
    created = create_match(shared_server, "murus-gallicus", [{"kind": "human"}, {"kind": "invite"}])
    match = created["id"]
    name = new_name("Ada")

    # The CSP bypassed only so that the test can inject axe-core (as test_browser_axe does).
    guest = browser.new_context(viewport={"width": 1100, "height": 760}, bypass_csp=True)
    page = guest.new_page()
    hold(page, shared_server, {match: {"0": created["seats"][0]["token"]}})
    page.goto(shared_server.url)
    expect(page.locator("#account-link")).to_have_text("Sign in")
    page.locator("#account-link").click()
    expect(page.get_by_role("heading", name="Create an account")).to_be_visible()
    # By keyboard: the labels name the fields; a bad name is said in words, nothing is sent.
    page.get_by_label("Name").nth(1).fill("no")
    page.get_by_label("Password").nth(1).fill(PASSWORD)
    page.get_by_label("Password").nth(1).press("Enter")
    expect(page.locator("#signup-error")).to_have_text("A name is 3 to 20 letters, digits, _ or -.")
    shoot(page, tmp_path, "account-guest")
    assert violations(page) == []
    page.get_by_label("Name").nth(1).fill(name)
    page.get_by_label("Password").nth(1).press("Enter")
    page.wait_for_url(shared_server.url)
    expect(page.locator("#account-link")).to_have_text(name)
    expect(page.locator(f'#mine-list tr[data-match="{match}"]')).to_be_visible()
    shoot(page, tmp_path, "lobby-signed-in")
    page.goto(f"{shared_server.url}account")
    expect(page.locator("#member-name")).to_have_text(name)
    shoot(page, tmp_path, "account-signed-in")
    assert violations(page) == []
    guest.close()

    # Another browser, nothing in its storage: the game follows the account.
    other = browser.new_context(viewport={"width": 1100, "height": 760}, bypass_csp=True)
    page = other.new_page()
    page.goto(f"{shared_server.url}account")
    page.get_by_label("Name").first.fill(name)
    page.get_by_label("Password").first.fill("not the password")
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page.locator("#signin-error")).to_have_text("Wrong name or password")
    shoot(page, tmp_path, "account-wrong-password")
    page.get_by_label("Password").first.fill(PASSWORD)
    page.get_by_role("button", name="Sign in", exact=True).click()
    page.wait_for_url(shared_server.url)
    row = page.locator(f'#mine-list tr[data-match="{match}"]')
    expect(row).to_contain_text("Your turn")
    assert page.evaluate("() => localStorage.length") == 0
    row.get_by_role("link", name="Play").click()
    page.wait_for_selector("body[data-ply]")
    expect(page.locator("#account-link")).to_have_text(name)
    state = engine_state(shared_server, match)
    play_turn(page, state, [state.legal_actions()[0]])
    assert ply(page) == 1
    view = shared_server.get(f"/api/matches/{match}")[1]
    assert view["ply"] == 1 and view["moves"][0]["seat"] == 0
    shoot(page, tmp_path, "game-signed-in")
    other.close()
