"""axe-core, from a vendored copy, finds no serious or critical accessibility violation on the
lobby (with this browser's own games), every game's page mid-game (on a desktop and a phone,
and inside a turn waiting for its confirmation) and finished, and the rules pages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

import boardlab
from boardlab.ai.players import make_bot
from boardlab.core.registry import game_ids
from tests.web.browser_play import (
    bot_turn,
    click_decision,
    create_match,
    engine_state,
    open_match,
    resign,
    wait_for,
)
from tests.web.conftest import Server

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
MID_GAME_PLIES = 8
PHONE: ViewportSize = {"width": 390, "height": 844}
OPTIONS: dict[str, dict[str, Any]] = {"cyvasse": {"seed": 1}, "anacund": {"layout": "l0"}}
"""Options that make the server's game the same as the test's (coin toss, board layout)."""


def violations(page: Page) -> list[dict[str, Any]]:
    """The serious and critical violations axe finds on the page as it stands."""
    page.add_script_tag(path=AXE)
    found: list[dict[str, Any]] = page.evaluate(
        """async () => (await axe.run(document)).violations
             .filter((v) => v.impact === "serious" || v.impact === "critical")
             .map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                            nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }))"""
    )
    return found


def mid_game(server: Server, game_id: str) -> tuple[str, dict[int, str]]:
    """A hot-seat match of ``game_id`` some turns in, played through the API."""
    options = OPTIONS.get(game_id, {})
    created = create_match(server, game_id, [{"kind": "human"}] * 2, options)
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    state = boardlab.make(game_id, **options).new_initial_state()
    bot = make_bot("random", state.game, 0)
    assert bot is not None
    steps: list[str] = []
    ply = 0
    while ply < MID_GAME_PLIES and not state.is_terminal():
        seat = state.current_player
        action = bot.choose(state)
        steps.append(state.action_to_str(action))
        state.apply_action(action)
        if state.turn_start or state.is_terminal():
            body = {"seat": seat, "ply": ply, "turn": "+".join(steps)}
            status, answer = server.post(f"/api/matches/{created['id']}/turn", body, tokens[seat])
            assert status == 200, answer
            steps, ply = [], ply + 1
    return created["id"], tokens


@pytest.fixture
def page(browser: Browser) -> Any:
    # The pages forbid inline scripts; axe is injected as one, by the test alone.
    context = browser.new_context(bypass_csp=True)
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_the_lobby_has_no_serious_violation(page: Page, shared_server: Server, phone: bool) -> None:
    if phone:
        page.set_viewport_size(PHONE)
    match_id, tokens = mid_game(shared_server, "carnyx")
    # Holding a seat, the lobby also lists "Your games".
    open_match(page.context, shared_server, match_id, tokens)
    page.goto(shared_server.url)
    page.wait_for_selector(".game-card")
    page.wait_for_selector("#mine-list tr")
    assert violations(page) == []


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
@pytest.mark.parametrize("game_id", game_ids())
def test_a_mid_game_page_has_no_serious_violation(
    page: Page, shared_server: Server, game_id: str, phone: bool
) -> None:
    if phone:
        page.set_viewport_size(PHONE)
    match_id, tokens = mid_game(shared_server, game_id)
    page = open_match(page.context, shared_server, match_id, tokens)
    wait_for(page, "() => !document.getElementById('notation').hidden")
    assert violations(page) == []


def test_a_turn_waiting_for_its_confirmation_has_no_serious_violation(
    page: Page, shared_server: Server
) -> None:
    match_id, tokens = mid_game(shared_server, "anacund")
    page = open_match(page.context, shared_server, match_id, tokens)
    state = engine_state(shared_server, match_id, ",".join(tokens.values()))
    for action in bot_turn(state, "greedy", seed=0):
        click_decision(page, state, action)
        state.apply_action(action)
    expect(page.get_by_role("button", name="Confirm turn")).to_be_visible()
    assert violations(page) == []


@pytest.mark.parametrize("game_id", game_ids())
def test_a_finished_page_has_no_serious_violation(
    page: Page, shared_server: Server, game_id: str
) -> None:
    match_id, tokens = mid_game(shared_server, game_id)
    page = open_match(page.context, shared_server, match_id, tokens)
    resign(page)
    wait_for(page, "() => document.body.dataset.status === 'finished'")
    assert violations(page) == []


@pytest.mark.parametrize("game_id", game_ids())
def test_a_rules_page_has_no_serious_violation(
    page: Page, shared_server: Server, game_id: str
) -> None:
    page.goto(f"{shared_server.url}rules/{game_id}")
    assert violations(page) == []
