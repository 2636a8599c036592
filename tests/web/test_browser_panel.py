"""The side panel in the browser: it describes the position inside a compound turn while the
turn is built, and shows a bot as thinking from the moment its turn starts until its move
arrives."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.web.browser_play import (
    WAIT_MS,
    bot_turn,
    click_decision,
    create_match,
    engine_state,
    open_hot_seat,
    open_match,
    wait_for,
)
from tests.web.conftest import Server

RECORD_PANEL = """() => {
  // Every state the panel passes through (ply shown, seats marked thinking), in order: a bot
  // may answer within milliseconds, faster than polling from the test could see.
  window.panelLog = [];
  const record = () => {
    const thinking = [...document.querySelectorAll("#players .thinking")]
      .map((mark) => Number(mark.closest("li").dataset.seat));
    const entry = { ply: Number(document.body.dataset.ply), thinking };
    const last = window.panelLog.at(-1);
    if (!last || JSON.stringify(last) !== JSON.stringify(entry)) window.panelLog.push(entry);
  };
  new MutationObserver(record).observe(document.body, {
    subtree: true, childList: true, attributes: true, attributeFilter: ["data-ply"],
  });
  record();
}"""


def seat_scores(page: Page) -> list[str]:
    """The scores the side panel shows, seat by seat."""
    return page.locator("#players .seat-score").all_inner_texts()


def test_status_and_scores_follow_the_steps_of_a_compound_turn(
    browser: Browser, shared_server: Server
) -> None:
    match_id, tokens, context, page = open_hot_seat(
        browser, shared_server, "anacund", {"layout": "l0"}
    )
    status = page.locator("#status")
    expect(status).to_contain_text("placement 1 of 3")
    before_status, before_scores = status.inner_text(), seat_scores(page)

    state = engine_state(shared_server, match_id, tokens[0])
    first = bot_turn(state, "greedy", seed=0)[0]
    text = state.action_to_str(first)
    click_decision(page, state, first)
    expect(page.locator("#steps-text")).to_have_text(text)
    state.apply_action(first)
    # The panel now describes the position the board shows: one placement into the turn.
    expect(status).to_contain_text("placement 2 of 3")
    assert status.inner_text() != before_status
    model = state.render_model(view=0)
    assert model.scores is not None
    assert seat_scores(page) == [f"{score:g}" for score in model.scores] != before_scores
    expect(page.locator("#notes")).to_contain_text(f"Last placement: {text}")
    assert page.get_attribute("body", "data-ply") == "0", "nothing was committed yet"

    page.get_by_role("button", name="Undo this step").click()
    expect(status).to_have_text(before_status)
    assert seat_scores(page) == before_scores
    context.close()


def test_a_bot_is_thinking_until_its_move_arrives(browser: Browser, shared_server: Server) -> None:
    created = create_match(
        shared_server,
        "murus-gallicus",
        [{"kind": "human"}, {"kind": "bot", "bot": "level:easy"}],
    )
    match_id = created["id"]
    token = created["seats"][0]["token"]
    context = browser.new_context()
    page = open_match(context, shared_server, match_id, {0: token})
    expect(page.locator("#players .thinking")).to_have_count(0)
    page.evaluate(RECORD_PANEL)

    state = engine_state(shared_server, match_id, token)
    click_decision(page, state, bot_turn(state, "greedy", seed=0)[0])
    wait_for(page, "() => Number(document.body.dataset.ply) >= 2")
    expect(page.locator("#players .thinking")).to_have_count(0, timeout=WAIT_MS)
    log: list[dict[str, Any]] = page.evaluate("() => window.panelLog")

    # Before the human's move nobody thinks; once it is made the bot's seat (and only it) is
    # marked until the bot's move arrives, and the mark is gone with it.
    assert all(entry["thinking"] == [] for entry in log if entry["ply"] == 0), log
    after_move = [entry for entry in log if entry["ply"] == 1]
    assert after_move and after_move[-1]["thinking"] == [1], log
    assert all(entry["thinking"] in ([], [1]) for entry in after_move), log
    assert all(entry["thinking"] == [] for entry in log if entry["ply"] >= 2), log
    expect(page.locator('#players li[data-seat="1"]')).not_to_contain_text("thinking")
    context.close()
