"""One rule test per rule of the Colosseum Offcuts spec, each in a position built for it."""

from __future__ import annotations

import re

import pytest

from boardlab.core.errors import IllegalMoveError, NotationError, OptionError, PositionError
from boardlab.core.outcome import Result, Termination
from boardlab.core.registry import make
from boardlab.games.colosseum_offcuts import ColosseumState
from tests.games.colosseum_offcuts.helpers import state

GAME_ID = "colosseum-offcuts"
RING = "2 0,0=1b/0,1=1f/0,2=2b/1,0=1b/1,2=2f/2,0=1f/2,1=2b/2,2=2f 1 - 0 0 20"
"""A 3x3 ring around the hole 1,1: P1 holds the south-west half, P2 the north-east half."""


def setup_after(moves: str, players: int = 2) -> ColosseumState:
    """The state after the given setup placements."""
    result = make(GAME_ID, players=players).new_initial_state()
    assert isinstance(result, ColosseumState)
    for move in moves.split():
        result.play(move)
    return result


def _entry_cell(entry: str) -> tuple[int, int]:
    x, y = entry.split("=")[0].split(",")
    return int(x), int(y)


def moves_from(position: ColosseumState, prefix: str) -> list[str]:
    """The legal decisions that start with ``prefix``."""
    return [m for m in position.legal_moves() if m.startswith(prefix)]


# -- §4 setup ------------------------------------------------------------------------------


def test_s2_needs_exactly_one_occupied_neighbour() -> None:
    """§4 S2: 1,1 touches two Board Pieces, so the fourth seat cannot use it."""
    position = setup_after("B@0,0 B@1,0 B@0,1", players=4)
    legal = position.legal_moves()
    assert "B@1,1" not in legal
    assert legal == "B@-1,0 B@-1,1 B@0,-1 B@0,2 B@1,-1 B@2,0".split()


def test_s4_fortification_may_touch_other_fortifications_but_s5_not() -> None:
    """§4 S4 allows touching another seat's F; S5 forbids touching any other counter."""
    position = setup_after("B@0,0 B@1,0 B@-1,0 B@2,0 F@0,1")
    assert "F@1,1" in position.legal_moves()
    position.play("F@2,1")
    position.play("F@-1,1")
    assert "F@1,1" not in position.legal_moves()
    assert "F@3,1" in position.legal_moves()


def test_fallback_to_cells_touching_own_counters() -> None:
    """§4 fallback: the only cell next to P1's BP touches P5's BP, so it becomes legal."""
    position = setup_after("B@0,0 B@1,0 B@-1,0 B@0,1 B@1,-1", players=5)
    assert position.legal_moves() == ["B@0,-1"]


def test_fallback_to_cells_touching_the_footprint() -> None:
    """§4 fallback: P1's BP is boxed in, so any empty cell touching the footprint is legal."""
    position = setup_after("B@0,0 B@1,0 B@-1,0 B@0,1 B@0,-1", players=5)
    assert position.legal_moves() == (
        "B@-1,-1 B@-1,1 B@-2,0 B@0,-2 B@0,2 B@1,-1 B@1,1 B@2,0".split()
    )


def test_fallback_of_a_later_seat_keeps_to_its_own_board_piece() -> None:
    """§4 fallback: P2's Board Piece on 0,1 touches no cell free of other seats' Board Pieces,
    so P2 places next to its own one, not anywhere along the footprint."""
    position = setup_after("B@0,0 B@0,1 B@-1,0 B@0,2 B@1,0", players=4)
    assert position.current_player == 1
    assert position.legal_moves() == ["B@-1,1", "B@1,1"]


def test_setup_ends_with_p1_to_move_at_turn_start() -> None:
    """§4: after the 4n-th placement play begins with P1 at the start of a turn."""
    position = setup_after("B@0,0 B@1,0 B@-1,0 B@2,0 F@-1,1 F@2,1 F@-1,-1 F@2,-1")
    assert position.current_player == 0
    assert position.turn_start
    assert position.position_text().endswith(" 1 - 0 0 8")


# -- §5 turns -------------------------------------------------------------------------------


