"""The SVG renderer on hand-built models: structure, ids, escaping, flip, marks and arrows."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from boardlab.core.registry import make
from boardlab.core.render_model import Piece, RenderModel
from boardlab.render import render_svg
from boardlab.render.palette import SEAT_COLOURS
from tests.render.samples import hex_model, ring_model, square_model

SVG = "{http://www.w3.org/2000/svg}"
MODELS = {"square": square_model, "hex": hex_model, "ring": ring_model}


def parse(text: str) -> ET.Element:
    """The root element of an SVG text (fails the test if it is not well-formed XML)."""
    return ET.fromstring(text)


def groups(root: ET.Element, css: str) -> dict[str, ET.Element]:
    """The ``<g>`` elements with class ``css`` and a data-id, by id."""
    found = {}
    for element in root.iter(f"{SVG}g"):
        if css in element.get("class", "").split() and element.get("data-id"):
            found[element.get("data-id", "")] = element
    return found


@pytest.mark.parametrize("name", sorted(MODELS))
def test_every_cell_and_clickable_pool_piece_has_its_id(name: str) -> None:
    model = MODELS[name]()
    root = parse(render_svg(model))
    assert set(groups(root, "cell")) == {cell.id for cell in model.cells}
    clickable = {piece.id for pool in model.pools for piece in pool.pieces if piece.id}
    assert set(groups(root, "piece")) == clickable


def test_document_is_standalone_with_viewbox_style_and_title() -> None:
    text = render_svg(square_model())
    root = parse(text)
    assert root.tag == f"{SVG}svg"
    _, min_y, width, height = (float(v) for v in root.get("viewBox", "").split())
    assert width >= 11.0 * 100 and height > 6.1 * 100 and min_y == -30
    assert root.find(f"{SVG}style") is not None
    assert root.find(f"{SVG}title") is not None
    assert "http" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "url(" not in text and "@import" not in text


def test_output_is_deterministic() -> None:
    model = square_model()
    first = render_svg(model, highlights=["c4"], arrows=[("c3", "c4")])
    assert render_svg(model, highlights=["c4"], arrows=[("c3", "c4")]) == first
    assert (
        render_svg(RenderModel.from_json(model.to_json()), highlights=["c4"], arrows=[("c3", "c4")])
        == first
    )


def test_text_is_escaped() -> None:
    model = replace(square_model(), status='<b>"x" & y</b>', players=("A&B", "<C>"))
    text = render_svg(model)
    root = parse(text)
    assert "<b>" not in text
    texts = ["".join(element.itertext()) for element in root.iter(f"{SVG}text")]
    assert '<b>"x" & y</b>' in texts
    assert "Light <reserve> & co" in texts
    assert "ply 12 <no capture: 3>" in texts


def test_last_turn_and_highlights_take_classes() -> None:
    root = parse(render_svg(square_model(), highlights=["c4", "k0"]))
    cells = groups(root, "cell")
    pieces = groups(root, "piece")
    assert "last" in cells["a1"].get("class", "").split()
    assert "last" in cells["a2"].get("class", "").split()
    assert "last" in pieces["r0"].get("class", "").split()
    assert "hl" in cells["c4"].get("class", "").split()
    assert "hl" in pieces["k0"].get("class", "").split()
    assert "hl" not in cells["a1"].get("class", "").split()
    assert "last" not in cells["c4"].get("class", "").split()


def test_unknown_highlight_or_arrow_id_is_refused() -> None:
    with pytest.raises(ValueError, match="z9"):
        render_svg(square_model(), highlights=["z9"])
    with pytest.raises(ValueError, match="q0"):
        render_svg(square_model(), arrows=[("a1", "q0")])


def test_arrows_are_drawn_on_top_between_centres() -> None:
    root = parse(render_svg(square_model(), arrows=[("c3", "c4"), ("r1", "b1")]))
    children = list(root)
    layers = [child.get("class") for child in children if child.tag == f"{SVG}g"]
    assert layers.index("arrows") > layers.index("stacks")
    arrows = [g for g in root.iter(f"{SVG}g") if g.get("class") == "arrow"]
    assert [(a.get("data-from"), a.get("data-to")) for a in arrows] == [
        ("c3", "c4"),
        ("r1", "b1"),
    ]
    line = arrows[0].find(f"{SVG}line")
    assert line is not None
    # c3 is at (2.5, 2.5) and c4 at (2.5, 1.5) in units of 1/100: the arrow points up.
    assert line.get("x1") == line.get("x2") == "250"
    assert float(line.get("y1", "0")) > float(line.get("y2", "0"))


def _cell_xy(root: ET.Element, cell_id: str) -> tuple[float, float]:
    shape = groups(root, "cell")[cell_id].find(f"{SVG}rect")
    assert shape is not None
    return float(shape.get("x", "0")), float(shape.get("y", "0"))


def test_flip_turns_the_board_half_round_and_keeps_text_upright() -> None:
    model = square_model()
    plain, flipped = parse(render_svg(model)), parse(render_svg(model, flip=True))
    assert plain.get("viewBox") == flipped.get("viewBox")
    min_x, min_y, width, height = model.extent
    for cell in ("a1", "c3", "e4"):
        (x, y), (fx, fy) = _cell_xy(plain, cell), _cell_xy(flipped, cell)
        # A half turn about the extent's centre maps each cell's box onto the mirrored box.
        assert x + fx + 100 == pytest.approx(2 * (min_x + width / 2) * 100)
        assert y + fy + 100 == pytest.approx(2 * (min_y + height / 2) * 100)
    assert "rotate" not in render_svg(model, flip=True)


def test_seat_colours_come_from_the_palette_or_the_model() -> None:
    text = render_svg(hex_model(5))
    assert all(colour in text for colour in SEAT_COLOURS)
    named = replace(square_model(), seat_colours=("#222222", "#EEEEEE"))
    text = render_svg(named)
    assert "#222222" in text and "#EEEEEE" in text and SEAT_COLOURS[0] not in text


def test_stack_shows_height_and_every_layer() -> None:
    root = parse(render_svg(square_model()))
    stack = next(g for g in root.iter(f"{SVG}g") if g.get("data-cell") == "c3")
    badge = [t for t in stack.iter(f"{SVG}text") if t.get("class") == "blabel"]
    assert ["".join(t.itertext()) for t in badge] == ["3"]
    fills = [c.get("fill") for c in stack.iter(f"{SVG}circle") if c.get("fill") != "none"]
    assert fills == [SEAT_COLOURS[0], SEAT_COLOURS[1], SEAT_COLOURS[0]]


def test_hidden_pieces_show_a_question_mark_and_faces_differ() -> None:
    model = square_model()
    root = parse(render_svg(model))
    labels = {
        g.get("data-cell"): ["".join(t.itertext()) for t in g.iter(f"{SVG}text")]
        for g in root.iter(f"{SVG}g")
        if g.get("data-cell")
    }
    assert labels["d4"] == ["?"]
    light = next(g for g in root.iter(f"{SVG}g") if g.get("data-cell") == "b4")
    dark = next(g for g in root.iter(f"{SVG}g") if g.get("data-cell") == "d2")
    assert light.find(f"{SVG}circle").get("fill") == "#FFFFFF"  # type: ignore[union-attr]
    assert dark.find(f"{SVG}circle").get("fill") == SEAT_COLOURS[0]  # type: ignore[union-attr]


def test_status_names_the_side_to_move_or_the_end_and_scores() -> None:
    texts = ["".join(t.itertext()) for t in parse(render_svg(ring_model())).iter(f"{SVG}text")]
    assert "Game over: A wins 12-9" in texts and "A 12" in texts and "B 9" in texts
    plain = replace(hex_model(2), status="")
    texts = ["".join(t.itertext()) for t in parse(render_svg(plain)).iter(f"{SVG}text")]
    assert "P1 to move" in texts


def test_width_sets_the_pixel_size() -> None:
    root = parse(render_svg(ring_model(), width=300))
    assert root.get("width") == "300"
    _, _, width, height = (float(v) for v in root.get("viewBox", "").split())
    assert root.get("height") == f"{300 * height / width:.0f}"


def test_an_empty_board_still_draws() -> None:
    model = RenderModel("toy", ("A", "B"), (0.0, 0.0, 2.0, 2.0), (), to_move=0)
    assert parse(render_svg(model)).get("viewBox") is not None
    pooled = replace(model, pools=(square_model().pools[0],))
    assert "r0" in groups(parse(render_svg(pooled)), "piece")
    neutral = replace(
        square_model(), cells=(replace(square_model().cells[0], stack=(Piece(None, "rock"),)),)
    )
    assert parse(render_svg(neutral)) is not None


def test_a_state_shows_itself_as_svg_in_a_notebook() -> None:
    state = make("murus-gallicus").new_initial_state()
    assert state._repr_svg_() == render_svg(state.render_model())
    assert set(groups(parse(state._repr_svg_()), "cell")) == {
        cell.id for cell in state.render_model().cells
    }


def test_ids_and_kinds_with_quotes_stay_well_formed() -> None:
    model = square_model()
    odd = replace(model.cells[0], id='a"1 <&>', kind="odd'kind\"")
    model = replace(model, cells=(odd, *model.cells[1:]), last_turn=())
    root = parse(render_svg(model, highlights=['a"1 <&>']))
    cell = groups(root, "cell")['a"1 <&>']
    assert cell.get("class") == "cell kind-odd'kind\" owner-0 hl"


def test_hexes_are_pointy_or_flat_top_as_their_rows_suggest() -> None:
    pointy = hex_model(2)
    flat = replace(pointy, cells=tuple(replace(c, x=c.y, y=c.x) for c in pointy.cells))
    for model, corner in ((pointy, "top"), (flat, "right")):
        root = parse(render_svg(model))
        cell = groups(root, "cell")["0,0"].find(f"{SVG}polygon")
        assert cell is not None
        x, y = (float(v) for v in cell.get("points", "").split()[0].split(","))
        # The first corner of a pointy-top hex is straight above its centre (0, 0), of a
        # flat-top hex straight to its right.
        assert (x == 0 and y < 0) if corner == "top" else (y == 0 and x > 0)


def test_kept_cell_drawings_follow_the_names_colours_and_marks_of_each_model() -> None:
    # The renderer keeps drawn cells across pictures: a cell drawn for one model must not
    # reappear in a picture whose seats are named or coloured differently, or marked elsewhere.
    model = square_model()
    first = render_svg(model)
    renamed = replace(model, players=("North", "South"), seat_colours=("#123456", "#654321"))
    text = render_svg(renamed)
    assert "North stone" in text and "#123456" in text and "#654321" in text
    assert "Dark stone" not in text and SEAT_COLOURS[0] not in text
    marked = render_svg(model, highlights=["a2"])
    assert marked != first and 'data-id="a2"' in marked
    assert render_svg(model) == first
