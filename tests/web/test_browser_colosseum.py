"""Colosseum Offcuts with three seats: this browser against two random bots, to the end.

The two-action turns are built step by step; the bots' turns arrive over the websocket. A
small no-capture cap makes the game end after a few rounds.
"""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.web.browser_play import (
    banner_text,
    bot_turn,
    create_match,
    end_head,
    engine_state,
    finished,
    open_match,
    play_turn,
    wait_my_turn_or_end,
)
from tests.web.conftest import Server

MAX_TURNS = 30


def test_three_seats_against_two_bots(browser: Browser, shared_server: Server) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    created = create_match(
        shared_server, "colosseum-offcuts", seats, {"players": 3, "no_capture_rounds": 2}
    )
    match_id = created["id"]
    token = created["seats"][0]["token"]
    context = browser.new_context()
    page = open_match(context, shared_server, match_id, {0: token})
    expect(page.locator("#players .seat")).to_have_count(3)

    for turn in range(MAX_TURNS):
        wait_my_turn_or_end(page)
        if finished(page):
            break
        state = engine_state(shared_server, match_id, token)
        play_turn(page, state, bot_turn(state, "greedy", seed=turn))
    assert finished(page), "the no-capture cap should have ended the game"
    status, view = shared_server.get(f"/api/matches/{match_id}")
    assert status == 200
    assert {move["seat"] for move in view["moves"]} == {0, 1, 2}
    assert banner_text(page) == end_head(view)
    context.close()