def test_second_action_forced_pass_ends_turn_without_counting_as_whole_pass() -> None:
    """§5: a pass at the second action ends the turn; the forced-pass counter goes to 0."""
    position = state("2 0,0=2B1B/1,0=2B1B/2,0=2F1F/3,0=2F1F 2 a4,0:3,0x 5 1 60")
    assert position.legal_moves() == ["pass"]
    position.play("pass")
    assert position.position_text() == "2 0,0=2B1B/1,0=2B1B/2,0=2F1F/3,0=2F1F 1 - 0 0 61"


def test_turn_order_skips_eliminated_seats() -> None:
    """§5, §7: P2 has no Fortification, so after P1's turn P3 is to move."""
    position = state("3 0,0=1f/1,0=2b/2,0=3f/3,0=1b/4,0=3b 1 - 0 0 30", players=3)
    position.play("f0,0+f0,0")
    assert position.current_player == 2


# -- §6.1 Mobile moves ----------------------------------------------------------------------


def test_connectivity_middle_of_line_cannot_move() -> None:
    """§6.1 rule 1 (line): lifting the middle of A-B-C splits the footprint."""
    position = state("2 0,0=2f/1,0=1f/2,0=1b/3,0=2b 1 - 0 0 20")
    assert moves_from(position, "m1,0:") == []
    assert moves_from(position, "m2,0:") == []


def test_connectivity_ring_with_hole_any_cell_can_lift() -> None:
    """§6.1 rule 1 (ring with a hole): lifting one ring cell leaves a connected C shape."""
    position = state(RING)
    for cell in ("0,0", "0,1", "1,0", "2,0"):
        assert moves_from(position, f"m{cell}:"), cell


def test_connectivity_stack_counts_as_one_cell() -> None:
    """§6.1 rule 1 (stacks): a stack in the middle of a line splits it when lifted."""
    position = state("2 0,0=2f/1,0=1f2B/2,0=1b2B 1 - 0 0 20")
    assert moves_from(position, "m1,0:") == []
    assert moves_from(position, "m2,0:")


def test_connectivity_final_allows_reconnecting_moves() -> None:
    """§12 connectivity_check=final: only the result must be connected."""
    text = "2 0,0=2f/0,1=2b/1,0=1f/1,1=1b 1 - 0 0 20"
    lift = state(text)
    final = state(text, connectivity_check="final")
    assert set(moves_from(lift, "m")) <= set(moves_from(final, "m"))
    square = "2 0,0=2f/0,1=2b/1,0=1f/2,0=1b/2,1=2f 1 - 0 0 20"
    assert moves_from(state(square), "m1,0:") == []
    assert moves_from(state(square, connectivity_check="final"), "m1,0:") == ["m1,0:1,1"]


def test_mobile_move_needs_own_mobile_bottom() -> None:
    """§6.1: an Attack-mode counter has no Mobile move; another seat's counter is not ours."""
    position = state("2 0,0=1B/1,0=2f/2,0=1f 1 - 0 0 20")
    assert moves_from(position, "m0,0:") == []
    assert moves_from(position, "m1,0:") == []
    assert moves_from(position, "m2,0:")


def test_target_needs_two_exposed_edges() -> None:
    """§6.1 rule 2: in a T, the centre 0,0 has one exposed edge, so 0,-1 is unreachable."""
    position = state("2 -1,0=2b/0,0=1f/0,1=2f/1,0=2b/2,0=1b 1 - 0 0 20")
    destinations = {m.split(":")[1] for m in moves_from(position, "m2,0:")}
    assert "0,-1" not in destinations
    assert destinations == {"-2,0", "-1,-1", "-1,1", "0,2", "1,-1", "1,1"}


def test_destination_is_never_the_start_or_occupied() -> None:
    """§6.1 rule 3: d is empty after lifting and differs from o."""
    position = state("2 0,0=2f/1,0=1b/2,0=1f 1 - 0 0 20")
    assert "m2,0:2,0" not in position.legal_moves()
    assert all(m.split(":")[1] not in ("0,0", "1,0") for m in moves_from(position, "m"))


def test_enclosure_ring_corner_may_drop_into_hole_by_default() -> None:
    """§6.1 rule 2 and O8: the target 1,0 faces the exterior and the hole, so m0,0:1,1."""
    assert "m0,0:1,1" in state(RING).legal_moves()


def test_enclosure_slide_keeps_hole_closed() -> None:
    """§6.1 rule 4: under slide, 1,1 is not exterior once a corner is lifted."""
    slide = state(RING, mobile_move="slide").legal_moves()
    assert "m0,0:1,1" not in slide
    assert "m2,0:1,1" not in slide
    assert "m1,0:1,1" in slide  # lifting an edge cell opens the hole to the outside


