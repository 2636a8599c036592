"""Layout arithmetic shared by the games' render models: pool boxes, grid labels, extents.

The numbers are those of the render conventions: square cells of side 1, coordinate labels
0.45 outside the outermost cells, pools 1.4 high with slots 0.9 wide, and an extent that holds
everything with a margin of 0.3.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from boardlab.core.render_model import Cell, Label, Pool

Box = tuple[float, float, float, float]
"""A rectangle as (min_x, min_y, width, height), the form of ``RenderModel.extent``."""

LABEL_OFFSET = 0.45
"""How far a coordinate label sits outside the outermost cells."""
LABEL_REACH = 0.25
"""Half the size of a short label's text, so the extent holds the text and not just its centre."""
POOL_HEIGHT = 1.4
SLOT = 0.9
TITLE_CHAR = 0.22
MARGIN = 0.3


def pool_width(title: str, entries: int) -> float:
    """The width of a pool with this title and this many piece entries (conventions)."""
    return max(SLOT * entries + SLOT, TITLE_CHAR * len(title))


def pool_box(pool: Pool, entries: int | None = None) -> Box:
    """The box a pool is drawn in; ``entries`` reserves room for that many (default: its own)."""
    count = len(pool.pieces) if entries is None else entries
    return (pool.x, pool.y, pool_width(pool.title, count), POOL_HEIGHT)


def grid_labels(files: Sequence[str], ranks: Sequence[str]) -> tuple[Label, ...]:
    """File and rank names on all four sides of a grid of unit squares with its corner at 0, 0.

    ``files`` run left to right (column ``i`` is centred at ``x = i + 0.5``) and ``ranks`` top
    to bottom (row ``j`` at ``y = j + 0.5``).
    """
    width, height = len(files), len(ranks)
    labels = []
    for column, name in enumerate(files):
        x = column + 0.5
        labels += [Label(name, x, -LABEL_OFFSET), Label(name, x, height + LABEL_OFFSET)]
    for row, name in enumerate(ranks):
        y = row + 0.5
        labels += [Label(name, -LABEL_OFFSET, y), Label(name, width + LABEL_OFFSET, y)]
    return tuple(labels)


def cell_box(cell: Cell) -> Box:
    """The box a cell covers (a square's half side, or a hex or circle's radius, each way)."""
    reach = cell.size / 2 if cell.shape == "square" else cell.size
    return (cell.x - reach, cell.y - reach, 2 * reach, 2 * reach)


def label_box(label: Label) -> Box:
    """The box a short label's text covers around its point."""
    return (label.x - LABEL_REACH, label.y - LABEL_REACH, 2 * LABEL_REACH, 2 * LABEL_REACH)


def extent(cells: Iterable[Cell], labels: Iterable[Label] = (), boxes: Iterable[Box] = ()) -> Box:
    """The box that holds every cell, label and further box (pools), with the margin."""
    all_boxes = [*map(cell_box, cells), *map(label_box, labels), *boxes]
    left = min(box[0] for box in all_boxes) - MARGIN
    top = min(box[1] for box in all_boxes) - MARGIN
    right = max(box[0] + box[2] for box in all_boxes) + MARGIN
    bottom = max(box[1] + box[3] for box in all_boxes) + MARGIN
    return (round(left, 3), round(top, 3), round(right - left, 3), round(bottom - top, 3))
