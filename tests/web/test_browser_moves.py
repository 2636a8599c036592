"""The move list in the browser: however long the game, the current move is in view — on a
fresh load, after each move, while reviewing and once the game is over."""

from __future__ import annotations

import random

from playwright.sync_api import Browser, Page, expect

from tests.web.browser_play import (
    WAIT_MS,
    bot_turn,
    engine_state,
    open_hot_seat,
    play_turn,
    resign,
    wait_for,
)
from tests.web.conftest import Server

CURRENT_IN_VIEW = """() => {
  const list = document.getElementById("moves");
  const current = list.querySelector(".move.current");
  if (!current) return null;
  const box = list.getBoundingClientRect(), item = current.getBoundingClientRect();
  return { n: Number(current.dataset.n), inView: item.top >= box.top && item.bottom <= box.bottom,
           overflows: list.scrollHeight > list.clientHeight };
}"""


def long_game(server: Server, match_id: str, tokens: dict[int, str], turns: int) -> None:
    """Play ``turns`` random turns of the hot-seat match through the API, never ending it."""
    state = engine_state(server, match_id, tokens[0])
    rng = random.Random(7)
    for ply in range(turns):
        seat = state.current_player
        steps = []
        while True:
            actions = list(state.legal_actions())
            rng.shuffle(actions)
            # A move that ends the game is taken only when there is nothing else.
            for action in actions:
                probe = state.clone()
                probe.apply_action(action)
                if not probe.is_terminal():
                    break
            steps.append(state.action_to_str(action))
            state.apply_action(action)
            if state.turn_start:
                break
        status, answer = server.post(
            f"/api/matches/{match_id}/turn",
            {"seat": seat, "ply": ply, "turn": "+".join(steps)},
            tokens[seat],
        )
        assert status == 200, answer
        assert answer["status"] == "active", "the test game ended early"


def assert_current_shown(page: Page, n: int) -> None:
    """The list highlights move ``n``, the list overflows, and move ``n`` is inside its box."""
    wait_for(page, "n => document.querySelector('#moves .move.current')?.dataset.n == n", n)
    shown = page.evaluate(CURRENT_IN_VIEW)
    assert shown == {"n": n, "inView": True, "overflows": True}, shown


def test_the_current_move_stays_in_view_at_ply_143(browser: Browser, shared_server: Server) -> None:
    match_id, tokens, context, page = open_hot_seat(browser, shared_server, "carnyx")
    long_game(shared_server, match_id, tokens, 142)
    page.reload()
    wait_for(page, "() => document.body.dataset.ply === '142'")
    assert_current_shown(page, 142)  # a fresh load

    state = engine_state(shared_server, match_id, tokens[0])
    play_turn(page, state, bot_turn(state, "random", seed=1))
    assert_current_shown(page, 143)  # during play, after a move made on the page

    page.keyboard.press("Home")
    expect(page.locator("#review-text")).to_have_text("Start position", timeout=WAIT_MS)
    assert page.evaluate("() => document.getElementById('moves').scrollTop") == 0
    page.keyboard.press("End")
    expect(page.locator("#review")).to_be_hidden()
    assert_current_shown(page, 143)

    resign(page)
    wait_for(page, "() => document.body.dataset.status === 'finished'")
    assert_current_shown(page, 143)  # at the end
    page.reload()
    wait_for(page, "() => document.body.dataset.status === 'finished'")
    assert_current_shown(page, 143)  # a fresh load of the finished game
    context.close()
