"""The rules of web clocks (``web/clock.py``): what a time control is and reads as, how each
turn charges the seat to move, and what a bot may spend; and, against the app served in the
test process (``local.py``), a takeback on a running clock gives nobody the increment.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest

from boardlab.web.clock import Clocks, TimeControl, moment, time_control
from boardlab.web.errors import ApiError
from tests.web.local import LocalServer, serve_here

START = "2026-01-01T12:00:00+00:00"
INCREMENT = "the clock's 'increment' must be a whole number from 0 to 180"


def at(seconds: float) -> datetime:
    """``seconds`` after START."""
    return moment(START) + timedelta(seconds=seconds)


@pytest.mark.parametrize(
    ("control", "kind", "text", "label", "allowance"),
    [
        (TimeControl(180, 2), "realtime", "180+2", "3+2", 180.0),
        (TimeControl(90, 0), "realtime", "90+0", "1.5+0", 90.0),
        (TimeControl(60, 5), "realtime", "60+5", "1+5", 60.0),
        (TimeControl(59, 5), "realtime", "59+5", "59 s+5", 59.0),
        (TimeControl(days=1), "correspondence", "1d", "1 day per move", 86400.0),
        (TimeControl(days=3), "correspondence", "3d", "3 days per move", 3 * 86400.0),
        (TimeControl(), "none", "", "no clock", 0.0),
    ],
)
def test_a_time_control_reads_as_players_and_the_store_write_it(
    control: TimeControl, kind: str, text: str, label: str, allowance: float
) -> None:
    assert (control.kind, control.text, control.label, control.allowance) == (
        kind,
        text,
        label,
        allowance,
    )
    assert TimeControl.from_text(text) == control


@pytest.mark.parametrize("text", ["3", "3+", "+2", "180+2 ", "123456+1", "1+1234", "100d", "d"])
def test_a_stored_time_control_other_than_the_three_forms_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="bad time control"):
        TimeControl.from_text(text)


@pytest.mark.parametrize(
    ("data", "control"),
    [
        (None, TimeControl()),
        ({"base": 1}, TimeControl(1, 0)),
        ({"base": 10800, "increment": 180}, TimeControl(10800, 180)),
        ({"base": 60, "increment": 0}, TimeControl(60, 0)),
        ({"days": 1}, TimeControl(days=1)),
        ({"days": 30}, TimeControl(days=30)),
    ],
)
def test_a_clock_asked_for_in_bounds_is_given(data: object, control: TimeControl) -> None:
    assert time_control(data) == control


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({}, "'clock' must be null"),
        ([60, 2], "'clock' must be null"),
        ({"base": 60, "minutes": 1}, "'clock' must be null"),
        ({"days": 1, "base": 60}, "'clock' must be null"),
        ({"days": 0}, "the clock's 'days' must be a whole number from 1 to 30"),
        ({"days": 31}, "the clock's 'days' must be a whole number from 1 to 30"),
        ({"days": True}, "the clock's 'days' must be a whole number from 1 to 30"),
        ({"base": 0}, "the clock's 'base' must be a whole number from 1 to 10800"),
        ({"base": 10801}, "the clock's 'base' must be a whole number from 1 to 10800"),
        ({"base": 60.0}, "the clock's 'base' must be a whole number from 1 to 10800"),
        ({"increment": 2}, "the clock's 'base' must be a whole number from 1 to 10800"),
        (
            {"base": 60, "increment": -1},
            "the clock's 'increment' must be a whole number from 0 to 180",
        ),
        (
            {"base": 60, "increment": 181},
            "the clock's 'increment' must be a whole number from 0 to 180",
        ),
    ],
)
def test_a_clock_asked_for_out_of_bounds_is_refused_with_the_bounds(
    data: object, words: str
) -> None:
    with pytest.raises(ApiError) as refused:
        time_control(data)
    message = refused.value.message
    assert refused.value.status == 400 and message.startswith(words), message
    assert message.endswith(('or {"days": days}', "to 30", "to 10800", "to 180")), message


def test_a_moving_seat_is_charged_its_turn_and_gains_the_increment() -> None:
    clocks = Clocks(TimeControl(60, 10), 2, START)
    assert clocks.remaining == [60.0, 60.0] and clocks.running is None
    assert clocks.left(at(5)) == math.inf and clocks.deadline() is None
    clocks.turn_begins(1, True, at(0))
    assert clocks.left(at(15)) == pytest.approx(45.0)
    assert clocks.deadline() == at(60)
    clocks.turn_ends(at(20), moved=True)
    assert clocks.remaining == [60.0, 50.0]
    # A turn that is no move (a takeback, the game's end) is charged without the increment.
    clocks.turn_begins(1, True, at(20))
    clocks.turn_ends(at(21.5), moved=False)
    assert clocks.remaining == [60.0, 48.5]
    # Out of time: nothing below zero, and the increment does not revive a flag.
    clocks.turn_begins(0, True, at(30))
    clocks.turn_ends(at(200), moved=False)
    assert clocks.remaining == [0.0, 48.5]


def test_an_untimed_turn_or_a_finished_game_charges_nobody() -> None:
    clocks = Clocks(TimeControl(60, 10), 2, START)
    clocks.turn_begins(0, False, at(0))
    assert clocks.running is None and clocks.since == at(0)
    clocks.turn_ends(at(30), moved=True)
    clocks.turn_begins(None, True, at(30))
    assert clocks.running is None
    clocks.turn_ends(at(90), moved=True)
    assert clocks.remaining == [60.0, 60.0]


def test_days_per_move_restart_each_turn_and_add_nothing() -> None:
    clocks = Clocks(TimeControl(days=2), 2, START)
    clocks.turn_begins(0, True, at(0))
    clocks.turn_ends(at(86400), moved=True)
    assert clocks.remaining == [86400.0, 2 * 86400.0]
    clocks.turn_begins(1, True, at(86400))
    clocks.turn_begins(0, True, at(90000))
    assert clocks.remaining[0] == 2 * 86400.0 and clocks.deadline() == at(90000 + 2 * 86400)
    assert clocks.bot_budget(at(90000)) is None


def test_a_bot_may_spend_a_twentieth_of_its_time_and_most_of_its_increment() -> None:
    clocks = Clocks(TimeControl(200, 5), 2, START)
    clocks.turn_begins(0, True, at(0))
    assert clocks.bot_budget(at(0)) == pytest.approx(200 / 20 + 0.8 * 5)
    # Never more than half of what is left, and never less than 0.05 s.
    assert clocks.bot_budget(at(194)) == pytest.approx(3.0)
    assert clocks.bot_budget(at(199.99)) == pytest.approx(0.05)
    assert Clocks(TimeControl(), 2, START).bot_budget(at(0)) is None
    untimed = Clocks(TimeControl(200, 5), 2, START)
    untimed.turn_begins(0, False, at(0))
    assert untimed.bot_budget(at(0)) is None


@pytest.fixture(scope="module")
def here(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    with serve_here(tmp_path_factory.mktemp("clock-rules") / "boardlab.sqlite3") as server:
        yield server


def test_accepting_a_takeback_on_a_clock_gives_nobody_the_increment(here: LocalServer) -> None:
    seats = [{"kind": "human"}, {"kind": "invite"}]
    body = {"game": "murus-gallicus", "seats": seats, "clock": {"base": 60, "increment": 10}}
    status, answer = here.post("/api/matches", body)
    assert status == 201, answer
    match = answer["id"]
    romans, gauls = (seat["token"] for seat in answer["seats"])
    for ply, (seat, token, text) in enumerate(
        [(0, romans, "d1-d3"), (1, gauls, "a7-a5"), (0, romans, "c1-c3")]
    ):
        status, view = here.post(
            f"/api/matches/{match}/turn", {"seat": seat, "ply": ply, "turn": text}, token
        )
        assert status == 200, view
    # The Gauls' clock runs; the Romans ask to take their last turn back and the Gauls agree.
    before = view["clock"]["remaining"]
    offer = {"seat": 0, "kind": "takeback"}
    assert here.post(f"/api/matches/{match}/offer", offer, romans)[0] == 200
    started = time.time()
    accept = {"seat": 1, "kind": "takeback", "ply": 3}
    status, view = here.post(f"/api/matches/{match}/accept", accept, gauls)
    assert status == 200 and view["ply"] == 2, view
    spent = time.time() - started
    # The Gauls are charged the time they took to agree, with no increment: they did not move.
    gauls_left = view["clock"]["remaining"][1]
    assert before[1] - view["now"] + view["clock"]["since"] - 1 <= gauls_left <= before[1]
    assert gauls_left < 60 and before[1] - gauls_left < spent + 5
    assert view["clock"]["running"] == 0 and view["clock"]["remaining"][0] <= before[0]
