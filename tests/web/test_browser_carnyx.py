"""Carnyx between two browsers through an invite link, with a spectator following live.

The creator's browser plays Dark, a second browser context opens the invite link and plays
Light; a third context without a token watches. A small ply cap ends the game so the test
plays it to its end; every decision must show in the other two browsers. Then the two players
start a rematch, with their seats swapped.
"""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.web.browser_play import (
    banner_text,
    bot_turn,
    create_match,
    engine_state,
    finished,
    open_link,
    open_match,
    play_turn,
    wait_ply_past,
)
from tests.web.conftest import Server

MAX_PLIES = 16


def test_two_browsers_play_through_an_invite_link(browser: Browser, shared_server: Server) -> None:
    created = create_match(
        shared_server, "carnyx", [{"kind": "human"}, {"kind": "invite"}], {"max_plies": MAX_PLIES}
    )
    match_id = created["id"]
    dark_token = created["seats"][0]["token"]
    link = created["seats"][1]["link"]
    assert link.startswith(f"/match/{match_id}#")

    contexts = [browser.new_context() for _ in range(3)]
    dark = open_match(contexts[0], shared_server, match_id, {0: dark_token})
    light = open_link(contexts[1], shared_server, link)
    watcher = open_match(contexts[2], shared_server, match_id)
    assert "#" not in light.url, "the page keeps the token out of the address bar"
    expect(light.locator("#role")).to_contain_text("Light")
    expect(watcher.locator("#role")).to_have_text("spectator")
    expect(light.locator("#rated")).to_be_hidden()  # casual, the default, goes unsaid

    pages = {0: dark, 1: light}
    for turn in range(MAX_PLIES + 2):
        if finished(dark):
            break
        state = engine_state(shared_server, match_id)
        seat = state.current_player
        mover = pages[seat]
        before = int(mover.get_attribute("body", "data-ply") or "0")
        expect(mover.locator("#notation")).to_be_visible()
        play_turn(mover, state, bot_turn(state, "greedy", seed=turn))
        for other in (pages[1 - seat], watcher):
            wait_ply_past(other, before)
        expect(watcher.locator("#notation")).to_be_hidden()
        expect(watcher.locator("#board .bl-target")).to_have_count(0)
    assert finished(dark), "the ply cap should have ended the game"
    result = banner_text(dark)
    assert banner_text(light) == result
    assert banner_text(watcher) == result
    expect(watcher.locator(".rematch").first).to_be_hidden()

    dark.locator("#banner .rematch").click()
    dark.wait_for_function("id => !location.pathname.endsWith(id)", arg=match_id)
    dark.wait_for_selector("body[data-ply]")
    rematch = dark.url.rsplit("/", 1)[-1]
    expect(light.locator("#banner .rematch")).to_have_text("Join the rematch")
    light.locator("#banner .rematch").click()
    light.wait_for_url(f"**/match/{rematch}")
    light.wait_for_selector("body[data-ply]")
    expect(dark.locator("#role")).to_contain_text("Light")
    expect(light.locator("#role")).to_contain_text("Dark")
    for context in contexts:
        context.close()
