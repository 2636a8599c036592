"""Helpers of the real-browser tests: open a match as a seat, click decisions, wait for views.

The tests choose decisions with the rules engine (a bot on the replayed position) and make
them as a person does: by clicking the cells of the decision's click path on the SVG board,
or its named button, in the page served by the real server.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import boardlab
from boardlab.ai.players import make_bot
from boardlab.core.state import State
from tests.web.conftest import Server

WAIT_MS = 20_000


def create_match(
    server: Server, game: str, seats: list[dict[str, str]], options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Create a match through the API; its answer (id, and each seat's token or link)."""
    status, answer = server.post(
        "/api/matches", {"game": game, "options": options or {}, "seats": seats}
    )
    assert status == 201, answer
    created: dict[str, Any] = answer
    return created


def open_match(
    context: BrowserContext, server: Server, match_id: str, seats: dict[int, str] | None = None
) -> Page:
    """The game page of a match in a browser that holds ``seats`` (seat -> token)."""
    page = context.new_page()
    if seats:
        # Any page of the origin will do to reach its localStorage before the game page loads.
        page.goto(f"{server.url}static/favicon.svg")
        page.evaluate(
            "([key, tokens]) => localStorage.setItem(key, JSON.stringify(tokens))",
            [f"boardlab:match:{match_id}", {str(seat): token for seat, token in seats.items()}],
        )
    page.goto(f"{server.url}match/{match_id}")
    page.wait_for_selector("body[data-ply]")
    return page


class HotSeat(NamedTuple):
    """A hot-seat match of humans open in one browser context."""

    match_id: str
    tokens: dict[int, str]
    context: BrowserContext
    page: Page


def open_hot_seat(
    browser: Browser, server: Server, game: str, options: dict[str, Any] | None = None
) -> HotSeat:
    """A new two-seat hot-seat match of ``game``, open in a new browser context."""
    created = create_match(server, game, [{"kind": "human"}, {"kind": "human"}], options)
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    context = browser.new_context()
    page = open_match(context, server, created["id"], tokens)
    return HotSeat(created["id"], tokens, context, page)


def open_link(context: BrowserContext, server: Server, link: str) -> Page:
    """A page opened on an invite link (a path with the seat and token in its fragment)."""
    page = context.new_page()
    page.goto(server.url.rstrip("/") + link)
    page.wait_for_selector("body[data-ply]")
    return page


def ply(page: Page) -> int:
    """The turn count of the view the page shows."""
    return int(page.get_attribute("body", "data-ply") or "0")


def finished(page: Page) -> bool:
    """Whether the page shows a finished game."""
    return page.get_attribute("body", "data-status") == "finished"


def wait_for(page: Page, condition: str, arg: object = None) -> None:
    """Wait until ``condition`` (a JS function of ``arg``) holds in the page; on timeout, fail
    with what the page shows (its status line and any message it gave)."""
    # Right after a link is followed the new document may have no body yet: not yet, then.
    guarded = f"(arg) => document.body !== null && ({condition})(arg)"
    try:
        page.wait_for_function(guarded, arg=arg, timeout=WAIT_MS)
    except PlaywrightTimeout:
        shows = page.evaluate(
            "() => [document.body.dataset.ply, document.getElementById('status')?.textContent,"
            " document.getElementById('message')?.textContent]"
        )
        raise AssertionError(f"waited for {condition} ({arg}); page shows {shows}") from None


Box = dict[str, float]

_BOXES = """(selectors) => {
  const found = selectors.map((selector) => [...document.querySelectorAll(selector)]);
  if (found.some((nodes) => !nodes.length)) return null;
  return found.map((nodes) => nodes.map((node) => {
    const box = node.getBoundingClientRect();
    return {x: box.x, y: box.y, width: box.width, height: box.height};
  }));
}"""


