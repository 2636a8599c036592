"""The analysis board in real Chromium: opened from a finished game, stepped back, a variation
played by clicks and by the keyboard, the bot's suggestion shown and played, play on against a
bot, records uploaded, and no serious accessibility violation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

import boardlab
from tests.web.browser_play import click_decision, create_match, open_match, wait_for
from tests.web.conftest import Server
from tests.web.test_browser_axe import violations

PLIES = 6


def finished_match(server: Server) -> tuple[str, dict[int, str], list[str]]:
    """A hot-seat Murus Gallicus match of ``PLIES`` turns that Romans then resigned."""
    created = create_match(server, "murus-gallicus", [{"kind": "human"}] * 2)
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    match, turns = created["id"], []
    for ply in range(PLIES):
        view = server.get(f"/api/matches/{match}", tokens[ply % 2])[1]
        text = view["legal"][ply % len(view["legal"])]["text"]
        body = {"seat": ply % 2, "ply": ply, "turn": text}
        assert server.post(f"/api/matches/{match}/turn", body, tokens[ply % 2])[0] == 200
        turns.append(text)
    assert server.post(f"/api/matches/{match}/resign", {"seat": 0}, tokens[0])[0] == 200
    return match, tokens, turns


def settled(page: Page, cursor: int) -> None:
    """Wait until the board shows the position after ``cursor`` decisions, nothing pending."""
    wait_for(
        page,
        "n => document.body.dataset.cursor === String(n)"
        " && !document.body.hasAttribute('data-busy')",
        cursor,
    )


def moves(page: Page) -> list[str]:
    """The turns the move list shows, without their numbers."""
    texts: list[str] = page.eval_on_selector_all(
        "#moves .move", "nodes => nodes.map((n) => n.lastChild.textContent)"
    )
    return texts


def after(turns: list[str]) -> Any:
    """The engine's position after ``turns`` of Murus Gallicus."""
    state = boardlab.make("murus-gallicus").new_initial_state()
    for text in turns:
        state.play(text)
    return state


@pytest.fixture
def page(browser: Browser) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context.new_page()
    context.close()


def test_from_a_finished_game_to_a_variation_the_bot_and_play_on(
    page: Page, shared_server: Server
) -> None:
    match, tokens, turns = finished_match(shared_server)
    game = open_match(page.context, shared_server, match, tokens)
    wait_for(game, "() => document.body.dataset.status === 'finished'")
    # The link opens the position the board shows: a reviewed one, or the latest.
    link = game.locator("#analysis-link")
    game.click("#first")
    expect(link).to_have_attribute("href", f"/analysis?match={match}&at=0")
    game.click("#last")
    expect(link).to_have_attribute("href", f"/analysis?match={match}&at={PLIES}")
    game.click("#analysis-link")
    page = game
    settled(page, PLIES)
    assert moves(page) == turns
    expect(page.locator("#status")).to_have_text("Romans to move.")
    # Step back two moves: the board and the list follow.
    page.click("#prev")
    settled(page, PLIES - 1)
    page.click("#prev")
    settled(page, PLIES - 2)
    expect(page.locator("#moves .move.current")).to_contain_text(turns[PLIES - 3])
    # A variation, clicked on the board as on the game page, replaces the rest of the line.
    state = after(turns[: PLIES - 2])
    action = next(a for a in state.legal_actions() if state.action_to_str(a) != turns[PLIES - 2])
    variation = state.action_to_str(action)
    click_decision(page, state, action)
    settled(page, PLIES - 1)
    assert moves(page) == [*turns[: PLIES - 2], variation]
    expect(page.locator("#moves .move.variation")).to_have_count(1)
    expect(page.locator("#restore")).to_be_visible()
    # The bot's suggestion is a legal move here, shown with its line and values, and playable.
    state.apply_action(action)
    page.select_option("#bot-select", "level:medium")
    page.click("#evaluate")
    suggestion = page.locator(".suggested-move").inner_text(timeout=20_000)
    assert suggestion in state.legal_moves()
    expect(page.locator(".bot-line")).to_contain_text(suggestion)
    expect(page.locator(".values tbody tr")).to_have_count(2)
    page.click(".play-suggestion")
    settled(page, PLIES)
    assert moves(page)[-1] == suggestion
    # Back and forward with the keyboard.
    page.keyboard.press("ArrowLeft")
    settled(page, PLIES - 1)
    page.keyboard.press("ArrowRight")
    settled(page, PLIES)
    # Play on as the side to move against the random mover: a new match from this position.
    line = [*turns[: PLIES - 2], variation, suggestion]
    page.select_option("#play-seat", "0")
    page.select_option("#play-bot", "random")
    page.click("#play-on")
    page.wait_for_url("**/match/**")
    page.wait_for_selector("body[data-ply]")
    new_id = page.url.rsplit("/", 1)[-1]
    assert new_id != match
    held = page.evaluate("id => JSON.parse(localStorage.getItem(`boardlab:match:${id}`))", new_id)
    view = shared_server.get(f"/api/matches/{new_id}", held["0"])[1]
    assert [move["turn"] for move in view["moves"]] == line
    assert view["players"][0]["held"] and view["players"][1]["bot"] == "random"
    assert view["to_move"] == 0 and view["status"] == "active"


