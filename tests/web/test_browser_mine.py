"""A browser's own games: the lobby lists the matches it holds a seat in, its turns first and
abandoned ones marked; the game page's title and favicon say "your turn", and a tone and a
notification come only when the player turned them on."""

from __future__ import annotations

import sqlite3
from contextlib import closing

from playwright.sync_api import Browser, Page, expect

from tests.web.browser_play import (
    WAIT_MS,
    create_match,
    engine_state,
    open_link,
    open_match,
    resign,
    wait_ply_past,
)
from tests.web.conftest import Server

LONG_AGO = "2020-01-01T00:00:00+00:00"
TURN_TITLE = "● Your turn — Murus Gallicus — Boardlab"
# Records what the page asks of the browser's notification and sound APIs, then lets the real
# ones run; the page is told it is not in focus, as when the player is in another tab.
SIGNAL_SPY = """
window.signals = { notes: [], tones: 0 };
const RealNotification = window.Notification;
window.Notification = class extends RealNotification {
  constructor(title, options) {
    window.signals.notes.push([title, options?.body ?? null]);
    super(title, options);
  }
};
const oscillator = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  window.signals.tones += 1;
  return oscillator.call(this);
};
document.hasFocus = () => false;
"""


def hold(page: Page, server: Server, tokens: dict[str, dict[str, str]]) -> None:
    """Put seat tokens (match id -> seat -> token) into the browser's storage."""
    page.goto(f"{server.url}static/favicon.svg")
    for match_id, seats in tokens.items():
        page.evaluate(
            "([key, value]) => localStorage.setItem(key, JSON.stringify(value))",
            [f"boardlab:match:{match_id}", seats],
        )


def test_the_lobby_lists_my_games_with_my_turns_first(browser: Browser, server: Server) -> None:
    mine_first = create_match(server, "murus-gallicus", [{"kind": "human"}, {"kind": "invite"}])
    theirs = create_match(server, "murus-gallicus", [{"kind": "invite"}, {"kind": "human"}])
    done = create_match(server, "carnyx", [{"kind": "human"}, {"kind": "human"}])
    idle = create_match(server, "murus-gallicus", [{"kind": "human"}, {"kind": "invite"}])
    other = create_match(server, "carnyx", [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    status, _ = server.post(
        f"/api/matches/{done['id']}/resign", {"seat": 0}, done["seats"][0]["token"]
    )
    assert status == 200
    with closing(sqlite3.connect(server.db)) as db, db:
        db.execute("UPDATE matches SET updated = ? WHERE id = ?", (LONG_AGO, idle["id"]))

    context = browser.new_context()
    page = context.new_page()
    hold(
        page,
        server,
        {
            theirs["id"]: {"1": theirs["seats"][1]["token"]},
            done["id"]: {"0": done["seats"][0]["token"], "1": done["seats"][1]["token"]},
            idle["id"]: {"0": idle["seats"][0]["token"]},
            mine_first["id"]: {"0": mine_first["seats"][0]["token"]},
        },
    )
    page.goto(server.url)
    rows = page.locator("#mine-list tr")
    expect(rows).to_have_count(4, timeout=WAIT_MS)
    order = [rows.nth(i).get_attribute("data-match") for i in range(4)]
    assert order == [mine_first["id"], theirs["id"], idle["id"], done["id"]]
    assert [rows.nth(i).get_attribute("data-state") for i in range(4)] == [
        "your turn",
        "in progress",
        "abandoned",
        "finished",
    ]
    expect(rows.nth(0)).to_contain_text("Your turn")
    expect(page).to_have_title("● Your turn (1) — Boardlab")
    expect(rows.nth(0).get_by_role("link", name="Play")).to_be_visible()
    expect(rows.nth(1)).to_contain_text("Gauls")
    expect(rows.nth(3)).to_contain_text("Light won")
    assert other["id"] not in order, "a match without a seat of this browser is not mine"

    # The list of every game says plainly which match is abandoned.
    everyone = page.locator(f'#matches tr[data-match="{idle["id"]}"]')
    expect(everyone).to_contain_text("abandoned")
    expect(page.locator(f'#matches tr[data-match="{theirs["id"]}"]')).to_contain_text("in progress")
    context.close()


def play_typed(page: Page, server: Server, match_id: str) -> None:
    """Make the first legal move of the position by typing it, and wait for the commit."""
    state = engine_state(server, match_id)
    before = int(page.get_attribute("body", "data-ply") or "0")
    page.locator("#notation-input").fill(state.action_to_str(state.legal_actions()[0]))
    page.locator("#notation-input").press("Enter")
    wait_ply_past(page, before)


def test_title_favicon_tone_and_notification_say_your_turn(
    browser: Browser, shared_server: Server
) -> None:
    created = create_match(shared_server, "murus-gallicus", [{"kind": "human"}, {"kind": "invite"}])
    match_id = created["id"]
    contexts = [browser.new_context() for _ in range(2)]
    for context in contexts:
        context.add_init_script(SIGNAL_SPY)
    contexts[1].grant_permissions(["notifications"])
    romans = open_match(contexts[0], shared_server, match_id, {0: created["seats"][0]["token"]})
    gauls = open_link(contexts[1], shared_server, created["seats"][1]["link"])
    favicon = "document.getElementById('favicon').getAttribute('href')"

    expect(romans).to_have_title(TURN_TITLE)
    assert romans.evaluate(favicon) == "/static/favicon-turn.svg"
    expect(gauls).to_have_title("Murus Gallicus — Boardlab")
    assert gauls.evaluate(favicon) == "/static/favicon.svg"

    # Off by default; the Gauls turn them on, the Romans leave them off.
    for page in (romans, gauls):
        expect(page.get_by_label("Sound and notification when it is my turn")).not_to_be_checked()
    gauls.get_by_label("Sound and notification when it is my turn").check()

    play_typed(romans, shared_server, match_id)
    expect(gauls).to_have_title(TURN_TITLE, timeout=WAIT_MS)
    expect(romans).to_have_title("Murus Gallicus — Boardlab")
    assert gauls.evaluate(favicon) == "/static/favicon-turn.svg"
    assert gauls.evaluate("window.signals.notes") == [["Your turn", "Murus Gallicus on Boardlab"]]
    assert gauls.evaluate("window.signals.tones") == 2

    play_typed(gauls, shared_server, match_id)
    expect(romans).to_have_title(TURN_TITLE, timeout=WAIT_MS)
    assert romans.evaluate("window.signals") == {"notes": [], "tones": 0}
    # The choice is kept: a reload of the Gauls' page still has it on.
    gauls.reload()
    expect(gauls.get_by_label("Sound and notification when it is my turn")).to_be_checked()

    resign(romans)
    expect(romans).to_have_title("Murus Gallicus — Boardlab", timeout=WAIT_MS)
    for context in contexts:
        context.close()
