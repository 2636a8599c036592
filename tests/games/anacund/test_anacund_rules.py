"""One rule test per rule of rules/anacund.md §2-§12, each in a position built for it."""

from __future__ import annotations

import random
import re

import pytest

import boardlab
from boardlab.core.errors import IllegalMoveError, NotationError, OptionError, PositionError
from boardlab.core.outcome import Result, Termination
from boardlab.core.records import Record, parse_record
from boardlab.games.anacund import Anacund, AnacundState
from boardlab.games.anacund.board import (
    OPEN_NEIGHBOURS,
    RING_NEIGHBOURS,
    X_SLAT,
    Y_SLAT,
    bottom_square,
    random_layout,
)
from tests.games.anacund.helpers import l0

VALUES = "112312312312312324645645645645645653"
L0 = f"{VALUES} 2"


def at(text: str, **options: object) -> AnacundState:
    return l0(**options).state_from_text(f"{L0} {text}")


def board(**pieces: str) -> str:
    """A squares field: ``board(s10="a", s11="b")`` puts those pieces, the rest free."""
    cells = ["."] * 36
    for key, char in pieces.items():
        cells[int(key[1:]) - 1] = char
    return "".join(cells)


def board_after(state: AnacundState, *moves: str) -> str:
    for move in moves:
        state.play(move)
    return state.position_text().split()[2]


# -- §2 board ---------------------------------------------------------------------------


def test_s2_ring_neighbours_are_only_along_the_ring() -> None:
    """§2: square i touches i-1 and i+1 (mod 36); top and bottom of a slat do not touch."""
    nxt, prv = RING_NEIGHBOURS
    for i in range(36):
        assert {nxt[i], prv[i]} == {(i + 1) % 36, (i - 1) % 36}
    assert bottom_square(2) - 1 not in (nxt[1], prv[1])  # squares 2 and 34 share column 2


def test_s2_open_track_cuts_between_36_and_1() -> None:
    """§2, option track=open: squares 36 and 1 have one neighbour each."""
    nxt, prv = OPEN_NEIGHBOURS
    assert nxt[35] == -1 and prv[0] == -1
    assert nxt[0] == 1 and prv[35] == 34


def test_s2_s4_random_layout_keeps_slats_whole() -> None:
    """§2-§4: columns 2-16 hold a 2-slat at squares c and 36-c; the ends hold X and Y."""
    pairs = {(1, 6), (6, 1), (2, 5), (5, 2), (3, 4), (4, 3)}
    for seed in range(30):
        layout = random_layout(seed)
        v = layout.value_of
        for column in range(2, 17):
            assert (v[column - 1], v[36 - column - 1]) in pairs
        ends = {(v[0], v[35], v[34]), (v[16], v[17], v[18])}
        assert {tuple(sorted(e)) for e in ends} == {X_SLAT, Y_SLAT}
        assert v[35] in (3, 4) and v[17] in (3, 4)  # middle value stays in the middle
        assert v[layout.bonus - 1] == 1
        assert 2 <= layout.bonus <= 16 or 20 <= layout.bonus <= 34  # on a 2-slat


# -- §4 setup ---------------------------------------------------------------------------


def test_s4_initial_state_and_explicit_layout() -> None:
    """§4: groups 666/666, A first; an explicit layout string sets values and bonus."""
    values = "6" * 6 + "5" * 6 + "4" * 6 + "3" * 6 + "2" * 6 + "1" * 6
    state = boardlab.make("anacund", layout=f"{values}:36").new_initial_state()
    assert state.position_text() == f"{values} 36 {'.' * 36} A 0 666/666"
    assert state.current_player == 0 and state.turn_start
    assert state.legal_moves() == ["6@1", "6@2", "6@3", "6@4", "6@5", "6@6"]


def test_s4_seed_is_drawn_and_recorded_and_replays_the_layout() -> None:
    """§4, §12: without a seed one is drawn and kept in the options; a record replays it."""
    game = boardlab.make("anacund")
    seed = game.options["seed"]
    assert isinstance(seed, int)
    assert boardlab.make("anacund", seed=seed).new_initial_state() == game.new_initial_state()
    state = game.new_initial_state()
    record = Record(game)
    rng = random.Random(3)
    for _ in range(7):
        action = rng.choice(state.legal_actions())
        record.add(state, action)
        state.apply_action(action)
    text = record.to_text(state)
    assert f"Option seed: {seed}" in text and "Option layout: random" in text
    again, final = parse_record(text)
    assert final.position_text() == state.position_text()
    assert again.game == game


# -- §5 turn structure ------------------------------------------------------------------