def test_slide_judges_start_and_destination_with_the_mover_lifted() -> None:
    """§6.1 rule 4: the exterior of F' has the mover lifted whatever exposed_edges_measured
    says, so with targets measured before lifting an edge cell of the ring still slides into
    the hole it opens, and a corner, which opens nothing, still does not."""
    slide = state(RING, mobile_move="slide", exposed_edges_measured="before").legal_moves()
    assert "m1,0:1,1" in slide
    assert "m0,1:1,1" in slide
    assert "m0,0:1,1" not in slide
    assert "m2,0:1,1" not in slide


def test_enclosure_target_with_only_hole_edges_is_not_a_target() -> None:
    """§6.1 rule 2 and O8: 2,1 has two exposed edges, both into holes, so it is no target.

    Five seats fill a 5x3 block with holes at 1,1 and 3,1, with the hole rims thickened so
    that every other rim cell has a single exposed edge. P1's Board Piece on 6,1 then cannot
    reach either hole: the only cell touching them with two exposed edges, 2,1, is fully
    enclosed.
    """
    holes = {(1, 1), (3, 1)}
    block = {(x, y) for x in range(5) for y in range(3)} - holes
    rims = {(1, -1), (1, 3), (3, -1), (3, 3), (-1, 1), (5, 1)}
    cells = sorted(block | rims)
    counters = [f"{seat}{kind}" for seat in range(1, 6) for kind in "bbff"]
    counters.remove("1b")
    body = "/".join(
        f"{x},{y}={c}" for (x, y), c in zip([*cells, (6, 1)], [*counters, "1b"], strict=True)
    )
    body = "/".join(sorted(body.split("/"), key=_entry_cell))
    position = state(f"5 {body} 1 - 0 0 40", players=5)
    moves = moves_from(position, "m6,1:")
    assert moves
    assert "m6,1:1,1" not in moves
    assert "m6,1:3,1" not in moves


def test_enclosure_hole_reached_through_rim_facing_outside() -> None:
    """§6.1 rule 2 and O8: lifting a corner of the thick block lets its rim cell face out."""
    holes = {(1, 1), (3, 1)}
    block = {(x, y) for x in range(5) for y in range(3)} - holes
    cells = sorted(block)
    counters = "1b 1b 1f 1f 2b 2b 2f 2f 3b 3b 3f 3f 4b".split()
    body = "/".join(f"{x},{y}={c}" for (x, y), c in zip(cells, counters, strict=True))
    position = state(f"4 {body} 1 - 0 0 40", players=4)
    assert "m0,0:1,1" in position.legal_moves()  # 1,0 faces the hole and the lifted corner
    slide = state(f"4 {body} 1 - 0 0 40", players=4, mobile_move="slide")
    assert "m0,0:1,1" not in slide.legal_moves()


# -- §6.2 Attack moves ----------------------------------------------------------------------


def test_attack_step_keeps_contact() -> None:
    """§6.2 rule 2: an empty destination must touch an occupied cell other than o."""
    position = state("2 0,0=1B/1,0=2f/1,1=1f/2,0=2b 1 - 0 0 20")
    assert moves_from(position, "a0,0:") == ["a0,0:0,1", "a0,0:1,0"]


def test_attack_step_down_off_a_stack_is_always_legal() -> None:
    """§6.2 rule 2: the stack stays on o, so every neighbour of o keeps contact."""
    position = state("2 0,0=2f/1,0=2b1B/2,0=1f/3,0=1b 1 - 0 0 20")
    assert moves_from(position, "a1,0:") == ["a1,0:0,0", "a1,0:1,-1", "a1,0:1,1", "a1,0:2,0"]


def test_attack_lift_versus_final() -> None:
    """§6.2 rule 1: a lone Attack counter joining two parts moves only under final."""
    text = "2 0,0=2f/0,1=2b/1,0=1B/2,0=1f/2,1=1b 1 - 0 0 20"
    assert moves_from(state(text), "a1,0:") == []
    assert moves_from(state(text, connectivity_check="final"), "a1,0:") == ["a1,0:1,1"]