def boxes(page: Page, *selectors: str) -> list[list[Box]]:
    """The boxes of every element each CSS selector finds, measured in one go once each finds
    one: a part of the page re-rendered meanwhile (a clock ticking) is never caught between
    its old and new elements, as a locator's ``bounding_box()`` can be (None)."""
    try:
        found = page.wait_for_function(_BOXES, arg=list(selectors), timeout=WAIT_MS)
    except PlaywrightTimeout:
        raise AssertionError(f"the page shows none of {selectors}") from None
    measured: list[list[Box]] = found.json_value()
    return measured


def wait_ply_past(page: Page, before: int) -> None:
    """Wait until the page shows a view after turn ``before`` and has no request under way.

    The other seat's view can arrive by websocket before the page's own commit has answered;
    clicks made before that answer would be ignored, as for a person.
    """
    wait_for(
        page,
        "n => Number(document.body.dataset.ply) > n && !document.body.hasAttribute('data-busy')",
        before,
    )


def wait_my_turn_or_end(page: Page) -> None:
    """Wait until a seat of this page is to move (its notation box shows) or the game is over."""
    wait_for(
        page,
        "() => document.body.dataset.status === 'finished'"
        " || !document.getElementById('notation').hidden",
    )


def engine_state(server: Server, match_id: str, token: str | None = None) -> State:
    """The match's position rebuilt by the rules engine from its options and move list."""
    status, view = server.get(f"/api/matches/{match_id}", token)
    assert status == 200, view
    state = boardlab.make(view["game"], **view["options"]).new_initial_state()
    for move in view["moves"]:
        state.play(move["turn"])
    return state


def click_decision(page: Page, state: State, action: int) -> None:
    """Make one decision by clicking its cells (or its button) on the page."""
    path = state.click_path(action)
    text = state.action_to_str(action)
    board = page.locator("#board")
    for target in path.targets:
        board.locator(f'[data-id="{target}"]').first.click()
    if path.button:
        page.locator(f'#buttons button[data-button="{path.button}"]').click()
    choice = page.locator("#choices").get_by_role("button", name=text, exact=True)
    if choice.count():
        choice.click()


def play_turn(page: Page, state: State, actions: list[int]) -> None:
    """Click every decision of one turn (a compound turn step by step, then "Confirm turn")
    and wait for the commit."""
    before = ply(page)
    made: list[str] = []
    for action in actions:
        made.append(state.action_to_str(action))
        click_decision(page, state, action)
        state.apply_action(action)
        if len(actions) > 1:
            expect(page.locator("#steps-text")).to_have_text(" + ".join(made), timeout=WAIT_MS)
    if len(actions) > 1:
        # A turn of several steps is only shown when complete, until it is confirmed.
        assert ply(page) == before
        page.get_by_role("button", name="Confirm turn").click()
    wait_ply_past(page, before)


def bot_turn(state: State, spec: str, seed: int) -> list[int]:
    """The decisions of one whole turn as the bot ``spec`` would play it from ``state``."""
    bot = make_bot(spec, state.game, seed)
    assert bot is not None
    probe = state.clone()
    actions = []
    while True:
        action = bot.choose(probe)
        actions.append(action)
        probe.apply_action(action)
        if probe.is_terminal() or probe.turn_start:
            return actions


def banner_text(page: Page) -> str:
    """The game-over banner's result line, once it shows."""
    expect(page.locator("#banner")).to_be_visible(timeout=WAIT_MS)
    return page.locator("#banner .banner-result").inner_text()


def resign(page: Page) -> None:
    """Resign with the two clicks the page asks for."""
    page.locator("#resign").click()
    expect(page.locator("#resign")).to_have_text(re.compile("Confirm"))
    page.locator("#resign").click()


def end_head(view: dict[str, Any]) -> str:
    """What the page says about who won a finished game: ``Romans won.`` or ``Draw.``"""
    results = view["result"]["results"]
    winners = [player["name"] for player in view["players"] if results[player["seat"]] == "win"]
    return f"{' and '.join(winners)} won." if winners else "Draw."
