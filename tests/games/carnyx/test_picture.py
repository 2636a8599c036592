"""The render model and click paths of Carnyx: harness, stacks, pools, notes, paths, JSON."""

from __future__ import annotations

from collections import Counter

import pytest

import boardlab
from boardlab.core.render_conformance import run_render_conformance
from boardlab.core.render_model import ClickPath, Piece, RenderModel
from boardlab.games.carnyx import CarnyxState
from tests.games.carnyx.helpers import after, state

DEPLOY = "L4/1L3/2D2/5/D3D D 0,9,1/0,10,0 - c2-c3,b5-b4 - 16"
STACK_EXIT = "L3L/2(LDD)2/5/5/D4 D 0,10,0/0,10,0 - - - 20"
REENTRY = "1D3/5/5/5/L3D D 0,10,0/0,10,0 - - - 22"
PASS = "5/5/L4/DL3/5 D 0,10,0/0,10,0 DL - - 50"


@pytest.mark.parametrize(
    ("options", "seed"), [({}, 3), ({"single_exit": "reserve", "conversion": "token"}, 7)]
)
def test_pictures_and_click_paths_of_random_playouts(options: dict[str, str], seed: int) -> None:
    game = boardlab.make("carnyx", **options)
    assert run_render_conformance(game, playouts=1, seed=seed) > 6


def _paths(position: CarnyxState) -> dict[str, ClickPath]:
    return {position.action_to_str(a): p for a, p in position.click_paths().items()}


def _pool_counts(model: RenderModel) -> dict[str, int]:
    return {pool.id: sum(piece.count for piece in pool.pieces) for pool in model.pools}


@pytest.mark.parametrize(
    "text", [DEPLOY, STACK_EXIT, "2(LL)L1/5/5/5/1D(DD)2 D 0,10,0/0,10,0 - - - 6"]
)
def test_stacks_and_pools_hold_the_pieces_of_the_position_text(text: str) -> None:
    model = state(text).render_model()
    on_board: Counter[str] = Counter()
    for cell in model.cells:
        for piece in cell.stack:
            assert piece.kind == "disc" and piece.owner is not None
            on_board["DL"[piece.owner]] += piece.count
    assert on_board == Counter(c for c in text.split()[0] if c in "DL")
    pools = [int(n) for n in text.split()[2].replace("/", ",").split(",")]
    counts = _pool_counts(model)
    assert [counts["supply-D"], counts["reserve-D"]] == pools[1:3]
    assert [counts["supply-L"], counts["reserve-L"]] == pools[4:6]


def test_a_mixed_stack_is_listed_bottom_to_top_by_runs_of_one_colour() -> None:
    stack = state(STACK_EXIT).render_model().cell("c4").stack
    assert stack == (Piece(1, "disc", count=1), Piece(0, "disc", count=2))


def test_setup_shows_the_unplaced_pieces_and_has_no_exit() -> None:
    position = after(state("5/5/5/5/5 D 3,10,0/3,10,0 - - - 0"), "@c1 @c5 @c1")
    model = position.render_model()
    assert _pool_counts(model) == {"unplaced-L": 2, "supply-L": 10, "supply-D": 10, "unplaced-D": 1}
    assert (model.phase, model.to_move) == ("setup", 1)
    assert model.status == "Setup: Light places a piece on its home rank."
    assert "off" not in {cell.id for cell in model.cells}
    assert _paths(position)["@a5"] == ClickPath(targets=("a5",))


def test_geometry_kinds_labels_and_colours() -> None:
    model = state(DEPLOY).render_model()
    a1, e5, c3 = model.cell("a1"), model.cell("e5"), model.cell("c3")
    assert (a1.x, a1.y, a1.kind, a1.owner) == (0.5, 4.5, "home", 0)
    assert (e5.x, e5.y, e5.kind, e5.owner) == (4.5, 0.5, "home", 1)
    assert c3.kind == "centre" and model.cell("b2").kind == "normal"
    assert len(model.labels) == 20 and len(model.seat_colours) == 2
    off = model.cell("off")
    assert (off.kind, off.y < 0) == ("exit", True)  # Dark exits across rank 5, at the top
    light = state("L4/1L3/2D2/5/D3D L 0,9,1/0,10,0 - c2-c3,b5-b4 - 17").render_model()
    assert light.cell("off").y > 5
    assert light.extent == model.extent


def test_click_paths_of_deployments_moves_and_buttons() -> None:
    paths = _paths(state(DEPLOY))
    assert paths["R@a1"] == ClickPath(targets=("R", "a1"))
    assert paths["a1-a2"] == ClickPath(targets=("a1", "a2"))
    assert paths["c3-b3"] == ClickPath(targets=("c3", "b3"))
    assert paths["H"] == ClickPath(button="H")
    reserve = state(DEPLOY).render_model().pools[-1]
    assert reserve.pieces == (Piece(0, "disc", count=1, id="R"),)


def test_click_paths_of_exits_go_off_the_board() -> None:
    assert _paths(state(STACK_EXIT))["c4-off"] == ClickPath(targets=("c4", "off"))
    assert _paths(state(REENTRY))["b5-off@b1"] == ClickPath(targets=("b5", "off", "b1"))
    lone = state("1D3/5/5/5/LLLLL D 0,10,0/0,5,0 - - - 22")
    assert _paths(lone)["b5-off"] == ClickPath(targets=("b5", "off"))


def test_a_forced_pass_is_a_button_and_the_notes_tell_the_hunker_set() -> None:
    position = state(PASS)
    assert _paths(position) == {"pass": ClickPath(button="pass")}
    notes = position.render_model().notes
    assert "Dark hunkered down last ply: free of forced capture, may not hunker now." in notes
    assert "Light is hunkered down: its stacks cannot be captured this ply." in notes


def test_notes_tell_the_no_return_memory_and_removed_pieces() -> None:
    model = state("4L/L4/5/2D2/D4 D 0,10,0/0,10,0 - b2-c2,a5-a4 - 18").render_model()
    assert "No return: Dark's stack on c2 may not go back to b2." in model.notes
    exited = after(state(STACK_EXIT), "c4-off").render_model()
    assert "Light (L): controls 2, on board 2, supply 10, reserve 0, removed 1" in exited.notes


def test_a_finished_game_and_json_round_trip() -> None:
    won = after(state("5/5/2L2/2D2/D4 D 0,9,0/0,8,2 - - - 30"), "c2xc3")
    model = won.render_model(last_turn=[ClickPath(targets=("c2", "c3"))])
    assert (model.to_move, model.phase) == (None, "over")
    assert model.status.startswith("Game over: Dark won")
    assert all(piece.id == "" for pool in model.pools for piece in pool.pieces)
    assert RenderModel.from_json(model.to_json()) == model
