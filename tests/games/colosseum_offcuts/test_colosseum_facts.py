"""Every Test fact of the Colosseum Offcuts spec (§14), one test per fact."""

from __future__ import annotations

from boardlab.core.outcome import Result, Termination
from boardlab.core.registry import make
from tests.games.colosseum_offcuts.helpers import state

GAME_ID = "colosseum-offcuts"
SETUP = "B@0,0 B@1,0 B@-1,0 B@2,0 F@-1,1 F@2,1 F@-1,-1 F@2,-1".split()
AFTER_SETUP = "2 -1,-1=1f/-1,0=1b/-1,1=1f/0,0=1b/1,0=2b/2,-1=2f/2,0=2b/2,1=2f 1 - 0 0 8"


def test_fact_01_initial_position() -> None:
    initial = make(GAME_ID).new_initial_state()
    assert initial.position_text() == "2 - 1 s1 0 0 0"
    assert initial.legal_moves() == ["B@0,0"]


def test_fact_02_full_two_player_setup() -> None:
    table = [
        ("2 0,0=1b 2 s2 0 0 1", "B@-1,0 B@0,-1 B@0,1 B@1,0"),
        ("2 0,0=1b/1,0=2b 1 s3 0 0 2", "B@-1,0 B@0,-1 B@0,1"),
        ("2 -1,0=1b/0,0=1b/1,0=2b 2 s3 0 0 3", "B@1,-1 B@1,1 B@2,0"),
        (
            "2 -1,0=1b/0,0=1b/1,0=2b/2,0=2b 1 s4 0 0 4",
            "F@-1,-1 F@-1,1 F@-2,0 F@0,-1 F@0,1",
        ),
        (
            "2 -1,0=1b/-1,1=1f/0,0=1b/1,0=2b/2,0=2b 2 s4 0 0 5",
            "F@1,-1 F@1,1 F@2,-1 F@2,1 F@3,0",
        ),
        (
            "2 -1,0=1b/-1,1=1f/0,0=1b/1,0=2b/2,0=2b/2,1=2f 1 s5 0 0 6",
            "F@-1,-1 F@-1,2 F@-2,0 F@-2,1 F@0,-1 F@0,1",
        ),
        (
            "2 -1,-1=1f/-1,0=1b/-1,1=1f/0,0=1b/1,0=2b/2,0=2b/2,1=2f 2 s5 0 0 7",
            "F@1,-1 F@1,1 F@2,-1 F@2,2 F@3,0 F@3,1",
        ),
    ]
    game_state = make(GAME_ID).new_initial_state()
    for move, (text, legal) in zip(SETUP, table, strict=False):
        game_state.play(move)
        assert game_state.position_text() == text
        assert game_state.legal_moves() == legal.split()
        assert state(text).legal_moves() == legal.split()
    game_state.play(SETUP[-1])
    assert game_state.position_text() == AFTER_SETUP


def test_fact_03_first_turn() -> None:
    legal = state(AFTER_SETUP).legal_moves()
    assert (
        legal
        == (
            "f-1,-1 f-1,0 f-1,1 f0,0 m-1,-1:-1,2 m-1,-1:-2,0 m-1,-1:-2,1 m-1,-1:0,-1 m-1,-1:0,1 "
            "m-1,-1:1,-1 m-1,-1:1,1 m-1,-1:2,-2 m-1,-1:2,2 m-1,-1:3,-1 m-1,-1:3,1 m-1,1:-1,-2 "
            "m-1,1:-2,-1 m-1,1:-2,0 m-1,1:0,-1 m-1,1:0,1 m-1,1:1,-1 m-1,1:1,1 m-1,1:2,-2 "
            "m-1,1:2,2 m-1,1:3,-1 m-1,1:3,1"
        ).split()
    )
    assert len(legal) == 26
    assert not any(m.startswith(("m-1,0:", "m0,0:")) for m in legal)


def test_fact_04_three_player_setup() -> None:
    game_state = make(GAME_ID, players=3).new_initial_state()
    assert game_state.position_text() == "3 - 1 s1 0 0 0"
    game_state.play("B@0,0")
    game_state.play("B@1,0")
    assert game_state.position_text() == "3 0,0=1b/1,0=2b 3 s2 0 0 2"
    assert game_state.legal_moves() == "B@-1,0 B@0,-1 B@0,1 B@1,-1 B@1,1 B@2,0".split()
    game_state.play("B@0,1")
    assert game_state.position_text() == "3 0,0=1b/0,1=3b/1,0=2b 1 s3 0 0 3"
    assert game_state.legal_moves() == ["B@-1,0", "B@0,-1"]


def test_fact_05_connectivity_line() -> None:
    text = "2 0,0=2f/1,0=1b/2,0=1f 1 - 0 0 20"
    legal = "f1,0 f2,0 m2,0:-1,0 m2,0:0,-1 m2,0:0,1 m2,0:1,-1 m2,0:1,1".split()
    assert state(text).legal_moves() == legal
    assert state(text, connectivity_check="final").legal_moves() == legal