def test_s5_three_placements_per_turn_then_the_other_player() -> None:
    """§5: A makes exactly 3 decisions, each its own step, then B is to move."""
    state = l0().new_initial_state()
    for sub, move in enumerate(["6@19", "5@21", "4@18"]):
        assert state.current_player == 0 and state.sub == sub
        assert state.turn_start == (sub == 0)
        state.play(move)
    assert state.current_player == 1 and state.turn_start and state.ply == 1
    state.play("6@22+5@24+4@20")
    assert state.current_player == 0 and state.ply == 2


# -- §6 actions and legality ------------------------------------------------------------


def test_s6_first_turn_group_patterns() -> None:
    """§6: a first turn places on values 6,6,6 or 6,6,5 or 6,5,4 (in some order)."""
    patterns = set()
    root = l0().new_initial_state()
    for a in root.legal_actions():
        s1 = root.child(a)
        for b in s1.legal_actions():
            s2 = s1.child(b)
            for c in s2.legal_actions():
                patterns.add(
                    tuple(sorted((int(root.action_to_str(x)[0]) for x in (a, b, c)), reverse=True))
                )
    assert patterns == {(6, 6, 6), (6, 6, 5), (6, 5, 4)}


def test_s6_value_rule_and_its_errors() -> None:
    """§6: the chosen group's size must exist, the square be free and match its value."""
    state = at(".........abb...............a..b..a.. A 0 663/555")
    with pytest.raises(IllegalMoveError, match="no group of 5"):
        state.parse_action("5@21")
    with pytest.raises(IllegalMoveError, match="square 10 is occupied"):
        state.parse_action("3@10")
    with pytest.raises(IllegalMoveError, match="value 6"):
        state.parse_action("6@21")
    blocked = at(".........aAAa..............a..b..a.. A 1 662/555")
    with pytest.raises(IllegalMoveError, match="square 11 is blocked"):
        blocked.parse_action("2@11")


def test_s6_fallback_is_per_group() -> None:
    """§6.3: only the group whose value has run out may go anywhere; others keep the rule."""
    # Every value-1 square (1 2 5 8 11 14) is taken, so the group of 1 may go anywhere free.
    taken = {1: "a", 2: "b", 5: "a", 8: "b", 11: "a", 14: "b"}
    taken |= {18: "a", 20: "b", 23: "a", 26: "b", 29: "a", 32: "b"}
    squares = board(**{f"s{k}": v for k, v in taken.items()})
    state = at(f"{squares} A 0 651/651")
    moves = state.legal_moves()
    free = [i for i, c in enumerate(squares, 1) if c == "."]
    assert sorted(m for m in moves if m.startswith("1@")) == sorted(f"1@{s}" for s in free)
    assert len(free) == 24
    assert [m for m in moves if m.startswith("5@")] == [f"5@{s}" for s in (21, 24, 27, 30, 33, 35)]
    assert [m for m in moves if m.startswith("6@")] == [f"6@{s}" for s in (19, 22, 25, 28, 31, 34)]


# -- §7 captures ------------------------------------------------------------------------


def test_s7_free_squares_do_not_flank() -> None:
    """§7: a B piece with A on one side and a free square on the other is not captured."""
    squares = board(s10="a", s11="b", s25="b", s28="a", s31="b", s34="a")
    state = at(f"{squares} A 0 663/555")
    assert board_after(state, "3@13") == board(
        s10="a", s11="b", s13="a", s25="b", s28="a", s31="b", s34="a"
    )


def test_s7_attack_captures_runs_on_both_sides_together() -> None:
    """§7.1: runs of two on each side of the placed piece are captured at once."""
    squares = board(s18="a", s19="b", s20="b", s22="b", s23="b", s24="a")
    state = at(f"{squares} A 0 654/555")
    assert board_after(state, "5@21") == board(
        s18="a", s19="A", s20="A", s21="a", s22="A", s23="A", s24="a"
    )
    assert sorted(state.last_captured) == [18, 19, 21, 22]


def test_s7_conqueror_survives_when_capturing_on_one_side_only() -> None:
    """§7.2: the placed piece lies between two B pieces but captures one, so it is safe."""
    squares = board(s20="b", s22="b", s23="a", s28="a", s31="b", s34="a")
    state = at(f"{squares} A 0 654/555")
    assert board_after(state, "5@21") == board(
        s20="b", s21="a", s22="A", s23="a", s28="a", s31="b", s34="a"
    )


def test_s7_self_landlock_captures_the_whole_run() -> None:
    """§7.3: the new piece joins an A run that B now flanks; the whole run goes to B."""
    squares = board(s19="b", s20="a", s22="b", s28="a", s31="b", s34="a")
    state = at(f"{squares} A 0 654/555")
    assert board_after(state, "5@21") == board(
        s19="b", s20="B", s21="B", s22="b", s28="a", s31="b", s34="a"
    )


