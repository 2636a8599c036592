"""A finished game in the browser: the panel, the banner and the caption under the board all
say the game is over and who won, in plain words, whether it ended by the rules or by a
resignation (whose position is not over by the rules)."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from boardlab.ai.players import make_bot
from tests.web.browser_play import engine_state, open_hot_seat, resign, wait_for
from tests.web.conftest import Server


def shown_end(page: Page) -> dict[str, str]:
    """The texts a finished page shows: panel status and phase line, banner, board caption."""
    wait_for(page, "() => document.body.dataset.status === 'finished'")
    expect(page.locator("#banner")).to_be_visible()
    texts: dict[str, str] = page.evaluate(
        """() => ({
          status: document.getElementById("status").textContent,
          phase: document.getElementById("phase").textContent,
          banner: document.querySelector("#banner > div").textContent.replace(/\\s+/g, " ").trim(),
          caption: document.querySelector("#board svg .info text.status").textContent,
          svgText: [...document.querySelectorAll("#board svg text")].map((t) => t.textContent)
            .join(" | "),
        })"""
    )
    return texts


def test_after_a_resignation_everything_says_who_won(
    browser: Browser, shared_server: Server
) -> None:
    match_id, _, _, page = open_hot_seat(browser, shared_server, "murus-gallicus")
    resign(page)  # the Romans, to move, resign at once
    shown = shown_end(page)
    # The server draws the caption itself, for every viewer (here a spectator) and in review.
    status, view = shared_server.get(f"/api/matches/{match_id}")
    assert status == 200 and view["status_text"] == "Game over: Gauls won.", view["status_text"]
    assert "Game over: Gauls won." in view["svg"] and "to move" not in view["svg"]
    status, position = shared_server.get(f"/api/matches/{match_id}/position?at={view['ply']}")
    assert status == 200 and "Game over: Gauls won." in position["svg"]
    assert shown["status"] == "Game over: Gauls won."
    assert shown["phase"] == "Romans resigned."
    assert shown["banner"] == "Gauls won. Romans resigned."
    assert shown["caption"] == "Game over: Gauls won."
    for text in (shown["status"], shown["phase"], shown["svgText"]):
        assert "to move" not in text and "Phase" not in text, shown
    expect(page.locator("#players .turn-mark")).to_have_count(0)
    page.reload()
    assert shown_end(page) == shown
    page.context.close()


def test_a_side_with_no_move_loses_and_the_page_says_so(
    browser: Browser, shared_server: Server
) -> None:
    match_id, tokens, context, page = open_hot_seat(browser, shared_server, "murus-gallicus")
    state = engine_state(shared_server, match_id, tokens[0])
    bot = make_bot("random", state.game, 0)
    assert bot is not None
    ply = 0
    while not state.is_terminal():  # this seed's random game ends with the Gauls unable to move
        seat = state.current_player
        turn = state.action_to_str(bot.choose(state))
        status, answer = shared_server.post(
            f"/api/matches/{match_id}/turn", {"seat": seat, "ply": ply, "turn": turn}, tokens[seat]
        )
        assert status == 200, answer
        state.play(turn)
        ply += 1
    shown = shown_end(page)
    assert shown["status"] == "Game over: Romans won."
    assert shown["phase"] == "Gauls had no move left, and a side that cannot move loses."
    assert shown["banner"] == "Romans won. " + shown["phase"]
    assert shown["caption"] == "Game over: Romans won."
    assert "stalemate" not in " ".join(shown.values()).lower(), shown
    context.close()
