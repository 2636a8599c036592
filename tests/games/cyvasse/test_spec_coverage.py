"""Rule tests for parts of rules/cyvasse.md that the other test files did not state on their own.

Each test names its spec section and stands on a position built for it.
"""

from __future__ import annotations

import pytest

from boardlab.core.errors import IllegalMoveError, NotationError, OptionError, PositionError
from boardlab.core.outcome import Result, Termination
from boardlab.core.registry import make
from boardlab.games.cyvasse import CyvasseState
from boardlab.games.cyvasse.board import INDEX_OF_NAME, distance
from tests.games.cyvasse.helpers import board_text, game, of


def build(
    items: dict[str, str], side: str = "S", tail: str = "- - 0 2", **options: object
) -> CyvasseState:
    """A normal-play state with ``items``; Kings on a1 and f11 unless placed elsewhere."""
    full = dict(items)
    if "K" not in full.values():
        full["a1"] = "K"
    if "k" not in full.values():
        full["f11"] = "k"
    return game(**options).state_from_text(f"{board_text(full)} {side} {tail}")


# -- §3 unit table: movement and range --------------------------------------------------------


@pytest.mark.parametrize(
    ("unit", "movement"),
    [("K", 2), ("E", 3), ("S", 2), ("R", 3), ("B", 1), ("C", 2), ("T", 0), ("H", 2), ("L", 3)],
)
def test_s3_movement_column_on_an_open_board(unit: str, movement: int) -> None:
    """§3 movement (cavalry: first jump, §6.5): alone on f6, a unit reaches every hex within
    its movement value and nothing further; the Trebuchet never moves."""
    moves = of(build({"f6": unit}), "f6")
    reached = {distance(INDEX_OF_NAME["f6"], INDEX_OF_NAME[m[3:]]) for m in moves}
    assert len(moves) == 3 * movement * (movement + 1)
    assert reached == set(range(1, movement + 1))


@pytest.mark.parametrize(("shooter", "reach"), [("B", 2), ("C", 3), ("T", 3)])
def test_s3_s6_4_range_column(shooter: str, reach: int) -> None:
    """§3 range, §6.4 rule 2: of the enemy Crossbowmen and Rabbles on f7, f8, f9, f10, the
    north-east ray from f6 at distances 1 to 4, only those within range can be shot."""
    targets = ["f7", "f8", "f9", "f10"]
    for index, name in enumerate(targets, start=1):
        assert distance(INDEX_OF_NAME["f6"], INDEX_OF_NAME[name]) == index
    state = build({"f6": shooter, **dict(zip(targets, "bbrr", strict=True))})
    shots = sorted(m[3:] for m in of(state, "f6") if "*" in m)
    assert shots == sorted(targets[:reach])


# -- §6.6 Dragon ------------------------------------------------------------------------------


def test_s6_6_dragon_flight_ends_at_an_enemy_trebuchet_it_cannot_attack() -> None:
    """§6.6 rule 3: an enemy Trebuchet stops the flight and trumps the Dragon."""
    moves = of(build({"f3": "D", "f5": "t"}), "f3")
    assert "f3-f4" in moves
    assert "f3xf5" not in moves
    assert not [m for m in moves if m[3:] in ("f6", "e7", "d8")]
    free = of(build({"f3": "D", "f5": "r"}), "f3")
    assert "f3-f6" in free and "f3xf5" in free


# -- §7 counters --------------------------------------------------------------------------------


def test_s7_capture_on_first_jump_resets_counter_after_a_quiet_second_jump() -> None:
    """§7: the no-capture counter is 0 if the turn removed any unit, whichever jump did it."""
    state = build({"c3": "H", "c5": "r"}, tail="- - 7 30")
    state.play("c3xc5")
    mid = board_text({"a1": "K", "f11": "k", "c5": "H"})
    assert state.position_text() == f"{mid} S c3xc5 - 7 30"
    state.play("c5-c4")
    end = board_text({"a1": "K", "f11": "k", "c4": "H"})
    assert state.position_text() == f"{end} N - - 0 31"


