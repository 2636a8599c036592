"""One rule test per rule of rules/cyvasse.md §2-§9, each in a position built for it."""

from __future__ import annotations

import math

import pytest

from boardlab.core.errors import IllegalMoveError
from boardlab.core.outcome import Result, Termination
from boardlab.games.cyvasse import CyvasseState
from boardlab.games.cyvasse.board import (
    AXIAL,
    HEX_NAMES,
    INDEX_OF_AXIAL,
    INDEX_OF_NAME,
    NEIGHBOURS,
    NUM_HEXES,
    RANGE_TARGETS,
    RANK_LEN,
    RAYS,
    ZONES,
    distance,
)
from boardlab.games.cyvasse.units import UNIT_LETTERS, WINS
from tests.games.cyvasse.helpers import board_text, game, of, pos


def build(
    items: dict[str, str], side: str = "S", tail: str = "- - 0 2", **options: object
) -> CyvasseState:
    """A normal-play state with ``items``; Kings on a1 and f11 unless placed elsewhere."""
    full = dict(items)
    if "K" not in full.values():
        full.setdefault("a1", "K")
    if "k" not in full.values():
        full.setdefault("f11", "k")
    return pos(f"{board_text(full)} {side} {tail}", **options)


# -- §2 board ------------------------------------------------------------------------------


def test_s2_board_has_91_hexes_in_11_ranks() -> None:
    assert NUM_HEXES == 91 and RANK_LEN == (6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6)
    assert AXIAL[INDEX_OF_NAME["f6"]] == (0, 0)
    assert AXIAL[INDEX_OF_NAME["a11"]] == (0, -5) and AXIAL[INDEX_OF_NAME["a1"]] == (-5, 5)
    assert len(ZONES[0]) == len(ZONES[1]) == 40


def test_s2_neighbours_rays_and_distance() -> None:
    def names(hexes: tuple[int, ...]) -> list[str]:
        return sorted(HEX_NAMES[h] for h in hexes)

    assert names(NEIGHBOURS[INDEX_OF_NAME["f6"]]) == "e5 e6 e7 f5 f7 g6".split()
    assert names(NEIGHBOURS[INDEX_OF_NAME["a1"]]) == "a2 b1 b2".split()
    north_west = RAYS[INDEX_OF_NAME["f3"]][2]
    assert [HEX_NAMES[h] for h in north_west] == "f4 f5 f6 e7 d8 c9 b10 a11".split()
    assert distance(INDEX_OF_NAME["a1"], INDEX_OF_NAME["f11"]) == 10
    assert distance(INDEX_OF_NAME["f6"], INDEX_OF_NAME["g7"]) == 2


# -- §6.1 combat matrix ----------------------------------------------------------------------

MATRIX = """
R y . . . . y y y . .
S y y . y . y y y . y
E y y y y y . y y . y
L y . . y . y y y . y
H y y . y y y y y . y
B y y y y . y y y . y
C y y . y y y y y y y
T y . . . . y y y y .
D y y y y y y . . y y
K y y . y . y y y . y
"""
COLUMNS = "RSELHBCTDK"


def _matrix() -> dict[tuple[str, str], bool]:
    table = {}
    for line in MATRIX.strip().splitlines():
        attacker, *marks = line.split()
        for defender, mark in zip(COLUMNS, marks, strict=True):
            table[attacker, defender] = mark == "y"  # y: legal, .: not
    return table


@pytest.mark.parametrize(("attacker", "defender"), [(a, d) for a in COLUMNS for d in COLUMNS])
def test_s6_1_combat_matrix(attacker: str, defender: str) -> None:
    """The full matrix of spec §6.1, both as a table and as legal decisions on the board."""
    legal = _matrix()[attacker, defender]
    assert WINS[UNIT_LETTERS.index(attacker)][UNIT_LETTERS.index(defender)] is legal
    items = {"e4": attacker, "e5": defender.lower()}
    if attacker == "K":
        items["a1"] = "R"  # keep the board's one South King the attacker
    state = build(items)
    mark = "*" if attacker in "BCT" else "x"
    assert (f"e4{mark}e5" in state.legal_moves()) is legal


