"""Every Test fact of rules/cyvasse.md §14, one test per fact."""

from __future__ import annotations

from boardlab.core.outcome import Result, Termination
from boardlab.games.cyvasse import CyvasseState
from tests.games.cyvasse.helpers import game, of, pos

SOUTH = (
    "K@e2+D@e1+E@c4+E@g4+H@b3+H@g3+L@a4+L@i4+S@d4+S@f4+R@c5+R@e5+R@g5+B@d3+B@f3+C@c2+T@f2+M@b5+M@i5"
)
NORTH = (
    "K@e8+D@b11+E@g8+E@c8+H@g9+H@b9+L@i8+L@a8+S@f8+S@d8+R@h7+R@f7+R@d7+B@e9+B@c9+C@e10+T@b10"
    "+M@i7+M@b7"
)
NORTH_TIE = "K@c10" + NORTH[len("K@e8") :]


def test_fact_01_initial_position() -> None:
    state = game().new_initial_state()
    assert state.position_text() == "6/7/8/9/10/11/10/9/8/7/6 S d - 0 0"
    moves = state.legal_moves()
    assert len(moves) == 40 and all(m.startswith("K@") for m in moves)
    assert moves[:5] == ["K@a1", "K@a2", "K@a3", "K@a4", "K@a5"]
    assert {int(m[3:]) for m in moves} == {1, 2, 3, 4, 5}


def test_fact_02_partial_deployment() -> None:
    state = game().new_initial_state()
    state.play("K@e2+D@e1+E@c4+E@g4+H@b3")
    assert state.position_text() == "6/7/8/9/10/11/10/2E3E2/1H6/4K2/4D1 S d - 0 0"
    moves = state.legal_moves()
    assert len(moves) == 35 and all(m.startswith("H@") for m in moves)


def test_fact_03_full_deployment_and_first_player() -> None:
    state = game().new_initial_state()
    state.play(SOUTH)
    assert state.position_text() == (
        "6/7/8/9/10/11/1MR1R1R1M1/L1ES1SE1L/1H1B1BH1/2C1KT1/4D1 N d - 0 1"
    )
    assert state.view_text(1) == "6/7/8/9/10/11/10/9/8/7/6 N d - 0 1"
    assert len(state.legal_moves()) == 40
    state.play(NORTH)
    assert state.position_text() == (
        "1d4/1t2c2/1hb1b1h1/l1eskse1l/1M1r1r1rM1/11/1MR1R1R1M1/L1ES1SE1L/1H1B1BH1/2C1KT1/4D1"
        " N - - 0 2"
    )
    moves = state.legal_moves()
    assert len(moves) == 149
    captures = [m for m in moves if "x" in m or "*" in m]
    assert captures == ("b11xg3 b11xg4 b11xg5 c8xc5 d7xc5 d7xe5 f7xe5 f7xg5 g8xg5 h7xg5".split())


def _tie(**options: object) -> CyvasseState:
    state = game(**options).new_initial_state()
    state.play(SOUTH)
    state.play(NORTH_TIE)
    return state


def test_fact_04_tie_for_the_first_move() -> None:
    board = "1d4/1tk1c2/1hb1b1h1/l1es1se1l/1M1r1r1rM1/11/1MR1R1R1M1/L1ES1SE1L/1H1B1BH1/2C1KT1/4D1"
    assert _tie(seed=0).position_text() == f"{board} N - - 0 2"
    assert _tie(seed=1).position_text() == f"{board} S - - 0 2"
    for seed in (0, 1, 2, 3):
        assert _tie(first_tie="south", seed=seed).side == 0
        assert _tie(first_tie="north", seed=seed).side == 1


def test_fact_05_reach() -> None:
    state = pos("5k/7/8/9/10/2b8/10/9/2R5/7/K5 S - - 0 2")
    moves = of(state, "c3")
    assert len(moves) == 28
    assert [m for m in moves if "x" in m] == ["c3xc6"]
    assert len([m for m in moves if "-" in m]) == 27
    blocked = pos("5k/7/8/9/10/2b8/2S7/9/2R5/7/K5 S - - 0 2")
    moves = of(blocked, "c3")
    assert len(moves) == 26 and not [m for m in moves if "x" in m]


def test_fact_06_trumps() -> None:
    light = of(pos("5k/7/8/9/10/11/4s5/4L4/8/7/K5 S - - 0 2"), "e4")
    assert len(light) == 34 and not [m for m in light if "x" in m]
    spear = of(pos("5k/7/8/9/10/11/4l5/4S4/8/7/K5 S - - 0 2"), "e4")
    assert len(spear) == 17 and "e4xe5" in spear
    elephant = of(pos("5k/7/8/9/10/11/4b5/4E4/8/7/K5 S - - 0 2"), "e4")
    assert len(elephant) == 34 and not [m for m in elephant if "x" in m]
    bow = of(pos("5k/7/8/9/10/4e6/10/4B4/8/7/K5 S - - 0 2"), "e4")
    assert bow == "e4*e6 e4-d3 e4-d4 e4-e3 e4-e5 e4-f4 e4-f5".split()


