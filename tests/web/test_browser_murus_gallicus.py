"""A whole Murus Gallicus game against the random bot, made from the lobby by clicking.

Covers the lobby form, click-to-move with highlighted targets, a move typed in notation (after
a refused one), the bot's replies arriving live, a takeback, a reload in the middle of the game,
reviewing a past position with the arrow keys, the game-over banner, and the record download
replayed by ``boardlab replay``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.web.browser_play import (
    WAIT_MS,
    banner_text,
    bot_turn,
    end_head,
    engine_state,
    finished,
    play_turn,
    ply,
    wait_my_turn_or_end,
    wait_ply_past,
)
from tests.web.conftest import Server

MAX_TURNS = 60
RELOAD_AT = 4
TAKEBACK_AT = 2
TYPED_AT = 1


def create_from_lobby(page: Page, server: Server) -> str:
    """Fill the lobby form (Romans: this browser, Gauls: the random bot); the new match id."""
    page.goto(server.url)
    page.locator('.game-card[data-game="murus-gallicus"] button.new-game').click()
    expect(page.locator("#create")).to_be_visible()
    page.locator("#seat-0").select_option("human")
    page.locator("#seat-1").select_option("bot:random")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/match/*")
    page.wait_for_selector("body[data-ply]")
    return page.url.rsplit("/", 1)[-1]


def test_whole_game_against_random_by_clicking(
    browser: Browser, shared_server: Server, tmp_path: Path
) -> None:
    context = browser.new_context(accept_downloads=True)
    page = context.new_page()
    match_id = create_from_lobby(page, shared_server)
    expect(page.locator("#players .seat")).to_have_count(2)
    expect(page.locator("#role")).to_contain_text("Romans")

    for turn in range(MAX_TURNS):
        wait_my_turn_or_end(page)
        if finished(page):
            break
        if turn == TAKEBACK_AT:
            before = ply(page)
            page.locator("#takeback").click()
            page.wait_for_function(
                "n => Number(document.body.dataset.ply) < n", arg=before, timeout=WAIT_MS
            )
            wait_my_turn_or_end(page)
        if turn == RELOAD_AT:
            moves_before = page.locator("#moves .move").all_inner_texts()
            page.reload()
            page.wait_for_selector("body[data-ply]")
            wait_my_turn_or_end(page)
            assert page.locator("#moves .move").all_inner_texts() == moves_before
        state = engine_state(shared_server, match_id)
        first = bot_turn(state, "greedy", seed=turn)[0]
        if turn == TYPED_AT:
            before = ply(page)
            page.locator("#notation-input").fill("z9-z1")
            page.locator("#notation-input").press("Enter")
            expect(page.locator("#message")).to_be_visible()
            assert ply(page) == before
            page.locator("#notation-input").fill(state.action_to_str(first))
            page.locator("#notation-input").press("Enter")
            wait_ply_past(page, before)
            continue
        origin = state.click_path(first).targets[0]
        page.locator(f'#board [data-id="{origin}"]').click()
        expect(page.locator("#board .bl-selected")).to_have_attribute("data-id", origin)
        assert page.locator("#board .bl-target").count() >= 1
        page.keyboard.press("Escape")
        play_turn(page, state, [first])
    assert finished(page), "the game did not end in the turns allowed"

    status, view = shared_server.get(f"/api/matches/{match_id}")
    assert status == 200
    assert banner_text(page) == end_head(view)
    expect(page.locator("#moves .move")).to_have_count(len(view["moves"]))

    page.locator("#moves .move").first.click()
    expect(page.locator("#review-text")).to_have_text(
        f"Position after move 1 of {len(view['moves'])}"
    )
    page.locator("body").press("ArrowRight")
    expect(page.locator("#review-text")).to_have_text(
        f"Position after move 2 of {len(view['moves'])}"
    )
    page.locator("body").press("End")
    expect(page.locator("#review")).to_be_hidden()

    with page.expect_download(timeout=WAIT_MS) as download:
        page.locator("#banner button.download").click()
    record = tmp_path / "murus.txt"
    download.value.save_as(record)
    replay = subprocess.run(
        [sys.executable, "-m", "boardlab", "replay", str(record)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert replay.returncode == 0, replay.stderr
    assert ply(page) == view["ply"]
    context.close()