def test_covered_counter_cannot_attack_or_flip() -> None:
    """§7 pinning: P1's Attack F under P2's BP neither moves nor flips."""
    position = state("2 0,0=1F2B/1,0=1f/2,0=2f/3,0=1b 1 - 0 0 20")
    assert moves_from(position, "a0,0") == []
    assert "f0,0" not in position.legal_moves()


def test_capture_only_fortification_onto_enemy_fortification() -> None:
    """§6.2: F onto enemy F captures; onto own F, enemy BP, or a BP onto an F does not."""
    position = state("2 -1,-1=1b/-1,0=1F/-1,1=1B/0,0=1F/0,1=2b/1,0=2f/1,1=2f 1 - 0 0 20")
    legal = position.legal_moves()
    assert "a0,0:1,0x" in legal
    assert "a0,0:-1,0" in legal  # own F: a climb
    assert "a0,0:0,1" in legal  # enemy BP: a climb that pins
    assert "a-1,1:0,1" in legal  # a BP never captures


def test_capture_on_a_stack_takes_only_the_top() -> None:
    """§7: the captured F leaves the game and the attacker sits on what remains."""
    position = state("2 -1,2=1b/0,0=1F/0,1=1b/0,2=1f/1,0=2b2F/1,1=2f 1 - 7 0 50")
    position.play("a0,0:1,0x")
    assert "1,0=2b1F" in position.cells_text().split("/")
    assert position.forts == (2, 1)


# -- §6.3, §6.4 -----------------------------------------------------------------------------


def test_flip_only_a_lone_own_counter() -> None:
    """§6.3: a counter with something beneath or on top cannot flip."""
    position = state("2 0,0=2f1B/1,0=1f/2,0=2f/3,0=1b 1 - 0 0 20")
    flips = [m for m in position.legal_moves() if m.startswith("f")]
    assert flips == ["f1,0", "f3,0"]


def test_pass_only_when_nothing_else() -> None:
    """§6.4: pass is not a voluntary decision."""
    position = state("2 0,0=2f/1,0=1b/2,0=1f 1 - 0 0 20")
    with pytest.raises(IllegalMoveError, match="pass is legal only"):
        position.play("pass")


# -- §7, §8 ---------------------------------------------------------------------------------


def test_elimination_mid_turn_keeps_the_mover_and_skips_the_eliminated() -> None:
    """§7-8: with three seats, capturing P2's last F eliminates P2 but the game goes on."""
    text = "3 0,0=1F/0,1=3f/0,2=1b/1,0=2f/1,1=2b/1,2=3b 1 - 4 0 50"
    position = state(text, players=3)
    position.play("a0,0:1,0x")
    assert position.outcome is None
    assert position.current_player == 0
    assert position.position_text().endswith(" 1 a0,0:1,0x 4 0 50")
    position.play("f0,2")
    assert position.current_player == 2
    assert position.no_capture == 0


def test_eliminated_board_pieces_are_neutral_terrain() -> None:
    """§3: an eliminated seat's BP may be climbed and carried."""
    position = state("3 0,0=1B/1,0=2b/2,0=1f/3,0=3f/4,0=3b 1 - 0 0 50", players=3)
    assert "a0,0:1,0" in position.legal_moves()


def test_win_when_one_seat_keeps_fortifications() -> None:
    """§8: the last seat with Fortifications wins; every other seat loses."""
    position = state("3 0,0=1F/1,0=2b/2,0=3f/3,0=1b 1 - 0 0 50", players=3)
    position.play("a0,0:1,0")
    position.play("a1,0:2,0x")
    assert position.outcome is not None
    assert position.outcome.results == (Result.WIN, Result.LOSS, Result.LOSS)
    assert position.outcome.termination is Termination.LAST_FORTIFICATIONS


# -- §9 draw rules --------------------------------------------------------------------------


def test_no_capture_cap_counts_seats_in_game() -> None:
    """§9: with P2 eliminated the cap is 50 x 2 turns; the eliminated seat loses."""
    position = state("3 0,0=1f/1,0=2b/2,0=3f/3,0=1b/4,0=3b 1 - 99 0 300", players=3)
    position.play("f0,0+f0,0")
    assert position.outcome is not None
    assert position.outcome.termination is Termination.NO_CAPTURE
    assert position.outcome.results == (Result.DRAW, Result.LOSS, Result.DRAW)


def test_no_capture_cap_off() -> None:
    """§9: no_capture_rounds=0 turns the cap off."""
    position = state("2 0,0=1f/1,0=2f/2,0=1b 1 - 500 0 600", no_capture_rounds=0)
    position.play("f0,0+f0,0")
    assert position.outcome is None


