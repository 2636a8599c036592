"""Keyboard play on the board: Tab reaches the targets, each named with what stands there and
whose it is; Enter chooses, and focus stays on the board (with a drawn ring) from one click to
the next and from one turn to the next."""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from tests.web.browser_play import open_hot_seat, wait_for
from tests.web.conftest import Server

FOCUSED = """() => {
  const node = document.activeElement;
  const board = document.getElementById("board");
  return { inBoard: board.contains(node), target: node.classList?.contains("bl-target") ?? false,
           name: node.getAttribute("aria-label"), id: node.dataset?.id ?? null,
           ring: board.querySelectorAll(".bl-focus").length };
}"""
MAX_TABS = 40


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