def test_s7_track_ends_never_flank() -> None:
    """§7, track=open: a piece on square 1 between B on 36 and 2 is safe; on the ring not."""
    squares = board(
        s2="b",
        s36="b",
        s19="b",
        s28="b",
        s31="b",
        s34="b",
        s7="a",
        s10="a",
        s13="a",
        s16="a",
        s22="a",
        s25="a",
    )
    text = f"{squares} A 0 651/651"
    assert board_after(at(text), "1@1")[0] == "B"
    assert board_after(at(text, track="open"), "1@1")[0] == "a"


def test_s7_no_passive_capture() -> None:
    """§7: an A piece already flanked (set up directly) stays; only the placed piece captures."""
    squares = board(s1="b", s2="a", s3="b", s28="a", s31="b", s34="a")
    state = at(f"{squares} A 0 663/555")
    assert board_after(state, "6@19")[:3] == "bab"


def test_s7_invariant_free_squares_equal_pieces_left() -> None:
    """§7 invariant: every decision uses one free square; a game lasts 36 decisions."""
    rng = random.Random(5)
    for seed in range(20):
        state = Anacund(seed=seed).new_initial_state()
        decisions = 0
        while not state.is_terminal():
            assert state.squares.count(0) == sum(state.groups[0]) + sum(state.groups[1])
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
        assert decisions == 36


# -- §8 end and scoring -----------------------------------------------------------------


def test_s8_game_ends_after_bs_last_placement_with_scores() -> None:
    """§8: the game ends after the 36th placement; 1 point a piece, +5 for the bonus square."""
    squares = "ab" * 17 + "a."
    state = at(f"{squares} B 2 000/100")
    assert not state.is_terminal()
    assert state.legal_moves() == ["1@36"]  # no free value-1 square: the fallback applies
    state.play("1@36")
    assert state.is_terminal() and state.legal_moves() == []
    outcome = state.outcome
    assert outcome is not None
    assert outcome.termination is Termination.PLACEMENTS_COMPLETE
    # B's piece on 36 captures A's pieces on 35 and 1 (each flanked by B on 34 and 2), so it
    # is a conqueror, not landlocked: A 18 - 2, B 17 + 1 + 2 captured + 5 for square 2.
    assert state.position_text().split()[2] == "B" + "ba" * 16 + "bBb"
    assert outcome.scores == (16, 25)
    assert outcome.results == (Result.LOSS, Result.WIN)


def test_s8_bonus_goes_to_the_captured_piece_beside_it() -> None:
    """§8: the colour beside a blocked bonus square gets the bonus."""
    state = at("aAba" + "ab" * 16 + " A 0 000/000")
    assert state.outcome is not None and state.outcome.scores == (19 + 5, 17)


@pytest.mark.parametrize(
    ("options", "scores", "results"),
    [
        ({"bonus_points": 0}, (18, 18), (Result.DRAW, Result.DRAW)),
        ({"bonus_points": 0, "tie": "b"}, (18, 18), (Result.LOSS, Result.WIN)),
        ({"bonus_points": 2}, (20, 18), (Result.WIN, Result.LOSS)),
        ({}, (23, 18), (Result.WIN, Result.LOSS)),
    ],
)
def test_s8_ties_and_bonus_points(
    options: dict[str, object], scores: tuple[int, int], results: tuple[Result, Result]
) -> None:
    """§8, §12: equal scores draw, or go to B with tie=b; bonus_points sets the bonus."""
    state = at("ba" * 18 + " A 0 000/000", **options)
    assert state.outcome is not None
    assert state.outcome.scores == scores and state.outcome.results == results


# -- §9 draw rules ----------------------------------------------------------------------


@pytest.mark.parametrize("key", ["repetition_draw", "max_plies"])
def test_s9_no_draw_caps(key: str) -> None:
    """§9: the game has no repetition or ply-cap options."""
    with pytest.raises(OptionError, match="unknown option"):
        boardlab.make("anacund", **{key: 3})


# -- §10 notation -----------------------------------------------------------------------


@pytest.mark.parametrize("text", ["06@19", "6@019", "6@0", "6@37", "7@1", "0@1", "6-19", "6@", ""])
def test_s10_malformed_decisions(text: str) -> None:
    """§10: size 1-6, '@', square 1-36 without leading zero."""
    words = f"^malformed move '{re.escape(text)}': write size@square"
    with pytest.raises(NotationError, match=words):
        l0().new_initial_state().parse_action(text)