def test_fortifications_ranking() -> None:
    """§9 draw_ranking=fortifications: the seat with most Fs wins a capped game."""
    text = "3 0,0=1f/1,0=2f/2,0=3f/3,0=1f/4,0=3b 1 - 149 0 300"
    position = state(text, players=3, draw_ranking="fortifications")
    position.play("f0,0+f0,0")
    assert position.outcome is not None
    assert position.outcome.results == (Result.WIN, Result.LOSS, Result.LOSS)
    tied = state(
        "3 0,0=1f/1,0=2f/2,0=3f/3,0=1f/4,0=3f 1 - 149 0 300",
        players=3,
        draw_ranking="fortifications",
    )
    tied.play("f0,0+f0,0")
    assert tied.outcome is not None
    assert tied.outcome.results == (Result.DRAW, Result.LOSS, Result.DRAW)


def test_round_of_forced_passes_ends_the_game() -> None:
    """§9: P2 passes a whole turn, and P1 then has no action either: drawn at once."""
    buried = "3 0,0=1B1B1F1F2B2B2F2F3B/1,0=3B 2 - 0 0 70"
    position = state(buried, players=3)
    assert position.legal_moves() == ["pass"]
    position.play("pass")
    assert position.outcome is not None
    assert position.outcome.termination is Termination.FORCED_PASSES
    assert position.outcome.results == (Result.DRAW, Result.DRAW, Result.LOSS)
    again = state(buried.replace(" 0 0 70", " 0 1 70"), players=3)
    assert again.outcome is not None
    assert again.outcome.termination is Termination.FORCED_PASSES


def test_repetition_draw() -> None:
    """§9: the third occurrence of a start-of-turn position ends the game; 0 turns it off."""
    text = "2 0,0=1f/1,0=2f/2,0=1b/3,0=2b 1 - 0 0 20"
    for limit, over in ((3, True), (0, False)):
        position = state(text, repetition_draw=limit)
        for _ in range(2):
            position.play("f0,0+f0,0")
            position.play("f1,0+f1,0")
        assert (position.outcome is not None) is over
        if over:
            assert position.outcome is not None
            assert position.outcome.termination is Termination.REPETITION


# -- §10 notation, §11 position text, §12 options -------------------------------------------


@pytest.mark.parametrize("text", ["m0,0", "a00,0:1,0", "f-0,0", "B@0,0x", "PASS", "f0,0 "])
def test_malformed_notation(text: str) -> None:
    """§10: non-canonical strings are NotationError."""
    with pytest.raises(NotationError, match=rf"^malformed move '{re.escape(text)}': write a"):
        state(RING).play(text)


def test_wrong_capture_marker_suggests_canonical() -> None:
    """§10 and README §8.1: the x marker is part of the canonical string."""
    position = state("2 0,0=1F/1,0=2f/2,0=1f/3,0=2b 1 - 0 0 20")
    with pytest.raises(IllegalMoveError, match="a0,0:1,0x"):
        position.play("a0,0:1,0")


