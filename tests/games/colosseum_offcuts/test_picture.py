"""Colosseum Offcuts pictures: render-model harness, extent, pieces, pools and click paths."""

from __future__ import annotations

import re
from collections import Counter

from boardlab.core.registry import make
from boardlab.core.render_conformance import run_render_conformance
from boardlab.core.render_model import SPECTATOR, ClickPath, RenderModel
from boardlab.games.colosseum_offcuts import ColosseumState
from tests.games.colosseum_offcuts.helpers import GAME_ID, state

PINNED = "2 -1,1=1f/0,1=1F/0,2=1b/1,0=2f1B/1,1=2b/2,1=2F/2,2=2b 2 - 1 0 41"
"""Spec §14 fact 8 after ``a0,0:1,0+f0,1``: P1's Attack-mode Board Piece pins P2's Fortification."""
CAPTURE = "2 -1,1=1f/0,0=1F/0,1=1b/0,2=1b/1,0=2f/1,1=2b/1,2=2b/2,1=2f 1 - 3 0 30"
"""Spec §14 fact 6: P1's Fortification on 0,0 may capture on 1,0."""


def test_random_playouts_at_two_and_five_seats_pass_the_render_harness() -> None:
    two = make(GAME_ID, players=2, no_capture_rounds=2)
    assert run_render_conformance(two, playouts=2, seed=1) > 16
    five = make(GAME_ID, players=5, no_capture_rounds=1)
    assert run_render_conformance(five, playouts=1, seed=2) > 20


def _model_counters(model: RenderModel) -> Counter[tuple[int | None, str, str, str]]:
    return Counter(
        (piece.owner, piece.kind, piece.face, piece.shape)
        for cell in model.cells
        for piece in cell.stack
    )


def _text_counters(text: str) -> Counter[tuple[int | None, str, str, str]]:
    kinds = {"b": ("board-piece", "disc"), "f": ("fortification", "square")}
    found: Counter[tuple[int | None, str, str, str]] = Counter()
    for seat, letter in re.findall(r"([1-5])([bBfF])", text.split()[1]):
        kind, shape = kinds[letter.lower()]
        found[int(seat) - 1, kind, "light" if letter.islower() else "dark", shape] += 1
    return found


def test_pieces_match_the_position_text_stacks_bottom_to_top() -> None:
    position = state(PINNED)
    model = position.render_model()
    assert _model_counters(model) == _text_counters(PINNED)
    stack = model.cell("1,0").stack
    assert [(p.owner, p.kind, p.face, p.label) for p in stack] == [
        (1, "fortification", "light", "F"),
        (0, "board-piece", "dark", "B"),
    ]
    assert model.to_move == 1 and model.phase == "play"
    assert model.status == "P2 to move: action 1 of 2"
    assert RenderModel.from_json(model.to_json()) == model
    assert position.render_model(view=SPECTATOR).cells == model.cells


def test_the_picture_covers_the_occupied_area_plus_one_cell() -> None:
    model = state(PINNED).render_model()
    ids = {cell.id for cell in model.cells}
    assert ids == {f"{x},{y}" for x in range(-2, 4) for y in range(-1, 4)}
    cell = model.cell("2,2")
    assert (cell.x, cell.y, cell.size) == (2.0, -2.0, 1.0)
    min_x, min_y, width, height = model.extent
    assert min_x < -2.5 and min_x + width > 3.5 and min_y < -3.5 and min_y + height > 1.5
    texts = Counter(label.text for label in model.labels)
    assert texts["-2"] == 2 and texts["3"] == 4 and texts["4"] == 0
    empty = make(GAME_ID).new_initial_state().render_model()
    assert sorted(c.id for c in empty.cells) == sorted(
        f"{x},{y}" for x in (-1, 0, 1) for y in (-1, 0, 1)
    )


def test_pools_hold_counters_to_place_then_fortifications_lost() -> None:
    setup = make(GAME_ID, players=3).new_initial_state()
    setup.play("B@0,0")
    pools = setup.render_model().pools
    assert [pool.title for pool in pools] == ["P1 to place", "P2 to place", "P3 to place"]
    assert [(p.kind, p.count, p.face) for p in pools[0].pieces] == [
        ("board-piece", 1, "light"),
        ("fortification", 2, "light"),
    ]
    assert setup.render_model().status == "P2 places a Board Piece (setup step S2)"
    played = state(CAPTURE)
    played.play("a0,0:1,0x")
    model = played.render_model()
    assert [pool.title for pool in model.pools] == ["Captured from P1", "Captured from P2"]
    assert model.pools[0].pieces == ()
    assert [(p.owner, p.kind, p.count) for p in model.pools[1].pieces] == [(1, "fortification", 1)]
    assert model.status == "P1 to move: action 2 of 2, after a0,0:1,0x"


def _paths(position: ColosseumState) -> dict[str, ClickPath]:
    return {position.action_to_str(a): path for a, path in position.click_paths().items()}


def test_click_paths_are_what_a_player_expects() -> None:
    paths = _paths(state(CAPTURE))
    assert paths["a0,0:1,0x"] == ClickPath(("0,0", "1,0"))
    assert paths["f0,0"] == ClickPath(("0,0", "0,0"))
    assert paths["m-1,1:-1,0"] == ClickPath(("-1,1", "-1,0"))
    start = state("2 - 1 s1 0 0 0")
    assert _paths(start) == {"B@0,0": ClickPath(("0,0",))}
    stuck = state("2 0,0=2B1B/1,0=2B1B/2,0=2F1F/3,0=2F1F 2 - 5 0 60")
    assert _paths(stuck) == {"pass": ClickPath(button="pass")}


def test_a_mobile_move_sharing_cells_with_an_attack_takes_a_third_click() -> None:
    both = state("2 0,0=1b1F/1,0=2b/1,1=1b/2,0=2b/3,0=2f 1 - 0 0 20")
    paths = _paths(both)
    assert paths["a0,0:0,1"] == ClickPath(("0,0", "0,1"))
    assert paths["m0,0:0,1"] == ClickPath(("0,0", "0,1", "0,1"))
    assert paths["m0,0:2,1"] == ClickPath(("0,0", "2,1"))
