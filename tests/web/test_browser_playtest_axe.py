"""axe-core finds no serious or critical accessibility violation on the playtest pages: the
designer's form, the playtester's page before and after joining, the survey on the game page
and the dashboard."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.conftest import Server
from tests.web.test_browser_axe import violations
from tests.web.test_playtest_api import CARNYX


@pytest.fixture
def page(browser: Browser) -> Any:
    # The pages forbid inline scripts; axe is injected as one, by the test alone.
    context = browser.new_context(bypass_csp=True)
    yield context.new_page()
    context.close()


def test_the_playtest_pages_have_no_serious_violation(page: Page, shared_server: Server) -> None:
    server = shared_server
    page.goto(f"{server.url}playtests/new")
    expect(page.locator("#variant-list .variant")).to_have_count(1)
    page.get_by_role("button", name="Add a variant").click()
    assert violations(page) == []

    status, made = server.post("/api/playtests", {**CARNYX, "opponent": "people"})
    assert status == 201
    page.goto(f"{server.url}playtest/{made['id']}")
    expect(page.get_by_role("button", name="Play a game")).to_be_visible()
    assert violations(page) == []
    page.get_by_role("button", name="Play a game").click()
    expect(page.locator("#waiting")).to_be_visible()
    assert violations(page) == []

    status, other = server.post(f"/api/playtests/{made['id']}/join", {})
    assert status == 200
    page.wait_for_url("**/match/**")
    status, _ = server.post(
        f"/api/matches/{other['match']}/resign", {"seat": other["seat"]}, other["token"]
    )
    assert status == 200
    expect(page.locator("#survey")).to_be_visible()
    assert violations(page) == []

    page.goto(f"{server.url.rstrip('/')}{made['dashboard']}")
    expect(page.locator("#game-rows tr")).to_have_count(1)
    assert violations(page) == []
