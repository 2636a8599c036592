"""A whole Anacund game hot-seat: one browser holds both seats and builds every three-placement
turn step by step (group, then square), with "undo this step" tried inside a turn."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.web.browser_play import (
    banner_text,
    bot_turn,
    click_decision,
    end_head,
    engine_state,
    finished,
    open_hot_seat,
    play_turn,
)
from tests.web.conftest import Server

MAX_TURNS = 20


def test_whole_game_hot_seat_with_undo_inside_a_turn(
    browser: Browser, shared_server: Server
) -> None:
    match_id, tokens, context, page = open_hot_seat(
        browser, shared_server, "anacund", {"layout": "l0"}
    )
    expect(page.locator("#role")).to_have_text("hot-seat")

    state = engine_state(shared_server, match_id, tokens[0])
    first = bot_turn(state, "greedy", seed=0)[0]
    click_decision(page, state, first)
    expect(page.locator("#steps")).to_be_visible()
    expect(page.locator("#steps-text")).to_have_text(state.action_to_str(first))
    page.get_by_role("button", name="Undo this step").click()
    expect(page.locator("#steps")).to_be_hidden()

    for turn in range(MAX_TURNS):
        if finished(page):
            break
        state = engine_state(shared_server, match_id, tokens[0])
        play_turn(page, state, bot_turn(state, "greedy", seed=turn))
    assert finished(page), "the game did not end in the turns allowed"
    status, view = shared_server.get(f"/api/matches/{match_id}")
    assert status == 200
    assert view["result"]["scores"] is not None
    assert banner_text(page) == end_head(view)
    expect(page.locator("#players .seat-score")).to_have_count(2)
    context.close()
