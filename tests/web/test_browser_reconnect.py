"""A game page survives its server being killed (SIGKILL) and started again on the same store:
it says it is reconnecting, reconnects by itself, and the game goes on from the same position."""

from __future__ import annotations

import signal
from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.web.browser_play import (
    WAIT_MS,
    bot_turn,
    create_match,
    engine_state,
    open_match,
    play_turn,
    ply,
)
from tests.web.conftest import start_server


def test_page_reconnects_to_a_restarted_server(browser: Browser, tmp_path: Path) -> None:
    db = tmp_path / "boardlab.sqlite3"
    server = start_server(db)
    try:
        created = create_match(server, "murus-gallicus", [{"kind": "human"}, {"kind": "human"}], {})
        match_id = created["id"]
        tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
        context = browser.new_context()
        page = open_match(context, server, match_id, tokens)
        expect(page.locator("#connection")).to_have_text("live")
        state = engine_state(server, match_id)
        play_turn(page, state, bot_turn(state, "greedy", seed=0))

        server.stop(signal.SIGKILL)
        expect(page.locator("#connection")).to_have_text("reconnecting…")
        server = start_server(db, port=server.port)
        expect(page.locator("#connection")).to_have_text("live", timeout=WAIT_MS)

        assert ply(page) == 1
        state = engine_state(server, match_id)
        play_turn(page, state, bot_turn(state, "greedy", seed=1))
        status, view = server.get(f"/api/matches/{match_id}")
        assert (status, view["ply"]) == (200, 2)
        context.close()
    finally:
        server.stop()
