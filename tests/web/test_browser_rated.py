"""A rated game in real Chromium, two browsers (issue 41, items 2 and 4): two players sign up,
one starts a rated game from the lobby's form, the other joins by the invite link, both move
by clicking the board and the first resigns. Both ratings move exactly as OpenSkill computes
them here; the player's page shows them, provisional, with the history graph; a search on
/games finds the game; the records zip downloads and each record replays with
``boardlab replay``; axe finds no serious violation on the two new pages. Screenshots are
saved beside the test's files (docs/web-pages.md shows two of them)."""

from __future__ import annotations

import io
import subprocess
import sys
import zipfile
from pathlib import Path

from openskill.models import PlackettLuce
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from tests.web.account_client import new_name
from tests.web.browser_play import WAIT_MS, engine_state, open_link, play_turn, ply, wait_for
from tests.web.conftest import Server
from tests.web.test_browser_axe import violations

PASSWORD = "correct horse"
SIZE: ViewportSize = {"width": 1100, "height": 800}


def shoot(page: Page, folder: Path, name: str) -> None:
    page.screenshot(path=folder / f"{name}.png", full_page=True)


def signed_up(browser: Browser, server: Server, name: str) -> BrowserContext:
    """A browser (the CSP bypassed only for axe-core) signed up as ``name``."""
    context = browser.new_context(viewport=SIZE, bypass_csp=True)
    page = context.new_page()
    page.goto(f"{server.url}static/favicon.svg")
    status = page.evaluate(
        """async ([name, password]) => (await fetch("/api/account/signup", {method: "POST",
             headers: {"Content-Type": "application/json"},
             body: JSON.stringify({name, password})})).status""",
        [name, PASSWORD],
    )
    assert status == 201
    page.close()
    return context


