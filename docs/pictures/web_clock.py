"""Take the screenshots of clocks, offers and the lobby's time control for docs/web-pages.md.

Starts ``boardlab serve`` on 127.0.0.1 with a temporary store, plays through the API and
photographs the pages in headless Chromium (1280 px wide). Run from the repository root::

    PYTHONPATH=. .venv/bin/python docs/pictures/web_clock.py
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from tests.chromium import launch
from tests.web.browser_play import open_link, open_match, wait_for
from tests.web.conftest import Server, start_server

HERE = Path(__file__).resolve().parent
SIZE = {"width": 1280, "height": 860}


def humans(server: Server, clock: dict[str, int] | None) -> dict[str, object]:
    status, created = server.post(
        "/api/matches",
        {
            "game": "murus-gallicus",
            "seats": [{"kind": "human"}, {"kind": "invite"}],
            "clock": clock,
        },
    )
    assert status == 201, created
    return dict(created)


def play(server: Server, match: str, tokens: list[str], turns: list[str]) -> None:
    for ply, text in enumerate(turns):
        body = {"seat": ply % 2, "ply": ply, "turn": text}
        status, answer = server.post(f"/api/matches/{match}/turn", body, tokens[ply % 2])
        assert status == 200, answer


def shoot(page: Page, name: str, full: bool = False) -> None:
    page.screenshot(path=str(HERE / f"{name}.png"), full_page=full)
    print(f"wrote docs/pictures/{name}.png")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        server = start_server(Path(folder) / "boardlab.sqlite3")
        browser = launch(playwright)
        try:
            # A 3+2 game under way, seen by the Romans while their clock runs.
            created = humans(server, {"base": 180, "increment": 2})
            match = str(created["id"])
            seats = created["seats"]
            assert isinstance(seats, list)
            tokens = [seats[0]["token"], seats[1]["token"]]
            play(server, match, tokens, ["d1-d3", "a7-a5", "c1-c3"])
            time.sleep(2.5)
            play_more = {"seat": 1, "ply": 3, "turn": "b7-b5"}
            assert server.post(f"/api/matches/{match}/turn", play_more, tokens[1])[0] == 200
            romans = open_match(browser.new_context(viewport=SIZE), server, match, {0: tokens[0]})
            time.sleep(1.2)
            shoot(romans, "web-clock-running")
            # The Romans offer a draw: the Gauls' page asks them to answer.
            status, _ = server.post(
                f"/api/matches/{match}/offer", {"seat": 0, "kind": "draw"}, tokens[0]
            )
            assert status == 200
            gauls = open_link(browser.new_context(viewport=SIZE), server, seats[1]["link"])
            gauls.wait_for_selector("#offer .accept")
            shoot(gauls, "web-clock-offer")

            # A 5-second clock runs out.
            created = humans(server, {"base": 5, "increment": 0})
            seats = created["seats"]
            assert isinstance(seats, list)
            flagged = str(created["id"])
            play(server, flagged, [seats[0]["token"], seats[1]["token"]], ["d1-d3", "a7-a5"])
            page = open_link(browser.new_context(viewport=SIZE), server, seats[1]["link"])
            wait_for(page, "() => document.body.dataset.status === 'finished'")
            shoot(page, "web-clock-flag")

            # The lobby: a correspondence game's deadline, and the form's time control.
            humans(server, {"days": 3})
            lobby = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            lobby.goto(server.url)
            lobby.locator('.game-card[data-game="murus-gallicus"] .new-game').click()
            lobby.locator("#clock").select_option("600+5")
            lobby.wait_for_selector('#matches tr[data-match] td:has-text("move due")')
            shoot(lobby, "web-lobby-clock", full=True)
        finally:
            browser.close()
            server.stop()


if __name__ == "__main__":
    main()