# -- §4 deployment -----------------------------------------------------------------------------


def test_s4_deployment_order_zone_and_turns() -> None:
    state = game().new_initial_state()
    assert state.turn_start
    state.play("K@a1")
    assert not state.turn_start and state.current_player == 0
    with pytest.raises(IllegalMoveError, match="next item South deploys is D"):
        state.play("E@b1")
    with pytest.raises(IllegalMoveError, match="not an empty hex of South's zone"):
        state.play("D@a6")
    with pytest.raises(IllegalMoveError, match="not an empty hex"):
        state.play("D@a1")
    assert state.legal_moves() == sorted(
        f"D@{HEX_NAMES[h]}" for h in ZONES[0] if HEX_NAMES[h] != "a1"
    )


def test_s4_mountains_may_touch_and_north_deploys_in_ranks_7_to_11() -> None:
    state = game(army="K1M2").new_initial_state()
    state.play("K@a1+M@a2+M@b2")
    assert state.position_text() == "6/7/8/9/10/11/10/9/8/MM5/K5 N d - 0 1"
    assert {int(m[3:]) for m in state.legal_moves()} == {7, 8, 9, 10, 11}


def test_s4_first_player_is_the_king_nearer_the_middle_row() -> None:
    state = game(army="K1", first_tie="north").new_initial_state()
    state.play("K@a5")
    state.play("K@a11")
    assert state.current_player == 0 and state.position_text().endswith("S - - 0 2")
    state = game(army="K1", first_tie="south").new_initial_state()
    state.play("K@a1")
    state.play("K@a10")
    assert state.current_player == 1


# -- §6.3 movement ---------------------------------------------------------------------------


def test_s6_3_moves_only_through_empty_hexes() -> None:
    """A Rabble (3 steps) goes round a Mountain and a friendly unit, never through them."""
    around = of(build({"c3": "R", "c4": "M", "d4": "S"}), "c3")
    assert "c3-c4" not in around and "c3-d4" not in around
    assert "c3-c5" in around  # c3-b3-b4-c5: three steps round the wall
    walled = of(build({"c3": "R", "c4": "M", "d4": "S", "b3": "M"}), "c3")
    assert "c3-c5" not in walled


def test_s6_3_melee_attack_is_the_last_step_of_a_path() -> None:
    """The King (movement 2) reaches an enemy 2 steps away over an empty hex, not 3 steps."""
    state = build({"e4": "K", "e6": "r", "e7": "r"})
    assert "e4xe6" in state.legal_moves()
    assert "e4xe7" not in state.legal_moves()


def test_s6_4_trebuchet_never_moves_and_range_units_never_melee() -> None:
    state = build({"e4": "T", "e5": "r"})
    assert of(state, "e4") == ["e4*e5"]
    bow = of(build({"e4": "B", "e5": "r"}), "e4")
    assert "e4*e5" in bow and "e4xe5" not in bow


def test_s6_4_range_limit_any_direction_and_units_do_not_block() -> None:
    """Crossbow range 2 reaches an off-axis target through a friendly unit, but not 3 away."""
    state = build({"e4": "B", "e5": "S", "f6": "r", "e7": "r"})
    assert distance(INDEX_OF_NAME["e4"], INDEX_OF_NAME["f6"]) == 2
    assert "e4*f6" in state.legal_moves()
    assert not [m for m in state.legal_moves() if m == "e4*e7"]


