"""The render model and click paths of Anacund: harness, ring, layout, captures, groups, JSON."""

from __future__ import annotations

from collections import Counter

import pytest

import boardlab
from boardlab.core.render_conformance import run_render_conformance
from boardlab.core.render_model import ClickPath, Piece, RenderModel
from boardlab.games.anacund.state import AnacundState
from tests.games.anacund.helpers import l0

L0 = "112312312312312324645645645645645653 2"
CAPTURE = f"{L0} .........abb...............a..b..a.. A 0 663/555"
CONQUEROR = f"{L0} ..................ab.ba....a..b..... A 0 555/555"


def state(text: str, **options: object) -> AnacundState:
    result = l0(**options).state_from_text(text)
    assert isinstance(result, AnacundState)
    return result


@pytest.mark.parametrize(("options", "seed"), [({"layout": "random", "seed": 42}, 1), ({}, 2)])
def test_pictures_and_click_paths_of_random_playouts(options: dict[str, object], seed: int) -> None:
    game = boardlab.make("anacund", **options) if options else l0(track="open")
    assert run_render_conformance(game, playouts=1, seed=seed) == 37  # 36 placements


def test_the_ring_is_the_perimeter_of_the_3_by_17_rectangle() -> None:
    model = l0().new_initial_state().render_model()
    squares = [cell for cell in model.cells if cell.shape == "square"]
    assert [cell.id for cell in squares] == [str(n) for n in range(1, 37)]
    where = {cell.id: (cell.x, cell.y) for cell in squares}
    assert where["1"] == (0.5, 0.5) and where["17"] == (16.5, 0.5)
    assert where["18"] == (16.5, 1.5) and where["19"] == (16.5, 2.5)
    assert where["35"] == (0.5, 2.5) and where["36"] == (0.5, 1.5)
    numbers = {label.text: (label.x, label.y) for label in model.labels}
    assert numbers["1"] == (0.5, -0.45) and numbers["19"] == (16.5, 3.45)
    assert numbers["18"] == (17.45, 1.5) and numbers["36"] == (-0.45, 1.5)


@pytest.mark.parametrize("seed", [0, 42])
def test_values_and_the_bonus_square_come_from_the_layout(seed: int) -> None:
    position = boardlab.make("anacund", seed=seed).new_initial_state()
    assert isinstance(position, AnacundState)
    model = position.render_model()
    squares = [cell for cell in model.cells if cell.shape == "square"]
    assert "".join(cell.label for cell in squares) == position.layout.values
    assert [cell.id for cell in squares if cell.kind == "bonus"] == [str(position.layout.bonus)]
    assert {cell.kind for cell in squares} == {"normal", "bonus"}


def test_pieces_on_the_track_and_beside_it_match_the_position_text() -> None:
    position = state(CONQUEROR)
    position.play("5@21")
    model = position.render_model()
    text = position.position_text().split()[2]
    on_track = Counter(
        "ab"[piece.owner]
        for cell in model.cells
        if cell.shape == "square"
        for piece in cell.stack
        if piece.owner is not None
    )
    assert on_track == Counter(c for c in text if c in "ab")
    beside = {cell.id: cell.stack for cell in model.cells if cell.kind == "captured"}
    assert beside == {f"beside-{n}": (Piece(0, "piece"),) for n in (20, 22)}
    assert model.cell("20").kind == model.cell("22").kind == "blocked"
    assert model.cell("20").stack == ()
    assert model.cell("beside-20").y > 3  # below the bottom row, outside the rectangle
    assert "Last placement: 5@21, captured 20 22" in model.notes


def test_a_blocked_bonus_square_is_drawn_blocked_and_named_in_the_notes() -> None:
    position = state(f"{L0} ba......................b..a..b..a.. A 0 663/555")
    assert position.render_model().cell("2").kind == "bonus"
    position.play("3@36")  # captures B's piece on 1, not the bonus square 2
    assert position.render_model().cell("1").kind == "blocked"
    blocked = state(f"{L0} .B.........a..b............a..b..a.. A 0 663/555").render_model()
    assert blocked.cell("2").kind == "blocked"
    assert "Bonus square: 2 (+5 for the colour on or beside it)." in blocked.notes


def test_groups_are_pools_with_one_clickable_entry_per_size_for_the_side_to_move() -> None:
    model = state(CAPTURE).render_model()
    a_groups, b_groups = model.pools
    assert a_groups.title == "A (Dark) groups" and a_groups.y > 3
    assert a_groups.pieces == (
        Piece(0, "group", label="6", count=2, id="A6"),
        Piece(0, "group", label="3", id="A3"),
    )
    assert b_groups.y < 0 and b_groups.pieces == (Piece(1, "group", label="5", count=3),)
    total = sum(int(piece.label) * piece.count for piece in a_groups.pieces)
    assert total == sum(int(d) for d in "663")


def test_click_paths_are_the_group_then_the_square() -> None:
    position = state(CAPTURE)
    paths = {position.action_to_str(a): p for a, p in position.click_paths().items()}
    assert paths["3@13"] == ClickPath(targets=("A3", "13"))
    assert paths["6@19"] == ClickPath(targets=("A6", "19"))
    assert len(paths) == 8
    for _ in range(3):
        position.apply_action(min(position.legal_actions(), key=position.action_to_str))
    paths = {position.action_to_str(a): p for a, p in position.click_paths().items()}
    assert paths["5@21"] == ClickPath(targets=("B5", "21"))
    assert {path.targets[0] for path in paths.values()} == {"B5"}


def test_scores_status_and_the_finished_game() -> None:
    position = l0().new_initial_state()
    assert isinstance(position, AnacundState)
    model = position.render_model()
    assert (model.scores, model.to_move, model.phase) == ((0.0, 0.0), 0, "play")
    assert model.status == "A to place: placement 1 of 3 (3 left this turn)"
    while not position.is_terminal():
        position.apply_action(min(position.legal_actions(), key=position.action_to_str))
    final = position.render_model(last_turn=[ClickPath(targets=("B1", "8"))])
    assert (final.scores, final.to_move, final.phase) == ((6.0, 35.0), None, "over")
    assert "B: 16 on the track + 14 captured beside + bonus 5 (square 2) = 35" in final.notes
    assert all(piece.id == "" for pool in final.pools for piece in pool.pieces)
    assert RenderModel.from_json(final.to_json()) == final