def test_s7_cavalry_turn_is_one_ply_and_a_quiet_one_grows_the_counter() -> None:
    """§7: a two-jump turn adds 1 to the ply counter and, without a capture, 1 to the counter."""
    state = build({"c3": "L"}, tail="- - 7 30")
    state.play("c3-c6+c6-c4")
    assert state.position_text().endswith("N - - 8 31")


# -- §9 caps ------------------------------------------------------------------------------------


def test_s9_ply_cap_zero_is_off() -> None:
    """§9 / §12 max_plies: 0 turns the ply cap off."""
    state = build({}, tail="- - 0 600", max_plies=0)
    state.play("a1-a2")
    assert not state.is_terminal()


# -- §11 consistency conditions ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("5k/7/8/9/10/11/MMMMM5/9/8/7/K5 S - - 0 2", "Mountains"),
        ("6/7/8/9/10/11/10/9/8/7/6 S d p 0 0", "last-ply"),
        ("6/7/8/9/10/K10/10/9/8/7/6 S d - 0 0", "nothing may stand"),
        ("6/7/8/9/10/11/10/9/8/7/KD4 S d - 0 1", "ply 0"),
        ("5k/7/8/9/10/11/10/9/8/7/6 N - - 0 2", "King may be missing"),
        ("5k/7/8/9/10/11/10/9/8/7/6 S c3-c6 - 0 2", "Light or Heavy Horse"),
    ],
)
def test_s11_more_consistency_conditions(text: str, problem: str) -> None:
    """§11: Mountains at most twice the per-side count; deployment has field 4 '-', items in
    their own zone (never rank 6) and the ply equal to the side; at most the mover's King is
    missing; a mid-cavalry step names the mover's horse."""
    with pytest.raises(PositionError, match=problem):
        game().state_from_text(text)


def test_s11_a_missing_king_means_the_game_is_over() -> None:
    """§11 normal play and §8: with South's King gone, North has won."""
    state = game().state_from_text("5k/7/8/9/10/11/10/9/8/7/6 S - - 0 2")
    assert state.outcome is not None
    assert state.outcome.results == (Result.LOSS, Result.WIN)
    assert state.outcome.termination is Termination.KING_CAPTURED
    assert state.legal_actions() == []


# -- §12 options ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"cavalry_second_optional": "maybe"}, "true or false"),
        ({"dragon_blocked_by_dragon": 2}, "true or false"),
        ({"max_plies": -1}, "integer >= 0"),
        ({"repetition_draw": -1}, "integer >= 0"),
        ({"seed": "x"}, "an integer"),
        ({"army": "K1Z1"}, "letter-count"),
        ({"army": "M2K1"}, "order"),
    ],
)
def test_s12_remaining_options_are_validated(options: dict[str, object], problem: str) -> None:
    """§12: every option rejects a bad value with OptionError naming what is allowed."""
    with pytest.raises(OptionError, match=problem):
        make("cyvasse", **options)


def test_s12_army_sets_the_deployment_order_and_size() -> None:
    """§12 army, §4 step 2: a smaller army deploys its own items in the §3 order."""
    state = game(army="K1R2M1").new_initial_state()
    state.play("K@a1+R@b1+R@c1+M@d1")
    assert state.position_text() == "6/7/8/9/10/11/10/9/8/7/KRRM2 N d - 0 1"
    assert state.legal_moves()[0] == "K@a10"


# -- §6.7 end, §10 notation -------------------------------------------------------------------


def test_s6_7_end_only_mid_cavalry_turn_even_when_optional() -> None:
    """§6.7: under cavalry_second_optional, `end` is still illegal at the start of a turn."""
    state = build({"c3": "L"}, cavalry_second_optional=True)
    assert "end" not in state.legal_moves()
    with pytest.raises(IllegalMoveError, match=r"^illegal move 'end': legal moves are"):
        state.play("end")
    state.play("c3-c6")
    assert "end" in state.legal_moves()


def test_s10_deployment_letters_are_uppercase_for_both_sides() -> None:
    """§10 deploy: North writes `K@e8`, never `k@e8`."""
    state = game(army="K1").new_initial_state()
    state.play("K@a1")
    with pytest.raises(NotationError, match=r"^malformed move 'k@e8': write a placement"):
        state.play("k@e8")
    state.play("K@e8")
    assert state.position_text().startswith("6/7/8/4k4/")