def test_a_record_file_opens_and_a_bad_one_is_refused(
    page: Page, shared_server: Server, tmp_path: Path
) -> None:
    match, tokens, turns = finished_match(shared_server)
    record = shared_server.request("GET", f"/api/matches/{match}/record", None, tokens[0])[1]
    good = tmp_path / "game.txt"
    good.write_text(record, encoding="utf-8")
    page.goto(shared_server.url)
    page.get_by_role("link", name="Analysis board").click()
    settled(page, 0)
    page.select_option("#start-game", "carnyx")
    page.get_by_role("button", name="Open", exact=True).click()
    settled(page, 0)
    expect(page.locator("#title")).to_have_text("Analysis: Carnyx")
    page.set_input_files("#record-file", good)
    settled(page, PLIES)
    expect(page.locator("#source-text")).to_contain_text("Record game.txt")
    expect(page.locator("#source-text")).to_contain_text("· Gauls won")
    assert moves(page) == turns
    bad = tmp_path / "bad.txt"
    bad.write_text(record.replace(turns[2], "a1-a1"), encoding="utf-8")
    page.set_input_files("#record-file", bad)
    expect(page.locator("#message")).to_contain_text("illegal move", timeout=20_000)
    assert moves(page) == turns  # the board stays on what was open


def test_a_variation_is_played_with_the_keyboard_alone(page: Page, shared_server: Server) -> None:
    page.goto(f"{shared_server.url}analysis?game=murus-gallicus")
    settled(page, 0)
    # Tab from the page onto the board's first piece that can move, Enter, then Enter again
    # on the first cell it can go to: focus stays on the board all along.
    page.locator("#board .bl-target").first.focus()
    page.keyboard.press("Enter")
    wait_for(page, "() => document.querySelector('#board .bl-selected') !== null")
    assert page.evaluate("() => document.getElementById('board').contains(document.activeElement)")
    page.keyboard.press("Enter")
    settled(page, 1)
    assert len(moves(page)) == 1 and moves(page)[0] in after([]).legal_moves()
    assert page.evaluate("() => document.getElementById('board').contains(document.activeElement)")


def test_the_analysis_board_has_no_serious_violation(
    browser: Browser, shared_server: Server
) -> None:
    # The pages forbid inline scripts; axe is injected as one, by the test alone.
    context = browser.new_context(bypass_csp=True)
    try:
        page = context.new_page()
        match = finished_match(shared_server)[0]
        page.goto(f"{shared_server.url}analysis?match={match}&at=3")
        settled(page, 3)
        page.click("#evaluate")
        page.wait_for_selector(".suggested-move", timeout=20_000)
        assert violations(page) == []
        page.goto(f"{shared_server.url}analysis?game=cyvasse")
        settled(page, 0)
        assert violations(page) == []
    finally:
        context.close()


def test_a_live_cyvasse_match_is_analysed_in_the_players_own_view(
    browser: Browser, shared_server: Server
) -> None:
    created = create_match(shared_server, "cyvasse", [{"kind": "human"}] * 2, {"seed": 2})
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    match = created["id"]
    body = {"seat": 0, "ply": 0, "preset": "classic"}
    assert shared_server.post(f"/api/matches/{match}/turn", body, tokens[0])[0] == 200
    south_turn = shared_server.get(f"/api/matches/{match}", tokens[0])[1]["moves"][0]["turn"]
    context = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 900})
    try:
        game = open_match(context, shared_server, match, {1: tokens[1]})
        game.click("#analysis-link")
        settled(game, 0)
        page = game
        expect(page.locator("#hidden-note")).to_be_visible()
        expect(page.locator("#play-on-form")).to_be_hidden()
        expect(page.locator("#play-on-refusal")).to_contain_text("hidden from you")
        assert moves(page) == []  # South's turn is not offered
        assert violations(page) == []
        # North deploys a lineup in the analysis; South's items never show up on the page.
        page.click("#presets button[data-preset='vanguard']")
        settled(page, 19)
        assert len(moves(page)) == 1 and moves(page)[0].count("@") == 19
        html = page.content()
        assert south_turn not in html
        # The match itself is untouched: North still has to deploy.
        view = shared_server.get(f"/api/matches/{match}", tokens[1])[1]
        assert view["ply"] == 1 and view["to_move"] == 1
    finally:
        context.close()


def test_a_compound_turn_is_explored_one_decision_at_a_time(
    page: Page, shared_server: Server
) -> None:
    # Anacund's layout is drawn at random for the page: click what the board offers.
    page.goto(f"{shared_server.url}analysis?game=anacund")
    settled(page, 0)
    for count in range(1, 4):
        for _ in range(4):
            page.locator("#board .bl-target").first.click()
            wait_for(page, "() => !document.body.hasAttribute('data-busy')")
            if page.evaluate("n => document.body.dataset.cursor === String(n)", count):
                break
        settled(page, count)
        if count < 3:
            # Inside the turn: one turn in the list so far, and no play on from here.
            assert len(moves(page)) == 1 and moves(page)[0].count("+") == count - 1
            expect(page.locator("#play-on-refusal")).to_contain_text("finish the turn")
    assert len(moves(page)) == 1 and moves(page)[0].count("+") == 2
    expect(page.locator("#play-on-form")).to_be_visible()
    # The same layout all along: the three placements are still on the board after a step back.
    page.keyboard.press("ArrowLeft")
    settled(page, 2)
    assert len(moves(page)) == 1 and moves(page)[0].count("+") == 2
