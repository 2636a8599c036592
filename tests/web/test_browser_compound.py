"""Compound turns: the steps entered survive a reload, and a complete turn waits for "Confirm
turn" (undo still possible), which the keyboard reaches and which hands the focus back to the
board."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from boardlab.core.state import State
from tests.web.browser_play import (
    WAIT_MS,
    bot_turn,
    click_decision,
    engine_state,
    open_hot_seat,
    ply,
    wait_for,
)
from tests.web.conftest import Server
from tests.web.test_browser_keyboard import FOCUSED, tab_to_board

MAX_ENTERS = 6
KEPT_ITEMS = 8


def step(page: Page, probe: State, actions: list[int], texts: list[str], made: int) -> None:
    """Click ``actions``, the next steps of the turn in ``probe`` after ``made`` of ``texts``,
    each once the page shows the one before (a click while a preview is under way is ignored,
    as for a person)."""
    for index, action in enumerate(actions, made + 1):
        click_decision(page, probe, action)
        probe.apply_action(action)
        expected = " + ".join(texts[:index])
        expect(page.locator("#steps-text")).to_have_text(expected, timeout=WAIT_MS)


def test_a_turn_in_the_making_survives_a_reload_and_is_confirmed_by_keyboard(
    browser: Browser, shared_server: Server
) -> None:
    match_id, tokens, context, page = open_hot_seat(
        browser, shared_server, "anacund", {"layout": "l0"}
    )
    state = engine_state(shared_server, match_id, tokens[0])
    actions = bot_turn(state, "greedy", seed=3)
    assert len(actions) == 3
    texts = [state.action_to_str(action) for action in actions]
    probe = state.clone()
    step(page, probe, actions[:2], texts, 0)

    page.reload()
    page.wait_for_selector("body[data-ply]")
    expect(page.locator("#steps-text")).to_have_text(" + ".join(texts[:2]), timeout=WAIT_MS)
    expect(page.locator("#status")).to_contain_text("placement 3 of 3")
    assert ply(page) == 0

    # The last step shows the whole turn and asks first; the step can still be taken back.
    step(page, probe, actions[2:], texts, 2)
    confirm = page.get_by_role("button", name="Confirm turn")
    expect(confirm).to_be_visible()
    expect(page.locator("#steps-text")).to_have_text(" + ".join(texts))
    assert ply(page) == 0, "nothing is committed before the confirmation"
    page.get_by_role("button", name="Undo this step").click()
    expect(confirm).to_be_hidden()
    expect(page.locator("#steps-text")).to_have_text(" + ".join(texts[:2]))

    # Now by keyboard: Enter on the board's targets until the turn is complete.
    tab_to_board(page)
    for _ in range(MAX_ENTERS):
        if confirm.is_visible():
            break
        page.keyboard.press("Enter")
        wait_for(page, "() => !document.body.hasAttribute('data-busy')")
    expect(confirm).to_be_focused()
    page.keyboard.press("Enter")
    wait_for(page, "() => document.body.dataset.ply === '1'")
    wait_for(page, "() => document.activeElement.classList.contains('bl-target')")
    assert page.evaluate(FOCUSED)["inBoard"], "the focus went back to the board"
    status, view = shared_server.get(f"/api/matches/{match_id}", tokens[0])
    assert status == 200 and view["moves"][0]["turn"].count("+") == 2, view["moves"]

    # The committed turn is no longer kept: a reload starts the next one empty.
    page.reload()
    page.wait_for_selector("body[data-ply='1']")
    expect(page.locator("#steps")).to_be_hidden()
    context.close()


def test_a_cyvasse_deployment_half_placed_survives_a_reload(
    browser: Browser, shared_server: Server
) -> None:
    match_id, tokens, context, page = open_hot_seat(
        browser, shared_server, "cyvasse", {"first_tie": "south", "seed": 1}
    )
    state = engine_state(shared_server, match_id, tokens[0])
    actions = bot_turn(state, "random", seed=0)
    assert len(actions) > KEPT_ITEMS
    texts, walk = [], state.clone()
    for action in actions:
        # A deployment's notation names the item, which depends on what was placed before.
        texts.append(walk.action_to_str(action))
        walk.apply_action(action)
    probe = state.clone()
    step(page, probe, actions[:KEPT_ITEMS], texts, 0)

    page.reload()
    page.wait_for_selector("body[data-ply]")
    expect(page.locator("#steps-text")).to_have_text(
        " + ".join(texts[:KEPT_ITEMS]), timeout=WAIT_MS
    )
    step(page, probe, actions[KEPT_ITEMS:], texts, KEPT_ITEMS)
    page.get_by_role("button", name="Confirm turn").click()
    wait_for(page, "() => document.body.dataset.ply === '1'")
    status, view = shared_server.get(f"/api/matches/{match_id}", tokens[0])
    assert status == 200 and view["moves"][0]["turn"] == "+".join(texts), view["moves"]
    context.close()