def test_s6_4_line_of_sight_matches_the_geometric_rule() -> None:
    """Spec §6.4: line+ / line- are the hexes a segment just to either side of the centre line
    crosses; checked against an independent sampling of the geometry for every target from f6."""

    def pixel(h: int) -> tuple[float, float]:
        q, r = AXIAL[h]
        return math.sqrt(3) * (q + r / 2), 1.5 * r

    def hex_at(x: float, y: float) -> int | None:
        r = y / 1.5
        q = x / math.sqrt(3) - r / 2
        s = -q - r
        rq, rr, rs = round(q), round(r), round(s)
        dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
        if dq > dr and dq > ds:
            rq = -rr - rs
        elif dr > ds:
            rr = -rq - rs
        return INDEX_OF_AXIAL.get((rq, rr))

    start = INDEX_OF_NAME["f6"]
    for target, _, plus, minus in RANGE_TARGETS[start]:
        (x1, y1), (x2, y2) = pixel(start), pixel(target)
        length = math.hypot(x2 - x1, y2 - y1)
        nx, ny = -(y2 - y1) / length * 1e-4, (x2 - x1) / length * 1e-4
        sides = []
        for sign in (1, -1):
            crossed = set()
            for i in range(1, 400):
                t = i / 400
                h = hex_at(x1 + (x2 - x1) * t + sign * nx, y1 + (y2 - y1) * t + sign * ny)
                if h is not None:
                    crossed.add(h)
            sides.append(frozenset(crossed - {start, target}))
        assert set(sides) == {frozenset(plus), frozenset(minus)}, HEX_NAMES[target]


# -- §6.5 cavalry ------------------------------------------------------------------------------


def test_s6_5_second_jump_is_mandatory_may_return_and_may_capture_twice() -> None:
    state = build({"c3": "H", "c5": "r", "c7": "r"})
    reach = {distance(INDEX_OF_NAME["c3"], INDEX_OF_NAME[m[3:]]) for m in of(state, "c3")}
    assert reach == {1, 2}  # a Heavy Horse's first jump is 2
    state.play("c3xc5")
    assert "end" not in state.legal_moves() and "c5-c3" in state.legal_moves()
    state.play("c5xc7")
    assert state.position_text() == f"{board_text({'a1': 'K', 'f11': 'k', 'c7': 'H'})} N - - 0 3"


def test_s6_5_cavalry_killed_by_suicide_gets_no_second_jump() -> None:
    state = build({"c3": "L", "c4": "e"}, losing_attacks="suicide")
    state.play("c3xc4")
    assert state.current_player == 1 and state.turn_start
    assert state.position_text() == f"{board_text({'a1': 'K', 'f11': 'k', 'c4': 'e'})} N - - 0 3"


# -- §6.6 Dragon -------------------------------------------------------------------------------


def test_s6_6_dragon_never_lands_on_mountains_or_friends() -> None:
    state = build({"f3": "D", "f4": "M", "f5": "S"})
    moves = of(state, "f3")
    assert "f3-f4" not in moves and "f3-f5" not in moves and "f3-f6" in moves


# -- §6.7 end and pass, §9 forced passes -----------------------------------------------------------


def test_s6_7_pass_only_without_any_other_decision() -> None:
    state = build({"a2": "M", "b1": "M", "b2": "M"})
    assert state.legal_moves() == ["pass"]
    state.play("pass")
    assert state.position_text().split()[1:] == ["N", "-", "p", "1", "3"]
    assert not state.is_terminal() and "pass" not in state.legal_moves()


def test_s9_two_forced_passes_in_a_row_draw() -> None:
    army = "K1M3"  # six Mountains wall in both Kings
    walls = {"a2": "M", "b1": "M", "b2": "M", "e11": "M", "f10": "M", "g10": "M"}
    state = build(walls, army=army)
    state.play("pass")
    assert state.outcome is not None
    assert state.outcome.termination is Termination.FORCED_PASSES
    assert state.outcome.results == (Result.DRAW, Result.DRAW)
    # The same position read from its text (field 4 `p`, nobody can move) is the same draw.
    again = pos(state.position_text(), army=army)
    assert again.outcome == state.outcome


def test_s6_7_end_is_illegal_by_default() -> None:
    state = build({"c3": "L"})
    state.play("c3-c6")
    with pytest.raises(IllegalMoveError, match=r"^illegal move 'end': the cavalry turn must go on"):
        state.play("end")


# -- §7 captures and effects -------------------------------------------------------------------


