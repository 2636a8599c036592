"""The pictures of every game: a sample of positions parses as XML with every id in place."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from boardlab.core.render_model import SPECTATOR, RenderModel
from boardlab.render import render_svg
from tests.render.positions import GAMES, make_game, playout

SVG = "{http://www.w3.org/2000/svg}"


def check_svg(model: RenderModel, text: str) -> None:
    """The SVG parses and has one ``data-id`` group per cell and clickable pool piece."""
    root = ET.fromstring(text)
    cells = [g.get("data-id") for g in root.iter(f"{SVG}g") if "cell" in g.get("class", "").split()]
    assert sorted(cells, key=str) == sorted(cell.id for cell in model.cells)
    pieces = {
        g.get("data-id")
        for g in root.iter(f"{SVG}g")
        if "piece" in g.get("class", "").split() and g.get("data-id")
    }
    assert pieces == {p.id for pool in model.pools for p in pool.pieces if p.id}
    last = {g.get("data-id") for g in root.iter(f"{SVG}g") if "last" in g.get("class", "").split()}
    # A pool piece played last turn may have left its pool: only ids still drawn are marked.
    targets = {target for path in model.last_turn for target in path.targets}
    assert last == targets & (set(cells) | pieces)


@pytest.mark.parametrize("name", GAMES)
def test_pictures_of_a_sample_of_positions(name: str) -> None:
    game = make_game(name)
    drawn = 0
    for index, (state, last) in enumerate(playout(game, seed=11)):
        if index % 7 and not state.is_terminal():
            continue
        model = state.render_model(last_turn=last)
        check_svg(model, render_svg(model, flip=index % 2 == 1))
        if not state.is_terminal():
            ends = [path.targets for path in state.click_paths().values() if path.targets]
            marked = sorted({t for targets in ends for t in targets})
            arrows = [(t[0], t[-1]) for t in ends if len(t) > 1][:5]
            check_svg(model, render_svg(model, highlights=marked, arrows=arrows))
        spectator = state.render_model(view=SPECTATOR)
        check_svg(spectator, render_svg(spectator))
        drawn += 1
    assert drawn >= 3
