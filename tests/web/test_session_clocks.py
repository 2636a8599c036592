"""A match's clocks as its players see them, against the app served in the test process
(``local.py``) so that mutation testing sees the session's clock code: whose clock runs, what
each seat has left, and the flag of a seat out of time, dated when its time ran out.

``test_api_clock.py`` tests the same clocks through ``boardlab serve`` (timers, restarts).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest

from tests.web.local import LocalServer, serve_here

HUMANS = [{"kind": "human"}, {"kind": "invite"}]


@pytest.fixture(scope="module")
def here(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    with serve_here(tmp_path_factory.mktemp("clocks") / "boardlab.sqlite3") as server:
        yield server


def clocked(server: LocalServer, clock: dict[str, int]) -> tuple[str, str, str]:
    """A new Murus Gallicus match between two people with ``clock``: id and both tokens."""
    body = {"game": "murus-gallicus", "seats": HUMANS, "clock": clock}
    status, answer = server.post("/api/matches", body)
    assert status == 201, answer
    return answer["id"], answer["seats"][0]["token"], answer["seats"][1]["token"]


def play(server: LocalServer, match: str, token: str, seat: int, ply: int, text: str) -> Any:
    status, view = server.post(
        f"/api/matches/{match}/turn", {"seat": seat, "ply": ply, "turn": text}, token
    )
    assert status == 200, view
    return view


def test_a_real_time_clock_runs_from_each_seats_second_turn_and_adds_the_increment(
    here: LocalServer,
) -> None:
    match, romans, gauls = clocked(here, {"base": 60, "increment": 2})
    clock = here.get(f"/api/matches/{match}")[1]["clock"]
    assert {k: v for k, v in clock.items() if k != "since"} == {
        "kind": "realtime",
        "label": "1+2",
        "base": 60,
        "increment": 2,
        "days": 0,
        "remaining": [60, 60],
        "running": None,
    }
    # Neither side's first turn is timed: no clock runs until both have moved once.
    assert play(here, match, romans, 0, 0, "d1-d3")["clock"]["running"] is None
    opened = play(here, match, gauls, 1, 1, "a7-a5")
    assert opened["clock"]["remaining"] == [60, 60] and opened["clock"]["running"] == 0
    assert 0 <= opened["now"] - opened["clock"]["since"] < 5
    time.sleep(0.3)
    line = listed(here, match)
    assert line["status"] == "active" and re.fullmatch(r".*T.*\.\d{6}\+00:00", line["deadline"])
    due = datetime.fromisoformat(line["deadline"]).timestamp()
    assert due == pytest.approx(opened["clock"]["since"] + 60, abs=0.002)
    view = play(here, match, romans, 0, 2, "c1-c3")
    spent = 60 + 2 - view["clock"]["remaining"][0]
    assert 0.3 <= spent < view["now"] - opened["clock"]["since"] + 0.01
    assert view["clock"]["remaining"][1] == 60 and view["clock"]["running"] == 1
    left = view["clock"]["remaining"][0]
    assert round(left, 3) == left  # the API gives seconds to the millisecond
    assert view["clock"]["since"] >= opened["clock"]["since"] + 0.3


def listed(server: LocalServer, match: str) -> Any:
    """The lobby's line of a match."""
    return next(m for m in server.get("/api/matches?limit=200")[1]["matches"] if m["id"] == match)


def test_days_per_move_time_every_turn_from_the_first(here: LocalServer) -> None:
    match, romans, gauls = clocked(here, {"days": 2})
    clock = here.get(f"/api/matches/{match}", gauls)[1]["clock"]
    assert clock["kind"] == "correspondence" and clock["label"] == "2 days per move"
    assert clock["days"] == 2 and clock["running"] == 0
    assert clock["remaining"] == [2 * 86400, 2 * 86400]
    view = play(here, match, romans, 0, 0, "d1-d3")
    assert view["clock"]["running"] == 1 and view["clock"]["remaining"][1] == 2 * 86400
    assert 2 * 86400 - 5 < view["clock"]["remaining"][0] <= 2 * 86400


def test_a_seat_out_of_time_loses_when_it_next_moves_dated_when_its_time_ran_out(
    here: LocalServer,
) -> None:
    match, romans, gauls = clocked(here, {"base": 1})
    play(here, match, romans, 0, 0, "d1-d3")
    opened = play(here, match, gauls, 1, 1, "a7-a5")["clock"]
    assert opened["running"] == 0 and opened["remaining"] == [1, 1]
    time.sleep(1.3)
    body = {"seat": 0, "ply": 2, "turn": "c1-c3"}
    status, answer = here.post(f"/api/matches/{match}/turn", body, romans)
    assert status == 409 and answer["error"] == "the game is over"
    view = here.get(f"/api/matches/{match}", gauls)[1]
    assert view["status"] == "finished" and view["ply"] == 2
    assert view["result"]["text"] == "Gauls won (out of time)"
    assert view["result"]["termination"] == "timeout"
    assert view["result"]["results"] == ["loss", "win"]
    assert view["clock"]["remaining"] == [0, 1] and view["clock"]["running"] is None
    assert view["clock"]["since"] == round(opened["since"] + 1, 3)
    record = here.get(f"/api/matches/{match}/record", gauls)[1]
    assert "\nResult: Romans=loss Gauls=win\nTermination: timeout\n" in record


def test_a_match_without_a_clock_shows_none(here: LocalServer) -> None:
    body = {"game": "murus-gallicus", "seats": HUMANS}
    status, answer = here.post("/api/matches", body)
    assert status == 201
    view = here.get(f"/api/matches/{answer['id']}")[1]
    assert view["clock"] is None and "now" not in view
    assert listed(here, answer["id"])["deadline"] is None


def test_a_move_with_less_than_a_second_left_is_accepted_and_charged(here: LocalServer) -> None:
    match, romans, gauls = clocked(here, {"base": 2})
    play(here, match, romans, 0, 0, "d1-d3")
    since = play(here, match, gauls, 1, 1, "a7-a5")["clock"]["since"]
    # About 0.8 s left when the move arrives: no flag may fall before the time is out.
    time.sleep(max(0.0, since + 1.2 - time.time()))
    view = play(here, match, romans, 0, 2, "c1-c3")
    assert view["status"] == "active" and view["clock"]["running"] == 1
    assert 0 < view["clock"]["remaining"][0] <= 0.8
    assert round(view["clock"]["remaining"][0], 3) == view["clock"]["remaining"][0]
