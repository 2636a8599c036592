"""Keyboard play on the board: Tab reaches the targets, each named with what stands there and
whose it is; Enter chooses, and focus stays on the board (with a drawn ring) from one click to
the next and from one turn to the next."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from tests.web.browser_play import (
    WAIT_MS,
    bot_turn,
    create_match,
    end_head,
    engine_state,
    finished,
    open_hot_seat,
    open_match,
    wait_for,
    wait_my_turn_or_end,
)
from tests.web.conftest import Server

FOCUSED = """() => {
  const node = document.activeElement;
  const board = document.getElementById("board");
  return { inBoard: board.contains(node), target: node.classList?.contains("bl-target") ?? false,
           name: node.getAttribute("aria-label"), id: node.dataset?.id ?? null,
           ring: board.querySelectorAll(".bl-focus").length };
}"""
MAX_TABS = 40
MAX_TABS_TO_CELL = 200
MAX_PLIES = 120


def tab_to_board(page: Page) -> dict[str, object]:
    """Press Tab until a target of the board has the focus; what is focused then."""
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        focused: dict[str, object] = page.evaluate(FOCUSED)
        if focused["target"]:
            return focused
    raise AssertionError(f"no board target in {MAX_TABS} Tabs")


def test_a_whole_move_by_keyboard_keeps_the_focus_on_the_board(
    browser: Browser, shared_server: Server
) -> None:
    context, page = open_hot_seat(browser, shared_server, "murus-gallicus")[2:]
    focused = tab_to_board(page)
    # Targets say what stands there and whose it is, not only the cell.
    assert focused["name"] == f"{focused['id']} (home): Romans stone \u00d72", focused
    assert focused["ring"] == 1, "the focused target has a drawn ring"

    page.keyboard.press("Enter")  # pick the tower up: its destinations become the targets
    wait_for(page, "() => document.querySelector('#board .bl-selected') !== null")
    focused = page.evaluate(FOCUSED)
    assert focused["inBoard"] and focused["target"], focused
    assert focused["ring"] == 1

    page.keyboard.press("Enter")  # the first destination: the move is made
    wait_for(
        page, "() => document.body.dataset.ply === '1' && !document.body.hasAttribute('data-busy')"
    )
    # Now the Gauls move (hot seat): focus is on one of their pieces, ready for Enter.
    wait_for(page, "() => document.activeElement.classList.contains('bl-target')")
    focused = page.evaluate(FOCUSED)
    assert focused["inBoard"] and "Gauls stone" in str(focused["name"]), focused
    page.keyboard.press("Enter")
    wait_for(page, "() => document.querySelector('#board .bl-selected') !== null")
    assert page.evaluate(FOCUSED)["target"]
    context.close()


def tab_to_cell(page: Page, cell: str) -> dict[str, object]:
    """Press Tab until the board's cell ``cell`` has the focus; what is focused then."""
    for _ in range(MAX_TABS_TO_CELL):
        focused: dict[str, object] = page.evaluate(FOCUSED)
        if focused["id"] == cell and focused["target"]:
            return focused
        page.keyboard.press("Tab")
    raise AssertionError(f"cell {cell} not reached in {MAX_TABS_TO_CELL} Tabs")


def test_a_whole_game_against_a_bot_by_keyboard_alone(
    browser: Browser, shared_server: Server
) -> None:
    created = create_match(
        shared_server,
        "murus-gallicus",
        [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
        {"max_plies": MAX_PLIES},
    )
    match_id, token = created["id"], created["seats"][0]["token"]
    context = browser.new_context()
    page = open_match(context, shared_server, match_id, {0: token})
    turns = 0
    while not finished(page):
        wait_my_turn_or_end(page)
        wait_for(page, "() => !document.body.hasAttribute('data-busy')")
        if finished(page):
            break
        state = engine_state(shared_server, match_id, token)
        (action,) = bot_turn(state, "greedy", seed=turns)
        path = state.click_path(action)
        before = int(page.get_attribute("body", "data-ply") or "0")
        for index, cell in enumerate(path.targets):
            focused = tab_to_cell(page, cell)
            if index == 0:
                # The piece to move is named with what it is and whose.
                assert "Romans" in str(focused["name"]), focused
            page.keyboard.press("Enter")
        wait_for(page, "n => Number(document.body.dataset.ply) > n", before)
        turns += 1
        # After the bot's reply the focus is still on the board, ready for the next Enter.
        wait_my_turn_or_end(page)
        if not finished(page):
            wait_for(page, "() => document.activeElement.classList.contains('bl-target')")
    status, view = shared_server.get(f"/api/matches/{match_id}", token)
    assert status == 200 and view["status"] == "finished"
    expect(page.locator("#banner .banner-result")).to_have_text(end_head(view), timeout=WAIT_MS)
    assert turns == sum(1 for move in view["moves"] if move["seat"] == 0)
    context.close()
