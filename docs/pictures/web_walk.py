"""Walk through every game's page as a lichess player would, and take the screenshots of the
lobby and of the game pages with clocks for docs/web-pages.md.

Starts ``boardlab serve`` on 127.0.0.1 with a temporary store; for each of the five games a
two-player match with a 10+5 clock, some random turns in, held by this browser, photographed at
1280x860 and at 390x844 (``/tmp/boardlab-walk/`` for looking at, the phone ones also in
``docs/pictures/``); then the lobby with its own games (laptop and phone). Run from the
repository root::

    PYTHONPATH=. .venv/bin/python docs/pictures/web_walk.py
"""

from __future__ import annotations

import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

from playwright.sync_api import Browser, ViewportSize, sync_playwright

import boardlab
from boardlab.ai.players import make_bot
from boardlab.core.registry import game_ids
from tests.chromium import launch
from tests.web.browser_play import create_match, open_link, open_match
from tests.web.conftest import Server, start_server
from tests.web.test_browser_axe import OPTIONS
from tests.web.test_browser_mine import LONG_AGO, hold

HERE = Path(__file__).resolve().parent
WALK = Path("/tmp/boardlab-walk")
LAPTOP: ViewportSize = {"width": 1280, "height": 860}
PHONE: ViewportSize = {"width": 390, "height": 844}
TURNS = 9
CLOCK = {"base": 600, "increment": 5}


def started(
    server: Server, game: str, clock: dict[str, int] | None = CLOCK
) -> tuple[str, list[str]]:
    """A match of two human seats (a 10+5 clock unless told), ``TURNS`` random turns in."""
    options = OPTIONS.get(game, {})
    status, created = server.post(
        "/api/matches",
        {
            "game": game,
            "options": options,
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "clock": clock,
        },
    )
    assert status == 201, created
    tokens = [seat["token"] for seat in created["seats"]]
    state = boardlab.make(game, **options).new_initial_state()
    bot = make_bot("random", state.game, 1)
    assert bot is not None
    steps: list[str] = []
    ply = 0
    while ply < TURNS and not state.is_terminal():
        seat = state.current_player
        action = bot.choose(state)
        steps.append(state.action_to_str(action))
        state.apply_action(action)
        if state.turn_start or state.is_terminal():
            body = {"seat": seat, "ply": ply, "turn": "+".join(steps)}
            answer = server.post(f"/api/matches/{created['id']}/turn", body, tokens[seat])
            assert answer[0] == 200, answer
            steps, ply = [], ply + 1
    return str(created["id"]), tokens


def walk(browser: Browser, server: Server) -> None:
    WALK.mkdir(exist_ok=True)
    for game in game_ids():
        match, tokens = started(server, game)
        for label, size in (("laptop", LAPTOP), ("phone", PHONE)):
            context = browser.new_context(viewport=size)
            page = open_match(context, server, match, {0: tokens[0], 1: tokens[1]})
            page.wait_for_timeout(500)
            page.screenshot(path=str(WALK / f"{game}-{label}.png"))
            if label == "phone":
                page.screenshot(path=str(HERE / f"web-phone-{game}.png"))
                print(f"wrote docs/pictures/web-phone-{game}.png")
            context.close()


def game_over(browser: Browser, server: Server) -> None:
    """A hot-seat Murus Gallicus game ended by a resignation, at laptop and phone size."""
    match, tokens = started(server, "murus-gallicus", None)
    answer = server.post(f"/api/matches/{match}/resign", {"seat": 0}, tokens[0])
    assert answer[0] == 200, answer
    for name, size in (("web-game-over", LAPTOP), ("web-phone-game-over", PHONE)):
        context = browser.new_context(viewport=size)
        page = open_match(context, server, match, {0: tokens[0], 1: tokens[1]})
        page.wait_for_selector("#banner:not([hidden])")
        page.wait_for_timeout(500)
        page.screenshot(path=str(HERE / f"{name}.png"))
        print(f"wrote docs/pictures/{name}.png")
        context.close()


def friend_and_spectator(browser: Browser, server: Server) -> None:
    """A friend's page opened from the invite link, and a spectator of a Carnyx match."""
    status, created = server.post(
        "/api/matches",
        {"game": "murus-gallicus", "seats": [{"kind": "human"}, {"kind": "invite"}]},
    )
    assert status == 201, created
    token = created["seats"][0]["token"]
    answer = server.post(
        f"/api/matches/{created['id']}/turn", {"seat": 0, "ply": 0, "turn": "d1-d3"}, token
    )
    assert answer[0] == 200, answer
    context = browser.new_context(viewport=LAPTOP)
    page = open_link(context, server, created["seats"][1]["link"])
    page.wait_for_timeout(500)
    page.screenshot(path=str(HERE / "web-invite-friend.png"))
    print("wrote docs/pictures/web-invite-friend.png")
    context.close()
    match, _ = started(server, "carnyx", None)
    context = browser.new_context(viewport=LAPTOP)
    page = open_match(context, server, match)
    page.wait_for_timeout(500)
    page.screenshot(path=str(HERE / "web-spectator.png"))
    print("wrote docs/pictures/web-spectator.png")
    context.close()


def lobby(browser: Browser, server: Server) -> None:
    """The lobby of a browser holding one seat in each of four matches: its turn, the other
    side's, one abandoned (its stored date moved back) and one finished."""
    mine = create_match(server, "murus-gallicus", [{"kind": "human"}, {"kind": "invite"}])
    theirs = create_match(server, "cyvasse", [{"kind": "invite"}, {"kind": "human"}])
    idle = create_match(server, "anacund", [{"kind": "human"}, {"kind": "invite"}])
    done = create_match(server, "carnyx", [{"kind": "human"}, {"kind": "invite"}])
    token = done["seats"][0]["token"]
    answer = server.post(f"/api/matches/{done['id']}/resign", {"seat": 0}, token)
    assert answer[0] == 200, answer
    with closing(sqlite3.connect(server.db)) as db, db:
        db.execute("UPDATE matches SET updated = ? WHERE id = ?", (LONG_AGO, idle["id"]))
    held = {
        created["id"]: {str(seat): created["seats"][seat]["token"]}
        for created, seat in ((mine, 0), (theirs, 1), (idle, 0), (done, 0))
    }
    for name, size in (("web-lobby", LAPTOP), ("web-phone-lobby-mine", PHONE)):
        context = browser.new_context(viewport=size)
        page = context.new_page()
        hold(page, server, held)
        page.goto(server.url)
        page.wait_for_selector("#mine-list tr")
        page.wait_for_timeout(500)
        page.screenshot(path=str(HERE / f"{name}.png"))
        print(f"wrote docs/pictures/{name}.png")
        if size is LAPTOP:
            page.screenshot(
                path=str(HERE / "web-lobby-mine.png"),
                clip={"x": 0, "y": 0, "width": 1280, "height": 360},
            )
            print("wrote docs/pictures/web-lobby-mine.png")
        context.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        server = start_server(Path(folder) / "boardlab.sqlite3")
        browser = launch(playwright)
        try:
            walk(browser, server)
            game_over(browser, server)
            friend_and_spectator(browser, server)
            lobby(browser, server)
        finally:
            browser.close()
            server.stop()


if __name__ == "__main__":
    main()