def test_fact_06_capture() -> None:
    text = "2 -1,1=1f/0,0=1F/0,1=1b/0,2=1b/1,0=2f/1,1=2b/1,2=2b/2,1=2f 1 - 3 0 30"
    position = state(text)
    legal = position.legal_moves()
    assert len(legal) == 25
    assert [m for m in legal if m.startswith(("a0,0:", "f0,0"))] == [
        "a0,0:-1,0",
        "a0,0:0,1",
        "a0,0:1,0x",
        "f0,0",
    ]
    assert "a0,0:0,-1" not in legal
    position.play("a0,0:1,0x")
    assert position.position_text() == (
        "2 -1,1=1f/0,1=1b/0,2=1b/1,0=1F/1,1=2b/1,2=2b/2,1=2f 1 a0,0:1,0x 3 0 30"
    )
    assert position.current_player == 0
    assert len(position.legal_moves()) == 24
    position.play("f0,2")
    assert position.position_text() == (
        "2 -1,1=1f/0,1=1b/0,2=1B/1,0=1F/1,1=2b/1,2=2b/2,1=2f 2 - 0 0 31"
    )
    again = state(text)
    again.play("a0,0:1,0x+f0,2")
    assert again.position_text() == position.position_text()


def test_fact_07_capture_ends_game() -> None:
    position = state("2 -1,1=1f/0,0=1F/0,1=1b/0,2=1b/1,0=2f/1,1=2b/1,2=2b 1 - 3 0 30")
    position.play("a0,0:1,0x")
    assert position.position_text() == "2 -1,1=1f/0,1=1b/0,2=1b/1,0=1F/1,1=2b/1,2=2b 1 - 0 0 31"
    assert position.outcome is not None
    assert position.outcome.results == (Result.WIN, Result.LOSS)
    assert position.outcome.termination is Termination.LAST_FORTIFICATIONS
    assert position.legal_actions() == []


def test_fact_08_pinning() -> None:
    position = state("2 -1,1=1f/0,0=1B/0,1=1f/0,2=1b/1,0=2f/1,1=2b/2,1=2F/2,2=2b 1 - 0 0 40")
    position.play("a0,0:1,0")
    assert position.position_text() == (
        "2 -1,1=1f/0,1=1f/0,2=1b/1,0=2f1B/1,1=2b/2,1=2F/2,2=2b 1 a0,0:1,0 0 0 40"
    )
    position.play("f0,1")
    assert position.position_text() == (
        "2 -1,1=1f/0,1=1F/0,2=1b/1,0=2f1B/1,1=2b/2,1=2F/2,2=2b 2 - 1 0 41"
    )
    legal = position.legal_moves()
    assert (
        legal
        == (
            "f1,1 f2,1 f2,2 m1,0:-1,0 m1,0:-1,2 m1,0:-2,1 m1,0:0,3 m1,0:1,2 m1,0:2,0 m1,0:2,3 "
            "m1,0:3,1 m1,0:3,2 m2,2:-1,0 m2,2:-1,2 m2,2:-2,1 m2,2:0,0 m2,2:0,3 m2,2:1,-1 "
            "m2,2:1,2 m2,2:2,0 m2,2:3,1"
        ).split()
    )
    assert "f1,0" not in legal
    position.play("m1,0:2,0")
    assert "2,0=2f1B" in position.cells_text().split("/")


HOLES = (
    "3 -1,1=1b/0,0=2f/0,1=3b/0,2=3b/1,0=2b/1,2=2f/1,3=1b/2,0=3f/2,1=2b/2,2=3f/3,0=1f/3,1=1f"
    " 1 - 0 0 50"
)


def test_fact_09_holes_and_mobile_move() -> None:
    default = state(HOLES, players=3).legal_moves()
    assert len(default) == 52
    assert "m3,1:1,1" in default
    slide = state(HOLES, players=3, mobile_move="slide").legal_moves()
    assert len(slide) == 48
    assert "m3,1:1,1" not in slide
    assert len(state(HOLES, players=3, exposed_edges_measured="before").legal_moves()) == 51


def test_fact_10_no_capture_cap() -> None:
    board = "2 -1,-1=1f/-1,0=1b/-1,1=1f/0,0=1b/1,0=2b/2,-1=2f/2,0=2b/2,1=2f"
    position = state(f"{board} 1 - 99 0 8")
    position.play("f0,0+f0,0")
    assert position.position_text() == f"{board} 2 - 100 0 9"
    assert position.outcome is not None
    assert position.outcome.termination is Termination.NO_CAPTURE
    assert position.outcome.results == (Result.DRAW, Result.DRAW)
    going_on = state(f"{board} 1 - 98 0 8")
    going_on.play("f0,0+f0,0")
    assert going_on.position_text() == f"{board} 2 - 99 0 9"
    assert going_on.outcome is None


def test_fact_11_forced_pass() -> None:
    position = state("2 0,0=2B1B/1,0=2B1B/2,0=2F1F/3,0=2F1F 2 - 5 0 60")
    assert position.legal_moves() == ["pass"]
    position.play("pass")
    assert position.position_text() == "2 0,0=2B1B/1,0=2B1B/2,0=2F1F/3,0=2F1F 1 - 6 1 61"
    assert position.outcome is None
    assert len(position.legal_moves()) == 16