def test_s10_action_ids_and_turn_strings() -> None:
    """§10: each decision has one id, (size-1)*36 + square-1; a turn joins three with '+'."""
    state = l0().new_initial_state()
    assert state.parse_action("6@19") == 5 * 36 + 18
    assert state.action_to_str(5 * 36 + 18) == "6@19"
    with pytest.raises(IllegalMoveError, match="value 6"):
        state.play("6@19+5@22+4@18")
    assert state.position_text().split()[2] == "." * 36  # a bad turn leaves the state alone


# -- §11 position text ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (f"{L0} {'.' * 36} A 0", "6 fields"),
        (f"{L0}  {'.' * 36} A 0 666/666", "6 fields"),
        (f"{VALUES[:-1]}7 2 {'.' * 36} A 0 666/666", "values"),
        (f"{VALUES} 02 {'.' * 36} A 0 666/666", "bonus"),
        (f"{VALUES} 37 {'.' * 36} A 0 666/666", "bonus"),
        (f"{L0} {'.' * 35}x A 0 666/666", "squares"),
        (f"{L0} {'.' * 36} C 0 666/666", "side"),
        (f"{L0} {'.' * 36} A 3 666/666", "sub-step"),
        (f"{L0} {'.' * 36} A 0 666-666", "groups"),
        (f"{L0} {'.' * 36} A 0 566/666", "descending"),
        (f"{L0} {'.' * 36} B 0 666/666", "does not fit|multiple of 3"),
        (f"{L0} {'.' * 36} A 1 666/666", "multiple of 3"),
        (f"{L0} {'.' * 36} A 1 665/666", "free squares"),
    ],
)
def test_s11_bad_position_texts(text: str, problem: str) -> None:
    """§11: the parser rejects malformed, non-canonical and inconsistent texts."""
    with pytest.raises(PositionError, match=problem):
        l0().state_from_text(text)


def test_s11_text_layout_overrides_the_option() -> None:
    """§11: the layout fields of a text are the position's layout, whatever the option."""
    text = "114224112261335424632446155663553653 12 " + "." * 36 + " A 0 666/666"
    state = l0().state_from_text(text)
    assert state.position_text() == text
    assert state.legal_moves()[0] == "6@11"


# -- §12 options ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"layout": "l1"}, "layout"),
        ({"layout": VALUES + ":0"}, "layout"),
        ({"layout": VALUES[:-1] + ":2"}, "layout"),
        ({"track": "line"}, "ring, open"),
        ({"bonus_points": -1}, ">= 0"),
        ({"tie": "a"}, "draw, b"),
        ({"seed": "x"}, "seed"),
    ],
)
def test_s12_bad_options(options: dict[str, object], message: str) -> None:
    """§12: every option is validated and the error names the allowed values."""
    with pytest.raises(OptionError, match=message):
        boardlab.make("anacund", **options)


def test_s12_options_are_recorded_with_defaults() -> None:
    """§12: every option appears in the record header, defaults included."""
    game = boardlab.make("anacund", seed=9)
    assert game.option_items() == [
        ("layout", "random"),
        ("seed", "9"),
        ("track", "ring"),
        ("bonus_points", "5"),
        ("tie", "draw"),
    ]


# -- play and evaluation ----------------------------------------------------------------


def test_render_shows_board_groups_turn_and_score() -> None:
    """The drawing has square numbers, values, the bonus mark, blocked squares and score."""
    state = at(".........aAAa..............a..b..a.. A 1 662/555")
    picture = state.render()
    lines = picture.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "1*" in picture  # bonus square 2 has value 1
    assert "35  34  33" in picture and " 17" in picture
    assert "groups 6 6 2" in picture and "groups 5 5 5" in picture
    assert "placement 2 of 3 (2 left this turn)" in picture
    assert "score 6" in picture  # A: 4 pieces + 2 captured beside it
    beside = next(line for line in lines if line.startswith("beside"))
    assert beside.split() == ["beside", "A", "A"]


def test_render_explains_the_final_score() -> None:
    """At the end the drawing says who won and how each score is made up."""
    state = at("aAba" + "ab" * 16 + " A 0 000/000")
    picture = state.render()
    assert "A won" in picture
    assert "A: 18 on the track + 1 captured beside + bonus 5 (square 2) = 24" in picture
    assert "B: 17 on the track + 0 captured beside = 17" in picture


def test_heuristic_follows_the_running_score() -> None:
    """The evaluation is the running score difference scaled into [-1, 1]."""
    state = at(".........aAAa..............a..b..a.. A 1 662/555")
    assert state.heuristic(0) == pytest.approx((6 - 1) / 41)
    assert state.heuristic(1) == -state.heuristic(0)
