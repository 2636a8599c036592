"""Long lines on the analysis board freeze nothing and store nothing large (issue 36, item 4),
on a real server with the default limits: addresses sending 4,000-decision lines without pause
leave health checks prompt and are refused once their lines have spent their moves, and a
line of thousands of turns cannot become a live match."""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from boardlab.core.registry import make
from tests.web.conftest import Server, start_server

STALLING = {"max_plies": 0, "repetition_draw": 0}
"""Carnyx options under which a game can go on for ever."""
ATTACKERS = ("127.0.0.2", "127.0.0.3", "127.0.0.4")
PROBE = "127.0.0.5"


def stalling_line(decisions: int) -> list[str]:
    """A legal Carnyx line of ``decisions`` moves that never ends the game (random moves, none
    of them ending it)."""
    rng = random.Random(7)
    game = make("carnyx", **{key: str(value) for key, value in STALLING.items()})
    state = game.new_initial_state()
    line: list[str] = []
    while len(line) < decisions:
        actions = list(state.legal_actions())
        rng.shuffle(actions)
        for action in actions:
            probe = state.clone()
            probe.apply_action(action)
            if not probe.is_terminal():
                break
        line.append(state.action_to_str(action))
        state.apply_action(action)
    return line


@pytest.fixture(scope="module")
def long_line() -> list[str]:
    return stalling_line(4000)


@pytest.fixture
def default_limits(tmp_path: Path) -> Iterator[Server]:
    running = start_server(tmp_path / "b.sqlite3", options=())
    try:
        yield running
    finally:
        running.stop()


def send(server: Server, address: str, path: str, body: Any) -> tuple[int, Any]:
    """One JSON POST (or a GET when ``body`` is None) from ``address``: (status, answer)."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", server.port, timeout=60, source_address=(address, 0)
    )
    try:
        if body is None:
            connection.request("GET", path)
        else:
            headers = {"Content-Type": "application/json"}
            connection.request("POST", path, json.dumps(body), headers)
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        connection.close()


def test_long_lines_from_several_addresses_leave_the_server_answering(
    default_limits: Server, long_line: list[str]
) -> None:
    body = {"source": {"game": "carnyx", "options": STALLING}, "line": long_line}
    status, answer = send(default_limits, PROBE, "/api/analysis/position", body)
    assert status == 200 and len(answer["line"]) == 4000
    stop = threading.Event()
    statuses: list[int] = []

    def attack(address: str) -> None:
        while not stop.is_set():
            statuses.append(send(default_limits, address, "/api/analysis/position", body)[0])

    threads = [threading.Thread(target=attack, args=(address,)) for address in ATTACKERS * 2]
    for thread in threads:
        thread.start()
    waits = []
    try:
        deadline = time.monotonic() + 6.0
        while time.monotonic() < deadline:
            sent = time.monotonic()
            assert send(default_limits, PROBE, "/api/health", None)[0] == 200
            waits.append(time.monotonic() - sent)
            time.sleep(0.05)
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    # On the event loop each line froze every request for 0.15 s and more: health checks
    # waited 3.5 s; off the loop, 0.24 s at worst on a busy machine.
    assert max(waits) < 1.0, sorted(waits)[-5:]
    # Each line costs 41 moves of an allowance of 120 at once: a few each, then refusals.
    assert statuses.count(200) <= len(ATTACKERS) * 4, statuses.count(200)
    assert 429 in statuses
    assert f"refused moves over the limit (429) from {ATTACKERS[0]}" in default_limits.output()


def test_a_line_of_thousands_of_turns_cannot_become_a_match(
    default_limits: Server, long_line: list[str]
) -> None:
    source = {"game": "carnyx", "options": STALLING}
    play = {"source": source, "seat": 0, "bot": "random"}
    status, answer = send(default_limits, PROBE, "/api/analysis/play", {**play, "line": long_line})
    assert status == 409, answer
    assert answer["error"] == "play on is possible from the first 500 turns of a game"
    shown = send(default_limits, PROBE, "/api/analysis/position", {"source": source, "line": []})
    assert shown[1]["play_on"] is True
    status, _ = send(default_limits, PROBE, "/api/analysis/play", {**play, "line": long_line[:500]})
    assert status == 201