def test_a_rated_game_moves_ratings_shown_on_the_profile_and_found_in_the_archive(
    browser: Browser, shared_server: Server, tmp_path: Path
) -> None:
    ada_name, bob_name = new_name("Ada"), new_name("Bob")
    ada, bob = (
        signed_up(browser, shared_server, ada_name),
        signed_up(browser, shared_server, bob_name),
    )
    page = ada.new_page()
    page.goto(shared_server.url)
    expect(page.locator("#account-link")).to_have_text(ada_name)
    page.get_by_role("button", name="New Murus Gallicus game").click()
    rated = page.get_by_label("Rated game")
    expect(rated).to_be_enabled()
    rated.check()  # by keyboard as well: it is a labelled checkbox
    expect(page.locator("#seat-0")).to_have_value("human")
    expect(page.locator("#seat-1")).to_have_value("invite")
    shoot(page, tmp_path, "lobby-rated")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector("body[data-ply]")
    match = page.url.rstrip("/").rsplit("/", 1)[1]
    links = page.evaluate("async (id) => (await import('/static/api.js')).loadInvites(id)", match)
    theirs = open_link(bob, shared_server, links["1"])
    expect(theirs.locator("#account-link")).to_have_text(bob_name)
    wait_for(page, "() => document.body.dataset.ply === '0'")
    # Both game pages say the game is rated.
    expect(page.locator("#rated")).to_have_text("rated")
    expect(theirs.locator("#rated")).to_have_text("rated")

    # A move each, clicked on the board, then Ada resigns (asked twice, as the page does).
    state = engine_state(shared_server, match)
    play_turn(page, state, [state.legal_actions()[0]])
    state = engine_state(shared_server, match)
    wait_for(theirs, "() => document.body.dataset.ply === '1'")
    play_turn(theirs, state, [state.legal_actions()[0]])
    wait_for(page, "() => document.body.dataset.ply === '2'")
    assert ply(page) == 2
    page.locator("#resign").click()
    page.locator("#resign").click()
    wait_for(page, "() => document.body.dataset.status === 'finished'")

    # The ratings, as OpenSkill computes them from the start for Bob first and Ada second.
    model = PlackettLuce()
    lost, won = (
        team[0] for team in model.rate([[model.rating()], [model.rating()]], ranks=[2.0, 1.0])
    )
    profile = theirs
    profile.goto(f"{shared_server.url}players/{ada_name}")
    row = profile.locator('#ratings tr[data-game="murus-gallicus"][data-speed="correspondence"]')
    points, spread = round(1500 + 40 * (lost.mu - 25)), round(80 * lost.sigma)
    expect(row).to_contain_text(f"{points} ± {spread}?")
    expect(row.locator("td").nth(3)).to_have_text("1")
    graph = profile.locator('figure[data-series="murus-gallicus correspondence"] svg')
    expect(graph).to_have_attribute(
        "aria-label", f"Murus Gallicus, correspondence: from 1500 to {points} over 1 rated games"
    )
    assert graph.locator("circle").count() == 2
    expect(profile.locator('#games tr[data-game="murus-gallicus"]')).to_contain_text(
        "Murus Gallicus010"
    )
    expect(profile.locator(f'#recent tr[data-game="{match}"]')).to_contain_text(bob_name)
    expect(profile.locator("#own")).to_be_hidden()  # another player's page: no records to take
    shoot(profile, tmp_path, "profile")
    assert violations(profile) == []
    profile.goto(f"{shared_server.url}players/{bob_name}")
    expect(profile.locator("#ratings tr").first).to_contain_text(
        f"{round(1500 + 40 * (won.mu - 25))} ± {round(80 * won.sigma)}?"
    )

    # The archive's search by keyboard: Bob's wins at Murus Gallicus find the game.
    profile.goto(f"{shared_server.url}games")
    profile.locator("#game").select_option("murus-gallicus")
    profile.get_by_label("Player").fill(bob_name)
    profile.locator("#result").select_option("win")
    profile.get_by_label("Player").press("Enter")
    found = profile.locator(f'#results tr[data-game="{match}"]')
    expect(found).to_contain_text("rated", timeout=WAIT_MS)
    expect(found.get_by_role("link", name=ada_name)).to_have_attribute(
        "href", f"/players/{ada_name}"
    )
    assert f"player={bob_name}" in profile.url
    shoot(profile, tmp_path, "archive")
    assert violations(profile) == []
    profile.locator("#result").select_option("loss")
    profile.get_by_role("button", name="Search").click()
    expect(profile.locator("#count")).to_have_text("No finished game matches this search.")

    # Ada's own page offers her records: the zip holds the game, which replays.
    page.goto(f"{shared_server.url}players/{ada_name}")
    expect(page.locator("#own")).to_be_visible()
    answer = page.request.get(f"{shared_server.url}api/account/records.zip")
    assert answer.status == 200 and answer.headers["content-type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(answer.body())) as archive:
        (name,) = [n for n in archive.namelist() if match in n]
        (tmp_path / "record.txt").write_bytes(archive.read(name))
    replay = subprocess.run(
        [sys.executable, "-m", "boardlab", "replay", str(tmp_path / "record.txt")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert replay.returncode == 0, replay.stderr
    assert "Result: Gauls won (resignation)" in replay.stdout
    ada.close()
    bob.close()


def test_a_name_with_markup_in_the_address_shows_as_text(
    browser: Browser, shared_server: Server
) -> None:
    context = browser.new_context(viewport=SIZE)
    page = context.new_page()
    page.goto(f"{shared_server.url}players/%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E")
    expect(page.locator("#missing-text")).to_have_text(
        "a player's name is 3 to 20 letters, digits, _ or -"
    )
    page.goto(f"{shared_server.url}players/nobody-{new_name()[2:8]}")
    expect(page.locator("#missing-text")).to_contain_text("there is no player named nobody-")
    page.goto(f"{shared_server.url}games?player=%3Cb%3Ehi%3C%2Fb%3E")
    expect(page.locator("#player")).to_have_value("<b>hi</b>")
    expect(page.locator("#count")).to_have_text(
        "a player's name is 3 to 20 letters, digits, _ or -"
    )
    assert page.locator("main b, main img").count() == 0
    context.close()
