"""Click-to-move on the game page, in Chromium, against a small hand-written SVG.

The page's modules (``clicks.js``, ``board.js``) are loaded from the real server; the SVG and
the legal decisions are made up here so every case of the click logic is covered without a
game: paths that share a first cell, a complete path that is a prefix of a longer one, a
click that starts over, a click that takes a selection back, and a click that fits nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.web.conftest import Server

LEGAL = [
    {"text": "a1-a2", "targets": ["a1", "a2"], "button": ""},
    {"text": "a1-a3", "targets": ["a1", "a3"], "button": ""},
    {"text": "b1", "targets": ["b1"], "button": ""},
    {"text": "b1-b2", "targets": ["b1", "b2"], "button": ""},
    {"text": "pass", "targets": [], "button": "pass"},
]

SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 300">'
    + "".join(
        f'<g data-id="{col}{row}"><rect x="{x}" y="{y}" width="100" height="100" fill="#eee"/>'
        f'<text x="{x + 50}" y="{y + 50}">{col}{row}</text></g>'
        for col, x in (("a", 0), ("b", 100))
        for row, y in ((1, 200), (2, 100), (3, 0))
    )
    + "</svg>"
)

RUN_CLICKS = """async ([legal, clicks]) => {
  const { ClickPicker } = await import("/static/clicks.js");
  const picker = new ClickPicker(legal);
  return clicks.map((id) => {
    const answer = picker.click(id);
    return {
      kind: answer.kind,
      decision: answer.decision?.text ?? null,
      options: (answer.options ?? []).map((d) => d.text),
      clicked: [...picker.clicked],
      next: [...picker.state().next].sort(),
    };
  });
}"""


@pytest.fixture
def page(browser: Browser, shared_server: Server) -> Iterator[Page]:
    """A page on the server's origin, so the page modules load as they do in the app."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(shared_server.url)
    try:
        yield page
    finally:
        context.close()


def clicks(page: Page, ids: list[str]) -> list[dict[str, Any]]:
    """The picker's answer to each click in turn."""
    answers: list[dict[str, Any]] = page.evaluate(RUN_CLICKS, [LEGAL, ids])
    return answers


def test_two_clicks_make_a_move_and_the_first_shows_the_second(page: Page) -> None:
    first, second = clicks(page, ["a1", "a3"])
    assert first == {
        "kind": "continue",
        "decision": None,
        "options": [],
        "clicked": ["a1"],
        "next": ["a2", "a3"],
    }
    assert (second["kind"], second["decision"]) == ("play", "a1-a3")


def test_a_complete_path_that_goes_on_offers_a_choice(page: Page) -> None:
    first, second = clicks(page, ["b1", "b2"])
    assert (first["kind"], first["options"], first["next"]) == ("choose", ["b1"], ["b2"])
    assert (second["kind"], second["decision"]) == ("play", "b1-b2")


def test_a_click_elsewhere_starts_over_and_a_second_click_takes_back(page: Page) -> None:
    switched, same, nothing = clicks(page, ["a1", "b1", "b1"])[1:] + clicks(page, ["z9"])
    assert (switched["kind"], switched["clicked"]) == ("choose", ["b1"])
    assert (same["kind"], same["clicked"]) == ("continue", [])
    assert (nothing["kind"], nothing["clicked"]) == ("none", [])


def test_buttons_are_not_board_paths(page: Page) -> None:
    assert clicks(page, ["pass"])[0]["kind"] == "none"


def test_board_marks_targets_and_turns_clicks_and_enter_into_ids(page: Page) -> None:
    page.evaluate(
        """async (svg) => {
          const { Board } = await import("/static/board.js");
          const box = document.createElement("div");
          box.id = "test-board";
          document.body.prepend(box);
          window.clicked = [];
          const board = new Board(box, (id) => window.clicked.push(id));
          board.show(svg);
          board.mark(["a1"], ["a2", "a3"]);
          board.setFlipped(true);
        }""",
        SVG,
    )
    board = page.locator("#test-board")
    assert board.locator(".bl-selected").get_attribute("data-id") == "a1"
    assert sorted(board.locator(".bl-target").evaluate_all("ns => ns.map(n => n.dataset.id)")) == [
        "a2",
        "a3",
    ]
    assert board.locator(".bl-dot").count() == 2
    assert board.locator(".bl-ring").count() == 1
    assert "flipped" in (board.get_attribute("class") or "")
    board.locator('[data-id="a2"]').click()
    board.locator('[data-id="a3"]').focus()
    page.keyboard.press("Enter")
    assert page.evaluate("window.clicked") == ["a2", "a3"]
