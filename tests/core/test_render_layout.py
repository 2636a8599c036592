"""The layout arithmetic of render models: pool widths, grid labels and extents."""

from __future__ import annotations

from boardlab.core.render_layout import extent, grid_labels, pool_box, pool_width
from boardlab.core.render_model import Cell, Label, Piece, Pool


def test_a_pool_is_as_wide_as_its_slots_or_its_title() -> None:
    assert pool_width("R", 2) == 0.9 * 2 + 0.9
    assert pool_width("A rather long pool title", 1) == 0.22 * 24
    pool = Pool("p", "Dark reserve", 0, 6.0, 1.0, (Piece(0, "piece", count=3),))
    assert pool_box(pool) == (6.0, 1.0, 0.22 * 12, 1.4)
    assert pool_box(pool, entries=3) == (6.0, 1.0, 3.6, 1.4)


def test_grid_labels_sit_outside_every_side() -> None:
    labels = grid_labels("ab", ["2", "1"])
    assert Label("a", 0.5, -0.45) in labels and Label("a", 0.5, 2.45) in labels
    assert Label("2", -0.45, 0.5) in labels and Label("1", 2.45, 1.5) in labels
    assert len(labels) == 8


def test_the_extent_holds_cells_labels_and_boxes_with_a_margin() -> None:
    cells = [Cell("a1", "square", 0.5, 0.5, 1.0), Cell("h", "hex", 3.0, 1.0, 0.5)]
    assert extent(cells) == (-0.3, -0.3, 3.5 + 0.6, 1.5 + 0.6)
    box = extent(cells, [Label("x", -1.0, 0.5)], [(0.0, 2.0, 5.0, 1.4)])
    assert box == (-1.55, -0.3, 6.85, 4.0)
