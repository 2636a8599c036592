"""One address cannot stall everybody's bots (issue 36, items 3 and 5), on a real server: many
all-bot expert matches from one address leave a person's bot on a clock its worker, and one
address asking the analysis bot without pause leaves another address its turns."""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Server, start_server

ALL_BOTS = {
    "game": "cyvasse",
    "seats": [{"kind": "bot", "bot": "level:expert"}, {"kind": "bot", "bot": "level:expert"}],
}
READY_SECONDS = 240.0


@pytest.fixture
def prepared(tmp_path: Path) -> Iterator[Server]:
    """A server that prepares its bots at start, as users get it: their first searches are
    as fast as the later ones."""
    running = start_server(tmp_path / "fair.sqlite3", prepare=True)
    try:
        yield running
    finally:
        running.stop()


def from_address(
    server: Server, address: str, method: str, path: str, body: Any = None, token: str = ""
) -> tuple[int, Any]:
    """A JSON request sent from ``address`` (of 127.0.0.0/8): (status, answer)."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", server.port, timeout=60, source_address=(address, 0)
    )
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        data = None if body is None else json.dumps(body)
        connection.request(method, path, data, headers)
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        connection.close()


def wait_until_bots_ready(server: Server) -> None:
    deadline = time.monotonic() + READY_SECONDS
    while not server.get("/api/health")[1]["bots"]["ready"]:
        assert time.monotonic() < deadline
        time.sleep(0.2)


def test_all_bot_matches_of_one_address_leave_a_person_s_bot_on_a_clock_its_worker(
    prepared: Server,
) -> None:
    server = prepared
    wait_until_bots_ready(server)
    for _ in range(6):
        assert from_address(server, "127.0.0.2", "POST", "/api/matches", ALL_BOTS)[0] == 201
    time.sleep(1.0)  # their searches have started and fill what they may
    status, created = from_address(
        server,
        "127.0.0.3",
        "POST",
        "/api/matches",
        {
            "game": "murus-gallicus",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "level:easy"}],
            "clock": {"base": 20, "increment": 0},
        },
    )
    assert status == 201
    match, token = created["id"], created["seats"][0]["token"]
    answers = []
    for ply in (0, 2, 4):
        view = from_address(server, "127.0.0.3", "GET", f"/api/matches/{match}", None, token)[1]
        move = view["legal"][0]["text"]
        body = {"seat": 0, "ply": ply, "turn": move}
        sent = time.monotonic()
        path = f"/api/matches/{match}/turn"
        assert from_address(server, "127.0.0.3", "POST", path, body, token)[0] == 200
        while True:
            view = from_address(server, "127.0.0.3", "GET", f"/api/matches/{match}", None, token)
            if view[1]["ply"] == ply + 2:
                break
            assert time.monotonic() - sent < 30, view
            time.sleep(0.02)
        answers.append(time.monotonic() - sent)
    # Behind six expert searches of 3 s it would wait 10 s and more each time.
    assert max(answers) < 2.5, answers
    assert view[1]["status"] == "active"
    assert view[1]["clock"]["remaining"][1] > 17


def test_one_address_asking_the_analysis_bot_without_pause_leaves_others_their_turns(
    prepared: Server,
) -> None:
    server = prepared
    wait_until_bots_ready(server)
    body = {"source": {"game": "carnyx"}, "line": [], "bot": "level:expert"}
    stop = threading.Event()
    greedy: list[int] = []

    def monopolise() -> None:
        while not stop.is_set():
            status, _ = from_address(server, "127.0.0.4", "POST", "/api/analysis/evaluate", body)
            greedy.append(status)
            if status == 429:
                time.sleep(0.05)

    threads = [threading.Thread(target=monopolise) for _ in range(3)]
    for thread in threads:
        thread.start()
    try:
        time.sleep(0.5)
        mine = [
            from_address(server, "127.0.0.5", "POST", "/api/analysis/evaluate", body)[0]
            for _ in range(3)
        ]
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    assert mine == [200, 200, 200]
    assert 200 in greedy  # it was served too, and only ever one search at a time
