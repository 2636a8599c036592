"""The new-game form: the engine's options (army string, seeds, move caps) are folded under
"Advanced" with plain labels; what a new player chooses (seats, board) stays in view."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.web.conftest import Server


def test_engine_options_wait_behind_the_advanced_fold(
    browser: Browser, shared_server: Server
) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(shared_server.url)
    page.get_by_role("button", name="New Cyvasse game").click()
    form = page.locator("#create")
    for label in ("Army", "Random seed", "Move limit (draw)"):
        expect(form.get_by_label(label, exact=True)).to_be_hidden()
    fold = form.get_by_text("Advanced: rule variants, limits and seeds")
    expect(fold).to_be_visible()
    fold.click()
    expect(form.get_by_label("Army", exact=True)).to_be_visible()
    expect(form.get_by_label("Move limit (draw)", exact=True)).to_have_value("500")
    form.get_by_label("Move limit (draw)", exact=True).fill("300")
    form.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/match/**")
    page.wait_for_selector("body[data-ply]")
    match_id = page.url.rsplit("/", 1)[1]
    status, view = shared_server.get(f"/api/matches/{match_id}")
    assert status == 200 and str(view["options"]["max_plies"]) == "300"

    page.goto(shared_server.url)
    page.get_by_role("button", name="New Colosseum Offcuts game").click()
    expect(form.get_by_label("Number of players", exact=True)).to_be_visible()
    expect(form.get_by_label("Rounds without a capture (draw)", exact=True)).to_be_hidden()
    context.close()
