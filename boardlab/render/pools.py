"""Drawing pools, the pieces off the board (reserves, supplies, groups beside a track).

A pool is a box 1.4 units high: a title line 0.45 high, then one row of slots 0.9 wide
starting 0.45 from the left (see the render conventions). A piece with an ``id`` is clickable:
its group carries ``data-id`` like a cell and takes the ``last`` and ``hl`` classes.
"""

from __future__ import annotations

from collections.abc import Collection
from xml.sax.saxutils import escape, quoteattr

from boardlab.core.render_model import Pool, RenderModel
from boardlab.render.geometry import Frame, num
from boardlab.render.palette import GRID, HIGHLIGHT, INK, LAST, seat_colour
from boardlab.render.pieces import TIMES, badge, piece_name, piece_svg

POOL_HEIGHT = 1.4
TITLE_HEIGHT = 0.45
SLOT = 0.9
INSET = 0.04
SLOT_RADIUS = 0.42
"""Inner radius of a slot: pieces in a pool are drawn as on a cell of this size."""


def pool_width(pool: Pool) -> float:
    """The width of a pool's box in board units."""
    return max(SLOT * len(pool.pieces) + SLOT, 0.22 * len(pool.title))


def slot_centre(pool: Pool, index: int, frame: Frame) -> tuple[float, float]:
    """The drawn centre of slot ``index`` of ``pool``."""
    left, top = frame.box(pool.x, pool.y, pool_width(pool), POOL_HEIGHT)
    return left + SLOT / 2 + SLOT * index + SLOT / 2, top + TITLE_HEIGHT + SLOT / 2


def pool_svg(
    model: RenderModel, pool: Pool, frame: Frame, highlights: Collection[str], last: Collection[str]
) -> list[str]:
    """The box of ``pool`` with its title and pieces."""
    width = pool_width(pool)
    left, top = frame.box(pool.x, pool.y, width, POOL_HEIGHT)
    owner = "" if pool.owner is None else f" owner-{pool.owner}"
    parts = [
        f'<g class="pool{owner}" data-pool={quoteattr(pool.id)}>',
        # Inset a little so pools laid edge to edge keep a gap between their boxes.
        f'<rect x="{num(left + INSET)}" y="{num(top + INSET)}" width="{num(width - 2 * INSET)}" '
        f'height="{num(POOL_HEIGHT - 2 * INSET)}" rx="{num(0.12)}" fill="#F3ECDD" '
        f'stroke="{GRID}" stroke-width="{num(0.02)}"/>',
    ]
    if pool.owner is not None:
        parts.append(
            f'<rect x="{num(left + INSET)}" y="{num(top + 0.14)}" width="{num(0.1)}" '
            f'height="{num(POOL_HEIGHT - 0.28)}" fill="{seat_colour(model, pool.owner)}" '
            f'stroke="{GRID}" stroke-width="{num(0.02)}"/>'
        )
    parts.append(
        f'<text class="ptitle" x="{num(left + 0.22)}" y="{num(top + 0.27)}" dy="0.35em" '
        f'font-size="{num(0.26)}" fill="{INK}" text-anchor="start">{escape(pool.title)}</text>'
    )
    for index, piece in enumerate(pool.pieces):
        x, y = slot_centre(pool, index, frame)
        classes = "piece"
        if piece.id in highlights:
            classes += " hl"
        if piece.id in last:
            classes += " last"
        ident = f" data-id={quoteattr(piece.id)}" if piece.id else ""
        half = SLOT / 2 - 0.03
        parts += [
            f'<g class="{classes}"{ident}>',
            f"<title>{escape(piece_name(model, piece))}</title>",
            f'<rect class="mark-last" x="{num(x - half)}" y="{num(y - half)}" '
            f'width="{num(2 * half)}" height="{num(2 * half)}" rx="{num(0.1)}" fill="{LAST}" '
            'fill-opacity="0.5"/>',
            f'<rect class="hit" x="{num(x - half)}" y="{num(y - half)}" width="{num(2 * half)}" '
            f'height="{num(2 * half)}" fill="#FFFFFF" fill-opacity="0"/>',
            f'<circle class="mark-hl" cx="{num(x)}" cy="{num(y)}" r="{num(half - 0.02)}" '
            f'fill="none" stroke="{HIGHLIGHT}" stroke-width="{num(0.06)}"/>',
        ]
        parts += piece_svg(model, piece, x, y, 0.74 * SLOT_RADIUS)
        if piece.count > 1:
            parts += badge(f"{TIMES}{piece.count}", x + 0.24, y + 0.27, 0.3)
        parts.append("</g>")
    parts.append("</g>")
    return parts
