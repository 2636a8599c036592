"""A bot that cannot search never passes itself off as a move, and a bot waits, saying so, while
the server prepares the bots: checked on a real ``boardlab serve`` whose processes carry an
injected fault (``tests/web/faults/sitecustomize.py``), in the API, the page and the CLI."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.web.browser_play import create_match, open_match
from tests.web.conftest import UNLIMITED, Server, start_server

FAULTS = Path(__file__).with_name("faults")
WAIT_SECONDS = 240.0
"""Long enough for a cold cache: preparing the bots then compiles them."""


@pytest.fixture
def faulty_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[[str], Server]]:
    """Starts a server (and its bot workers) with ``BOARDLAB_FAULT`` set to its argument;
    every server it started is stopped after the test."""
    started: list[Server] = []

    def start(fault: str) -> Server:
        monkeypatch.setenv("PYTHONPATH", str(FAULTS))
        monkeypatch.setenv("BOARDLAB_FAULT", fault)
        started.append(start_server(tmp_path / "faulty.sqlite3", options=UNLIMITED, prepare=True))
        return started[-1]

    yield start
    for server in started:
        server.stop()


def wait_for(server: Server, path: str, check: Any, token: str | None = None) -> Any:
    """Poll ``path`` until ``check(answer)`` holds; the answer."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        status, answer = server.get(path, token)
        assert status == 200, answer
        if check(answer):
            return answer
        assert time.monotonic() < deadline, answer
        time.sleep(0.2)


def test_a_failed_search_is_reported_to_the_players_and_no_move_is_played(
    faulty_server: Callable[[str], Server], browser: Browser
) -> None:
    server = faulty_server("search")
    server.expect_log(r"bot level:medium could not move in match \w+: RuntimeError")
    server.expect_log(r"bot worker \d+: the bots of [a-z-]+ could not be prepared")
    # Each failure's traceback: the worker's, then the server's.
    server.expect_log(r"RuntimeError: the search broke \(a fault the test injected\)")
    server.expect_log(r"the bots of [a-z-, ]+ could not be prepared \(see above\)")
    created = create_match(
        server, "murus-gallicus", [{"kind": "bot", "bot": "level:medium"}, {"kind": "human"}]
    )
    match_id, token = created["id"], created["seats"][1]["token"]
    view = wait_for(server, f"/api/matches/{match_id}", lambda v: v["bot"] == "failed", token)
    assert view["moves"] == [] and view["ply"] == 0 and view["to_move"] == 0
    assert view["bot_note"].startswith("The bot could not move (RuntimeError: the search broke")
    assert "retrying in 5 s" in view["bot_note"] and "You may resign" in view["bot_note"]
    health = server.get("/api/health")[1]
    assert health["bots"]["failures"] >= 1
    # Preparing failed too, where a level searches with alpha-beta (Anacund's use MCTS).
    games = health["bots"]["games"]
    assert games.pop("anacund") == "ready" and set(games.values()) == {"failed"}
    page = open_match(browser.new_context(), server, match_id, {1: token})
    expect(page.locator("#status")).to_contain_text("The bot could not move")
    expect(page.locator(".seat[data-seat='0'] .bot-failed")).to_have_text("could not move")
    # It tries again by itself, and still plays nothing in the bot's place.
    wait_for(server, "/api/health", lambda h: h["bots"]["failures"] >= 2)
    assert server.get(f"/api/matches/{match_id}", token)[1]["moves"] == []
    # The player may resign: the game ends and nothing more is said of the bot.
    assert server.post(f"/api/matches/{match_id}/resign", {"seat": 1}, token)[0] == 200
    view = server.get(f"/api/matches/{match_id}", token)[1]
    assert view["status"] == "finished" and view["bot"] is None and view["bot_note"] is None
    page.context.close()


def test_a_bot_asked_before_the_bots_are_ready_says_it_is_preparing_then_moves(
    faulty_server: Callable[[str], Server],
) -> None:
    server = faulty_server("prepare=2")
    assert server.get("/api/health")[1]["bots"]["ready"] is False
    created = create_match(
        server, "carnyx", [{"kind": "bot", "bot": "level:easy"}, {"kind": "human"}]
    )
    match_id, token = created["id"], created["seats"][1]["token"]
    view = server.get(f"/api/matches/{match_id}", token)[1]
    assert view["bot"] == "preparing" and view["moves"] == []
    assert view["bot_note"] == "Preparing the bot (first start only)…"
    health = wait_for(server, "/api/health", lambda h: h["bots"]["ready"])
    assert set(health["bots"]["games"].values()) == {"ready"}
    view = wait_for(server, f"/api/matches/{match_id}", lambda v: len(v["moves"]) == 1, token)
    assert view["bot"] is None and view["bot_note"] is None
    assert "Preparing the bots of every game" in server.output()
    assert "The bots are ready" in server.output()


def test_the_terminal_says_in_one_line_that_a_bot_could_not_move(tmp_path: Path) -> None:
    env = {"PYTHONPATH": str(FAULTS), "BOARDLAB_FAULT": "search"}
    command = [sys.executable, "-m", "boardlab", "play", "carnyx"]
    done = subprocess.run(
        [*command, "--player", "level:medium", "--player", "human"],
        env={**os.environ, **env},
        input="",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines == [
        "boardlab: error: the bot level:medium could not move: "
        "the search broke (a fault the test injected)"
    ]
    assert "Traceback" not in done.stdout
