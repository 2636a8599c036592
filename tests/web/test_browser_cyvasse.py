"""Cyvasse hot-seat: both deployments from preset buttons, then a cavalry double jump built
step by step (with "undo this step" tried on the way), then a resignation."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from boardlab.core.state import State
from tests.web.browser_play import (
    banner_text,
    click_decision,
    create_match,
    engine_state,
    open_match,
    play_turn,
    resign,
    wait_ply_past,
)
from tests.web.conftest import Server

OPTIONS = {"first_tie": "south", "seed": 1}


def double_jump(state: State) -> list[int]:
    """A first cavalry jump and a second one after it, for the side to move."""
    for first in state.legal_actions():
        after = state.child(first)
        if after.is_terminal() or after.turn_start:
            continue
        for second in after.legal_actions():
            if after.click_path(second).targets:
                return [first, second]
    raise AssertionError("no cavalry double jump here")


def test_presets_then_a_cavalry_double_jump(browser: Browser, shared_server: Server) -> None:
    created = create_match(
        shared_server, "cyvasse", [{"kind": "human"}, {"kind": "human"}], OPTIONS
    )
    match_id = created["id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    context = browser.new_context()
    page = open_match(context, shared_server, match_id, tokens)

    for seat in (0, 1):
        expect(page.locator("#status")).to_contain_text(("South", "North")[seat])
        before = int(page.get_attribute("body", "data-ply") or "0")
        page.locator('#presets button[data-preset="classic"]').click()
        wait_ply_past(page, before)
    expect(page.locator("#presets button")).to_have_count(0)
    page.locator("#flip").click()
    expect(page.locator("#board")).to_have_class(re.compile("flipped"))

    both = f"{tokens[0]},{tokens[1]}"
    state = engine_state(shared_server, match_id, both)
    jumps = double_jump(state)
    probe = state.clone()
    click_decision(page, probe, jumps[0])
    expect(page.locator("#steps-text")).to_have_text(state.action_to_str(jumps[0]))
    page.get_by_role("button", name="Undo this step").click()
    expect(page.locator("#steps")).to_be_hidden()
    play_turn(page, state, jumps)
    status, view = shared_server.get(f"/api/matches/{match_id}", both)
    assert status == 200
    assert "+" in view["moves"][-1]["turn"], "the two jumps are one turn"

    resign(page)
    assert "North" in banner_text(page) or "South" in banner_text(page)
    context.close()
