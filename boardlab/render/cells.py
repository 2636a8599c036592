"""Drawing cells: outline, fill by kind and tone, seat tint, marks for the last turn and
highlights, and the text printed on a cell.

Every cell is a ``<g class="cell kind-K" data-id="ID">``. The last-turn and highlight marks are
always present and shown by the classes ``last`` and ``hl`` (see the style sheet), so a front
end can move them by changing classes alone.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape, quoteattr

from boardlab.core.render_model import Cell, RenderModel
from boardlab.render.geometry import hex_corners, inner_radius, num, polygon
from boardlab.render.palette import (
    FRAME,
    GRID,
    HIGHLIGHT,
    INK,
    KIND_FILLS,
    LAST,
    MUTED,
    TONES,
    is_dark,
    seat_colour,
)
from boardlab.render.pieces import piece_name


def shape(cell: Cell, x: float, y: float, pointy: bool, grow: float, paint: str) -> str:
    """The outline of ``cell`` drawn at (x, y), ``grow`` units larger, with ``paint``."""
    if cell.shape == "square":
        side = cell.size + 2 * grow
        return (
            f'<rect x="{num(x - side / 2)}" y="{num(y - side / 2)}" width="{num(side)}" '
            f'height="{num(side)}" {paint}/>'
        )
    if cell.shape == "hex":
        corners = hex_corners(x, y, cell.size + grow * 1.155, pointy)
        return f'<polygon points="{polygon(corners)}" {paint}/>'
    return f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(cell.size + grow)}" {paint}/>'


def frame_svg(cell: Cell, x: float, y: float, pointy: bool) -> str:
    """The cell's share of the dark rim drawn under the board, so the board has an edge.

    A round spot stands alone (a track, a place beside the board), so its rim is thinner.
    """
    rim = 0.16 if cell.shape != "circle" else 0.08
    paint = f'fill="{FRAME}" stroke="{FRAME}" stroke-width="{num(rim)}" stroke-linejoin="round"'
    return shape(cell, x, y, pointy, 0.0, paint)


def _decoration(cell: Cell, x: float, y: float, u: float) -> list[str]:
    """A mark that names a special kind without colour alone (star, ring, cross, peak)."""
    if cell.kind == "bonus":
        points = []
        for k in range(10):
            radius = 0.32 * u if k % 2 == 0 else 0.14 * u
            angle = -90 + 36 * k
            points.append(_polar(x, y, radius, angle))
        return [
            f'<polygon class="deco" points="{polygon(points)}" fill="{FRAME}" fill-opacity="0.5"/>'
        ]
    if cell.kind == "centre":
        # A four-pointed compass star in the rim's colour: it must not look like a piece.
        points = [
            _polar(x, y, 0.42 * u if k % 2 == 0 else 0.12 * u, -90 + 45 * k) for k in range(8)
        ]
        return [
            f'<polygon class="deco" points="{polygon(points)}" fill="{FRAME}" fill-opacity="0.45"/>'
        ]
    if cell.kind in ("blocked", "hidden"):
        d = 0.45 * u
        return [
            f'<path class="deco" d="M{num(x - d)},{num(y - d)}L{num(x + d)},{num(y + d)}'
            f'M{num(x + d)},{num(y - d)}L{num(x - d)},{num(y + d)}" stroke="#FFFFFF" '
            f'stroke-opacity="0.45" stroke-width="{num(0.06)}" stroke-linecap="round"/>'
        ]
    if cell.kind == "mountain":
        corners = [(x, y - 0.4 * u), (x + 0.45 * u, y + 0.3 * u), (x - 0.45 * u, y + 0.3 * u)]
        return [
            f'<polygon class="deco" points="{polygon(corners)}" fill="#FFFFFF" '
            'fill-opacity="0.45"/>'
        ]
    return []


def _polar(x: float, y: float, radius: float, degrees: float) -> tuple[float, float]:
    """The point ``radius`` away from (x, y) at ``degrees`` (clockwise from east, y down)."""
    return x + radius * math.cos(math.radians(degrees)), y + radius * math.sin(
        math.radians(degrees)
    )


def cell_svg(
    model: RenderModel,
    cell: Cell,
    x: float,
    y: float,
    pointy: bool,
    tone: int,
    classes: str,
) -> list[str]:
    """The group of one cell drawn at (x, y), without its stack (drawn in a layer above)."""
    u = inner_radius(cell)
    kind = cell.kind if cell.kind in KIND_FILLS else "normal"
    fill = KIND_FILLS.get(kind, TONES[tone % len(TONES)])
    owner = "" if cell.owner is None else f" owner-{cell.owner}"
    parts = [
        f"<g class={quoteattr(f'cell kind-{cell.kind}{owner}{classes}')} "
        f"data-id={quoteattr(cell.id)}>",
        f"<title>{escape(_cell_title(model, cell))}</title>",
        shape(cell, x, y, pointy, 0.0, f'fill="{fill}" stroke="{GRID}" stroke-width="{num(0.02)}"'),
    ]
    if cell.owner is not None:
        tint = seat_colour(model, cell.owner)
        parts.append(shape(cell, x, y, pointy, -0.01, f'fill="{tint}" fill-opacity="0.2"'))
    parts += _decoration(
        cell,
        x,
        y - (0.5 * u if cell.label and not cell.stack else 0.0),
        u * (0.5 if cell.label else 1.0),
    )
    parts.append(
        shape(cell, x, y, pointy, -0.01, f'class="mark-last" fill="{LAST}" fill-opacity="0.5"')
    )
    parts.append(
        shape(
            cell,
            x,
            y,
            pointy,
            -0.07,
            f'class="mark-hl" fill="none" stroke="{HIGHLIGHT}" stroke-width="{num(0.07)}"',
        )
    )
    if not cell.stack:
        parts.append(
            f'<circle class="mark-hl" cx="{num(x)}" cy="{num(y)}" r="{num(0.2 * u)}" '
            f'fill="{HIGHLIGHT}" fill-opacity="0.45"/>'
        )
    if cell.label:
        parts += _cell_label(cell, x, y, u)
    parts.append("</g>")
    return parts


def _cell_label(cell: Cell, x: float, y: float, u: float) -> list[str]:
    """Text printed on the cell: large in the middle of an empty cell, else on a small token
    at the lower left so the stack does not hide it."""
    text = escape(cell.label)
    if not cell.stack:
        return [
            f'<text class="clabel" x="{num(x)}" y="{num(y)}" dy="0.35em" '
            f'font-size="{num(0.8 * u)}" fill="{_label_ink(cell)}">{text}</text>'
        ]
    tx, ty, tr = x - 0.7 * u, y + 0.7 * u, 0.27 * u
    return [
        f'<circle cx="{num(tx)}" cy="{num(ty)}" r="{num(tr)}" fill="#F3ECDD" stroke="{GRID}" '
        f'stroke-width="{num(0.02)}"/>',
        f'<text class="clabel" x="{num(tx)}" y="{num(ty)}" dy="0.35em" '
        f'font-size="{num(1.3 * tr)}" fill="{INK}">{text}</text>',
    ]


def _label_ink(cell: Cell) -> str:
    """Muted ink on light cells, pale ink on the dark kinds (a blocked square's value)."""
    fill = KIND_FILLS.get(cell.kind)
    return "#F3ECDD" if fill is not None and is_dark(fill) else MUTED


def _cell_title(model: RenderModel, cell: Cell) -> str:
    """``c3 (centre): Dark piece, Light piece (top)`` for screen readers and tooltips."""
    head = cell.id if cell.kind == "normal" else f"{cell.id} ({cell.kind})"
    if cell.label:
        head += f" {cell.label}"
    if not cell.stack:
        return head
    pieces = ", ".join(piece_name(model, piece) for piece in cell.stack)
    return f"{head}: {pieces}" + (" (bottom to top)" if len(cell.stack) > 1 else "")