def test_s7_melee_moves_in_and_shots_stay() -> None:
    melee = build({"e4": "E", "e5": "r"})
    melee.play("e4xe5")
    assert melee.position_text() == f"{board_text({'a1': 'K', 'f11': 'k', 'e5': 'E'})} N - - 0 3"
    shot = build({"e4": "C", "e7": "r"})
    shot.play("e4*e7")
    assert shot.position_text() == f"{board_text({'a1': 'K', 'f11': 'k', 'e4': 'C'})} N - - 0 3"


def test_s7_suicide_removes_the_attacker_and_resets_the_counter() -> None:
    assert "e4xe5" not in build({"e4": "R", "e5": "e"}).legal_moves()
    state = build({"e4": "R", "e5": "e"}, tail="- - 9 20", losing_attacks="suicide")
    state.play("e4xe5")
    assert state.position_text() == f"{board_text({'a1': 'K', 'f11': 'k', 'e5': 'e'})} N - - 0 21"


def test_s7_suicide_leaves_ranged_attacks_unchanged() -> None:
    state = build({"e4": "B", "e5": "h"}, losing_attacks="suicide")
    assert "e4*e5" not in state.legal_moves()


def test_s7_counter_grows_on_quiet_turns() -> None:
    state = build({}, tail="- - 4 9")
    state.play("a1-a2")
    assert state.position_text().endswith("N - - 5 10")


# -- §8 end of game ----------------------------------------------------------------------------


def test_s8_shooting_the_king_wins_and_kings_may_move_into_danger() -> None:
    state = build({"e4": "B", "e6": "k", "a1": "K"}, tail="- - 0 2")
    state.play("e4*e6")
    assert state.outcome is not None and state.outcome.winners == (0,)
    danger = build({"e4": "K", "e6": "e"})
    assert "e4-e5" in danger.legal_moves()


@pytest.mark.parametrize(
    ("text", "results"),
    [
        ("6/7/8/9/10/11/10/9/8/7/K5 N - - 3 20", (Result.WIN, Result.LOSS)),
        ("5k/7/8/9/10/11/10/9/8/7/6 S - - 3 20", (Result.LOSS, Result.WIN)),
    ],
    ids=["north's king gone", "south's king gone"],
)
def test_s8_a_position_without_one_king_is_won_by_the_other_side(
    text: str, results: tuple[Result, Result]
) -> None:
    """§11: a missing King means the game is over, won by the side that still has its King."""
    state = pos(text)
    assert state.outcome is not None and state.outcome.results == results
    assert state.outcome.termination is Termination.KING_CAPTURED
    assert state.legal_moves() == []


# -- §9 draw rules -------------------------------------------------------------------------------


def test_s9_repetition_third_occurrence_draws() -> None:
    state = build({})
    for _ in range(2):
        state.play("a1-b1")
        state.play("f11-e11")
        state.play("b1-a1")
        assert not state.is_terminal()
        state.play("e11-f11")
    assert state.outcome is not None and state.outcome.termination is Termination.REPETITION
    off = build({}, repetition_draw=0)
    for _ in range(3):
        for move in ("a1-b1", "f11-e11", "b1-a1", "e11-f11"):
            off.play(move)
    assert not off.is_terminal()


def test_s9_no_capture_cap() -> None:
    state = build({}, tail="- - 99 120")
    state.play("a1-a2")
    assert state.outcome is not None and state.outcome.termination is Termination.NO_CAPTURE
    off = build({}, tail="- - 99 120", no_capture_plies=0)
    off.play("a1-a2")
    assert not off.is_terminal()


def test_s9_ply_cap_counts_deployment_plies() -> None:
    state = build({}, tail="- - 0 40", max_plies=41)
    state.play("a1-a2")
    assert state.outcome is not None and state.outcome.termination is Termination.PLY_CAP
    deploy = game(army="K1", max_plies=1).new_initial_state()
    deploy.play("K@a1")
    assert deploy.outcome is not None and deploy.outcome.termination is Termination.PLY_CAP
