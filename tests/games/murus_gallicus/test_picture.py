"""The render model and click paths of Murus Gallicus: harness, pieces, paths, JSON."""

from __future__ import annotations

from collections import Counter

import pytest

import boardlab
from boardlab.core.render_conformance import run_render_conformance
from boardlab.core.render_model import ClickPath, RenderModel
from boardlab.games.murus_gallicus.state import MurusGallicusState


def state(text: str, **options: object) -> MurusGallicusState:
    result = boardlab.make("murus-gallicus", **options).state_from_text(text)
    assert isinstance(result, MurusGallicusState)
    return result


@pytest.mark.parametrize(("board", "playouts"), [("8x7", 3), ("8x8", 1)])
def test_pictures_and_click_paths_of_random_playouts(board: str, playouts: int) -> None:
    game = boardlab.make("murus-gallicus", board=board)
    assert run_render_conformance(game, playouts=playouts, seed=3) > playouts


def _letters(model: RenderModel) -> Counter[str]:
    """Position-text letters of the model's stacks: R/G tower (count 2), r/g wall."""
    letters: Counter[str] = Counter()
    for cell in model.cells:
        for piece in cell.stack:
            assert piece.kind == "stone" and piece.owner is not None
            letter = "RG"[piece.owner]
            letters[letter if piece.count == 2 else letter.lower()] += 1
    return letters


@pytest.mark.parametrize(
    ("text", "tower", "wall"),
    [
        ("GGGG1GGG/8/8/4g3/3R4/8/RRR1RRRR R 12", "d3", "e4"),
        ("gg6/8/6RR/6RG/r5RR/r7/8 G 31", "h4", "a2"),
    ],
)
def test_the_stacks_are_the_walls_and_towers_of_the_position_text(
    text: str, tower: str, wall: str
) -> None:
    model = state(text).render_model()
    board = text.split()[0]
    assert _letters(model) == Counter(c for c in board if c.isalpha())
    assert [piece.count for piece in model.cell(tower).stack] == [2]
    assert [piece.count for piece in model.cell(wall).stack] == [1]


def test_geometry_home_rows_labels_and_words_of_the_start() -> None:
    model = boardlab.make("murus-gallicus").new_initial_state().render_model()
    assert len(model.cells) == 56
    a1, h7 = model.cell("a1"), model.cell("h7")
    assert (a1.x, a1.y, a1.kind, a1.owner) == (0.5, 6.5, "home", 0)
    assert (h7.x, h7.y, h7.kind, h7.owner) == (7.5, 0.5, "home", 1)
    assert model.cell("d4").kind == "normal"
    assert sorted({label.text for label in model.labels}) == [*"1234567", *"abcdefgh"]
    assert len(model.labels) == 2 * (8 + 7)
    assert (model.to_move, model.phase, model.status) == (0, "play", "Romans to move.")
    assert model.notes == ("Stones: Romans 16, Gauls 16 (of 16 each); ply 0.",)
    assert len(model.seat_colours) == 2


def test_a_finished_game_has_no_side_to_move() -> None:
    model = state("gg6/8/6RR/6RG/6RR/8/R7 G 31").render_model()
    assert (model.to_move, model.phase) == (None, "over")
    assert model.status == "Romans won (no move left)"


def test_click_paths_name_the_origin_and_the_far_cell_or_the_sacrificed_wall() -> None:
    position = state("GGGG1GGG/8/8/4g3/3R4/8/RRR1RRRR R 12")
    paths = {position.action_to_str(a): p for a, p in position.click_paths().items()}
    assert paths["c1-c3"] == ClickPath(targets=("c1", "c3"))
    assert paths["d3-f3"] == ClickPath(targets=("d3", "f3"))
    assert paths["d3xe4"] == ClickPath(targets=("d3", "e4"))
    assert len(paths) == 21


def test_the_model_round_trips_through_json() -> None:
    model = state("GGGG1GGG/8/8/4g3/3R4/8/RRR1RRRR R 12").render_model(
        last_turn=[ClickPath(targets=("e2", "e4"))]
    )
    assert RenderModel.from_json(model.to_json()) == model
    assert model.last_turn == (ClickPath(targets=("e2", "e4")),)