def test_fact_07_line_of_sight() -> None:
    mountain = of(pos("5k/7/8/5rr2/5Mr3/5C5/10/9/8/7/K5 S - - 0 2"), "f6")
    assert (
        mountain
        == (
            "f6*g7 f6-d4 f6-d5 f6-d6 f6-d7 f6-d8 f6-e4 f6-e5 f6-e6 f6-e7 f6-e8 f6-f4 f6-f5 f6-g5 "
            "f6-g6 f6-h6"
        ).split()
    )
    clear = of(pos("5k/7/8/5rr2/6r3/5C5/10/9/8/7/K5 S - - 0 2"), "f6")
    assert len(clear) == 19 and {"f6*f8", "f6*g7", "f6*g8"} <= set(clear)
    two = of(pos("5k/7/8/5rr2/5Mr3/5CM4/10/9/8/7/K5 S - - 0 2"), "f6")
    assert len(two) == 13 and not [m for m in two if "*" in m]


CAVALRY = "5k/7/8/9/10/4r6/10/9/2L5/7/K5 S - - 0 2"
AFTER_C6 = (
    "c6-a4 c6-a5 c6-a6 c6-a7 c6-a8 c6-b4 c6-b5 c6-b6 c6-b7 c6-b8 c6-c4 c6-c5 c6-c7 c6-c8 "
    "c6-d5 c6-d6 c6-d7 c6xe6"
).split()


def test_fact_08_cavalry_double_jump() -> None:
    state = pos(CAVALRY)
    assert (
        of(state, "c3")
        == (
            "c3-a2 c3-a3 c3-a4 c3-b1 c3-b2 c3-b3 c3-b4 c3-b5 c3-c1 c3-c2 c3-c4 c3-c5 c3-c6 c3-d1 "
            "c3-d2 c3-d3 c3-d4 c3-d5 c3-d6 c3-e2 c3-e3 c3-e4 c3-e5 c3-f3 c3-f4 c3-f5 c3-f6 c3xe6"
        ).split()
    )
    state.play("c3-c6")
    assert state.position_text() == "5k/7/8/9/10/2L1r6/10/9/8/7/K5 S c3-c6 - 0 2"
    assert state.current_player == 0 and not state.turn_start
    assert state.legal_moves() == AFTER_C6
    attack = state.clone()
    attack.play("c6xe6")
    assert attack.position_text() == "5k/7/8/9/10/4L6/10/9/8/7/K5 N - - 0 3"
    back = pos(CAVALRY)
    back.play("c3-c6+c6-c4")
    assert back.position_text() == "5k/7/8/9/10/4r6/10/2L6/8/7/K5 N - - 1 3"
    other = pos(CAVALRY)
    other.play("c3-d5")
    assert other.position_text() == "5k/7/8/9/10/4r6/3L6/9/8/7/K5 S c3-d5 - 0 2"
    assert (
        other.legal_moves()
        == (
            "d5-b3 d5-b4 d5-b5 d5-c3 d5-c4 d5-c5 d5-c6 d5-c7 d5-d3 d5-d4 d5-d6 d5-d7 d5-e4 d5-e5 "
            "d5-f5 d5-f6 d5xe6"
        ).split()
    )


def test_fact_09_optional_second_jump() -> None:
    state = pos(CAVALRY, cavalry_second_optional=True)
    state.play("c3-c6")
    assert state.legal_moves() == sorted([*AFTER_C6, "end"])
    assert len(state.legal_moves()) == 19
    state.play("end")
    assert state.position_text() == "5k/7/8/9/10/2L1r6/10/9/8/7/K5 N - - 1 3"


def test_fact_10_king_capture_ends_turn_and_game() -> None:
    state = pos("6/7/8/5r3/10/2k8/10/9/2L5/7/K5 S - - 7 40")
    assert [m for m in state.legal_moves() if "x" in m] == ["c3xc6"]
    state.play("c3xc6")
    assert state.position_text() == "6/7/8/5r3/10/2L8/10/9/8/7/K5 N - - 0 41"
    assert state.outcome is not None
    assert state.outcome.results == (Result.WIN, Result.LOSS)
    assert state.outcome.termination is Termination.KING_CAPTURED
    assert state.legal_moves() == []


def test_fact_11_dragon() -> None:
    first = of(pos("5k/7/2r5/3b5/4r5/11/5S4/5M3/5D2/7/K5 S - - 0 2"), "f3")
    assert (
        first
        == (
            "f3-a3 f3-b3 f3-c3 f3-d1 f3-d3 f3-e2 f3-e3 f3-f1 f3-f2 f3-f6 f3-g3 f3-g4 f3-h3 f3-h5 "
            "f3-i6 f3-i7 f3-i8 f3xd8 f3xe7"
        ).split()
    )
    second = of(pos("5k/7/8/3r5/4c5/11/5C4/9/5D2/7/K5 S - - 0 2"), "f3")
    assert (
        second
        == (
            "f3-a3 f3-b3 f3-c3 f3-d1 f3-d3 f3-e2 f3-e3 f3-f1 f3-f2 f3-f4 f3-f6 f3-g3 f3-g4 f3-h3 "
            "f3-h5 f3-i6 f3-i7 f3-i8"
        ).split()
    )
    dragons = "5k/7/2r5/9/4d5/11/10/9/5D2/7/K5 S - - 0 2"
    assert [m for m in of(pos(dragons), "f3") if "x" in m] == ["f3xc9", "f3xe7"]
    blocked = pos(dragons, dragon_blocked_by_dragon=True)
    assert [m for m in of(blocked, "f3") if "x" in m] == ["f3xe7"]
