"""The game page on a 390x844 phone: whose turn is said above the board, every button is at
least 44 px tall, and every board is zoomed so that each cell and piece that can be tapped is
at least 44 px across (the board scrolls sideways), and a turn is played by taps."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.web.browser_play import (
    bot_turn,
    boxes,
    create_match,
    engine_state,
    open_match,
    play_turn,
    wait_ply_past,
)
from tests.web.conftest import Server

PHONE: ViewportSize = {"width": 390, "height": 844}
TARGET_PX = 44


def test_anacund_is_readable_and_playable_on_a_phone(
    browser: Browser, shared_server: Server
) -> None:
    created = create_match(
        shared_server, "anacund", [{"kind": "human"}, {"kind": "human"}], {"layout": "l0"}
    )
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    context = browser.new_context(viewport=PHONE)
    page = open_match(context, shared_server, created["id"], tokens)

    # Whose turn, above the board and not after the whole board.
    line = page.locator("#turn-line")
    expect(line).to_be_visible()
    expect(line).to_have_text(page.locator("#status").inner_text())
    (line_box,), (board_box,) = boxes(page, "#turn-line", "#board")
    assert line_box["y"] + line_box["height"] <= board_box["y"]

    # The track's squares (and the numbers on them) are large enough to read and to hit.
    for square in ("1", "12", "24", "36"):
        box = boxes(page, f'#board [data-id="{square}"]')[0][0]
        assert min(box["width"], box["height"]) >= TARGET_PX, (square, box)
    check_buttons(page)

    state = engine_state(shared_server, created["id"], tokens[0])
    play_turn(page, state, bot_turn(state, "greedy", seed=0))  # three placements by taps
    expect(line).to_have_text(page.locator("#status").inner_text())
    expect(line).to_contain_text("B")
    context.close()


SMALLEST_CELL = """() => Math.min(...[...document.querySelectorAll('#board [data-id]')]
  .map((node) => node.getBoundingClientRect()).filter((box) => box.width > 0)
  .map((box) => Math.min(box.width, box.height)))"""


def check_phone_page(page: Page) -> None:
    """The turn line is above the board; every cell, piece and button is a 44 px target."""
    line = page.locator("#turn-line")
    expect(line).to_be_visible()
    (line_box,), (board_box,) = boxes(page, "#turn-line", "#board")
    assert line_box["y"] + line_box["height"] <= board_box["y"]
    assert page.evaluate(SMALLEST_CELL) >= TARGET_PX
    check_buttons(page)


VISIBLE_BUTTONS = """() => [...document.querySelectorAll('button')]
  .map((button) => [button, button.getBoundingClientRect()])
  .filter(([button, box]) => box.width > 0 && box.height > 0
    && getComputedStyle(button).visibility !== 'hidden')
  .map(([button, box]) => [button.textContent, box.height])"""


def check_buttons(page: Page) -> None:
    """Every button shown is a 44 px target (all measured at once: the page may re-render)."""
    for text, height in page.evaluate(VISIBLE_BUTTONS):
        assert height >= TARGET_PX, (text, height)


@pytest.mark.parametrize("game", ["murus-gallicus", "carnyx", "cyvasse", "colosseum-offcuts"])
def test_every_board_has_44_px_targets_and_is_played_by_taps(
    browser: Browser, shared_server: Server, game: str
) -> None:
    created = create_match(shared_server, game, [{"kind": "human"}, {"kind": "human"}])
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    both = f"{tokens[0]},{tokens[1]}"
    context = browser.new_context(viewport=PHONE, has_touch=True)
    page = open_match(context, shared_server, created["id"], tokens)
    check_phone_page(page)
    if game == "cyvasse":
        # Both lineups by preset buttons, so the turn below is a move in play.
        for _ in range(2):
            before = int(page.get_attribute("body", "data-ply") or "0")
            page.locator('#presets button[data-preset="classic"]').tap()
            wait_ply_past(page, before)
    for turn in range(2):
        state = engine_state(shared_server, created["id"], both)
        play_turn(page, state, bot_turn(state, "greedy", seed=turn))
        expect(page.locator("#turn-line")).to_have_text(page.locator("#status").inner_text())
        check_phone_page(page)
    context.close()
