"""Make ``playtest-dashboard-demo.png``: the dashboard of the Carnyx playtest of
``docs/playtests.md`` filled by a script, not by people.

Run from the repository root: ``.venv/bin/python docs/pictures/playtest-demo.py``. It starts a
``boardlab serve`` on a temporary store, makes the playtest (Supply against Token, playtesters
against each other), has 24 pairs of simulated playtesters join it and play to the end with
random moves typed through the API (a few mistyped first), answer the survey with made-up
scores, runs the bots' self-play, and saves a screenshot of the dashboard in Chromium.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

import boardlab  # noqa: E402
from boardlab.ai.players import make_bot  # noqa: E402
from tests.web.conftest import start_server  # noqa: E402

PAIRS = 24
COMMENTS = (
    "Token conversion snowballs: whoever exits first runs away with it.",
    "Clear once I read the exit rule twice.",
    "Fun! The merge decision is the heart of it.",
    "Where does the extra piece from the centre start? I guessed.",
    "",
)


def play(server: object, match: str, tokens: dict[int, str], rng: random.Random) -> None:
    """Random whole turns, a mistyped one now and then, until the game ends."""
    post = server.post  # type: ignore[attr-defined]
    view = server.get(f"/api/matches/{match}", tokens[0])[1]  # type: ignore[attr-defined]
    state = boardlab.make(view["game"], **view["options"]).new_initial_state()
    bot = make_bot("random", state.game, rng.randrange(10**6))
    assert bot is not None
    ply = 0
    while not state.is_terminal():
        seat = state.current_player
        if rng.random() < 0.04:
            post(
                f"/api/matches/{match}/turn",
                {"seat": seat, "ply": ply, "turn": "c3-c9"},
                tokens[seat],
            )
        steps: list[str] = []
        while not steps or not (state.is_terminal() or state.turn_start):
            action = bot.choose(state)
            steps.append(state.action_to_str(action))
            state.apply_action(action)
        time.sleep(rng.random() * 0.05)
        post(
            f"/api/matches/{match}/turn",
            {"seat": seat, "ply": ply, "turn": "+".join(steps)},
            tokens[seat],
        )
        ply += 1


def main() -> None:
    rng = random.Random(42)
    folder = Path(tempfile.mkdtemp())
    server = start_server(folder / "store.sqlite3")
    try:
        status, made = server.post(
            "/api/playtests",
            {
                "game": "carnyx",
                "title": "Carnyx: supply or token?",
                "variants": [
                    {"name": "Supply (as the sheet)", "options": {"conversion": "supply"}},
                    {"name": "Token", "options": {"conversion": "token"}},
                ],
            },
        )
        assert status == 201, made
        for _ in range(PAIRS):
            first = server.post(f"/api/playtests/{made['id']}/join", {})[1]
            second = server.post(f"/api/playtests/{made['id']}/join", {})[1]
            tokens = {first["seat"]: first["token"], second["seat"]: second["token"]}
            play(server, first["match"], tokens, rng)
            for seat, token in tokens.items():
                scores = [rng.choice([None, 2, 3, 4, 4, 5]) for _ in range(4)]
                if all(score is None for score in scores):
                    scores[0] = 4
                body = {"seat": seat, "scores": scores, "text": rng.choice(COMMENTS)}
                server.post(
                    f"/api/playtests/{made['id']}/matches/{first['match']}/survey", body, token
                )
        server.post(f"/api/playtests/{made['id']}/bots", {}, made["token"])
        while server.get(f"/api/playtests/{made['id']}/dashboard", made["token"])[1][
            "bots_running"
        ]:
            time.sleep(1)
        with sync_playwright() as driver:
            browser = driver.chromium.launch(
                executable_path="/usr/bin/chromium",
                args=["--headless", "--no-sandbox", "--disable-gpu"],
            )
            page = browser.new_page(viewport={"width": 1280, "height": 2000})
            page.goto(server.url.rstrip("/") + made["dashboard"])
            page.wait_for_selector("#game-rows tr")
            page.screenshot(path=str(Path(__file__).parent / "playtest-dashboard-demo.png"))
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