def test_setup_kind_letter_must_match_step() -> None:
    """§10: B in S1-S3, F in S4-S5."""
    with pytest.raises(IllegalMoveError, match="write B@x,y"):
        make(GAME_ID).new_initial_state().play("F@0,0")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("2 - 1 s1 0 0", "expected 7 fields"),
        ("3 - 1 s1 0 0 0", "the position has 3 seats but this game has players=2"),
        ("2 0,0=1b/2,0=2b 1 - 0 0 9", "the footprint is not connected"),
        ("2 0,0=1b2b 1 - 0 0 9", "a counter above ground level must be in Attack mode"),
        ("2 1,0=1f/0,0=2b 1 - 0 0 9", "cell 0,0 is out of order or repeated"),
        ("2 0,0=1f/0,0=2b 1 - 0 0 9", "cell 0,0 is out of order or repeated"),
        ("2 0,00=1f/0,1=2f 1 - 0 0 9", "bad cell entry '0,00=1f'"),
        ("2 0,-0=1f/0,1=2f 1 - 0 0 9", "bad cell entry '0,-0=1f'"),
        ("2 0,0=3f/0,1=2f 1 - 0 0 9", "seat 3 does not exist here"),
        ("2 0,0=1b/0,1=2f 1 - 0 0 9", "the side to move, P1, has no Fortification left"),
        ("2 0,0=1f/0,1=2f 1 s2 0 0 1", "in step s2 the side to move is P2 to Pn"),
        ("2 0,0=1b 2 s2 0 0 2", "during setup the ply counter is the placements made: 1"),
        ("2 0,0=1b 2 s3 0 0 1", "during setup the ply counter is the placements made: 3"),
        ("2 0,0=1b/1,0=2b 1 s3 1 0 2", "during setup the no-capture and forced-pass counters"),
        ("2 0,0=1f/0,1=2f 1 pass 0 0 9", "field 4 (step) must be s1-s5, - or a Mobile move"),
        ("2 0,0=1f/0,1=2f 1 - 01 0 9", "the no-capture counter must be a canonical integer"),
        ("2 0,0=1f/0,1=2f 1 - 0 2 9", "the forced-pass counter must be below the 2 seats"),
        ("2 0,0=1f/0,1=1f/0,2=1f 1 - 0 0 9", "each seat has at most 2 of each"),
        ("2 0,0=1f/0,1=2f  1 - 0 0 9", "expected 7 fields"),
        ("2 0,0=1f/0,1=2b 1 f0,0 0 0 9", "the game is over, so the step must be -"),
    ],
)
def test_position_text_rejections(text: str, words: str) -> None:
    """§11: malformed, non-canonical or inconsistent texts raise PositionError."""
    with pytest.raises(PositionError, match=re.escape(words)):
        make(GAME_ID).state_from_text(text)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("players", 6),
        ("players", 1),
        ("connectivity_check", "both"),
        ("exposed_edges_measured", "after"),
        ("mobile_move", "jump"),
        ("no_capture_rounds", -1),
        ("draw_ranking", "score"),
        ("repetition_draw", -2),
        ("max_plies", 10),
    ],
)
def test_bad_options(key: str, value: object) -> None:
    """§12: unknown keys and out-of-range values are OptionError."""
    with pytest.raises(OptionError, match=rf"^(option {key}: bad value|unknown option '{key}')"):
        make(GAME_ID, **{key: value})


def test_options_recorded_with_defaults() -> None:
    """§12: every option is listed in force, defaults included."""
    game = make(GAME_ID, players=4, mobile_move="slide")
    assert game.option_items() == [
        ("players", "4"),
        ("connectivity_check", "lift"),
        ("exposed_edges_measured", "lifted"),
        ("mobile_move", "slide"),
        ("no_capture_rounds", "50"),
        ("draw_ranking", "shared"),
        ("repetition_draw", "3"),
    ]
    assert game.player_names == ("P1", "P2", "P3", "P4")


def test_render_shows_stacks_seats_and_action_number() -> None:
    """The terminal drawing: coordinates, stack order, eliminated seats, action in turn."""
    position = state("3 0,0=1F/1,0=2b1B/2,0=3f/3,0=1b 1 - 0 0 50", players=3)
    position.play("f3,0")
    text = position.render()
    assert "2b1B" in text
    assert "P2: 1 Board Pieces, 0 Fortifications - eliminated" in text
    assert "action 2 of 2 (first action f3,0)" in text
    assert text.splitlines()[0].split() == ["-1", "0", "1", "2", "3", "4"]


def test_heuristic_in_range() -> None:
    """The evaluation stays in [-1, 1] and favours the seat with more Fortifications."""
    position = state("2 0,0=1F/1,0=2f/2,0=1f/3,0=2b/4,0=1b 1 - 0 0 20")
    assert position.heuristic(0) > position.heuristic(1)
    assert all(-1 <= position.heuristic(p) <= 1 for p in (0, 1))


def test_heuristic_values_a_capture_from_any_rival_with_three_seats() -> None:
    """Against the rivals' mean, one Fortification fewer for the weaker rival P3 counts for P1
    too, not only one fewer for the strongest rival."""
    even = state("3 0,0=1f/1,0=1f/2,0=2f/3,0=2f/4,0=3f/5,0=3f 1 - 0 0 20", players=3)
    captured = state("3 0,0=1f/1,0=1f/2,0=2f/3,0=2f/4,0=3f/5,0=3b 1 - 0 0 20", players=3)
    assert even.heuristic(0) == 0.0
    assert captured.heuristic(0) > 0.0
    assert captured.heuristic(2) < 0.0
