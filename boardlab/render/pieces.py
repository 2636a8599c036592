"""Drawing pieces and stacks: outlines, faces, labels, height badges and owner bands.

A stack is drawn as a pile of counters seen from slightly above: the pieces below the top one
peek out underneath it, each in its owner's colour, so a mixed stack shows who is in it; the
top piece carries its label, and a badge gives the height when it is above one.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from boardlab.core.render_model import Piece, RenderModel
from boardlab.render.geometry import num, polygon
from boardlab.render.palette import INK, OUTLINE, seat_colour, text_on

PIECE_RADIUS = 0.74
"""A lone piece's radius as a share of its cell's inner radius."""

TIMES = "\u00d7"
"""The multiplication sign written before the count of identical pieces in a pool."""

MAX_LAYERS = 8
"""More pieces than this in one stack show as this many layers (the badge says how many)."""


def piece_name(model: RenderModel, piece: Piece) -> str:
    """Words for a piece, for titles: ``Dark tower x2``, ``hidden piece of North``."""
    owner = "neutral" if piece.owner is None else model.players[piece.owner]
    if piece.hidden:
        text = f"hidden piece of {owner}" if piece.owner is not None else "hidden piece"
    else:
        face = f" ({piece.face})" if piece.face else ""
        text = f"{owner} {piece.kind}{face}"
    return text if piece.count == 1 else f"{text} {TIMES}{piece.count}"


def outline(piece: Piece, x: float, y: float, r: float, fill: str, extra: str) -> str:
    """The outline of ``piece`` at (x, y), radius ``r``, with its fill and ``extra`` attributes."""
    paint = f'fill="{fill}" {extra}'
    if piece.shape == "square":
        side = 1.64 * r
        return (
            f'<rect x="{num(x - side / 2)}" y="{num(y - side / 2)}" width="{num(side)}" '
            f'height="{num(side)}" rx="{num(0.16 * r)}" {paint}/>'
        )
    if piece.shape == "triangle":
        corners = [(x, y - 1.08 * r), (x + 1.02 * r, y + 0.72 * r), (x - 1.02 * r, y + 0.72 * r)]
        return f'<polygon points="{polygon(corners)}" stroke-linejoin="round" {paint}/>'
    if piece.shape == "diamond":
        corners = [(x, y - 1.12 * r), (x + 1.0 * r, y), (x, y + 1.12 * r), (x - 1.0 * r, y)]
        return f'<polygon points="{polygon(corners)}" stroke-linejoin="round" {paint}/>'
    return f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(r)}" {paint}/>'


def piece_svg(
    model: RenderModel, piece: Piece, x: float, y: float, r: float, *, labelled: bool = True
) -> list[str]:
    """One piece: its outline in its owner's colour and face, and its label (or ``?``)."""
    colour = seat_colour(model, piece.owner)
    stroke = f'stroke="{OUTLINE}" stroke-width="{num(0.035)}"'
    if piece.face == "light":
        # A pale fill with a thick ring of the owner's colour: the same hue as the dark face,
        # clearly another mode of it.
        parts = [
            outline(piece, x, y, r, "#FFFFFF", stroke),
            outline(
                piece,
                x,
                y,
                r * 0.86,
                colour,
                f'fill-opacity="0.14" stroke="{colour}" stroke-width="{num(0.16 * r)}"',
            ),
        ]
        ink = INK
    else:
        parts = [
            outline(piece, x, y, r, colour, stroke),
            outline(
                piece,
                x,
                y,
                r * 0.8,
                "none",
                f'stroke="#FFFFFF" stroke-opacity="0.35" stroke-width="{num(0.03)}"',
            ),
        ]
        ink = text_on(colour)
    text = "?" if piece.hidden else piece.label
    if labelled and text:
        size = r * (1.05 if len(text) == 1 else 0.8)
        lower = 0.22 * r if piece.shape == "triangle" else 0.0
        parts.append(
            f'<text class="plabel" x="{num(x)}" y="{num(y + lower)}" dy="0.35em" '
            f'font-size="{num(size)}" font-weight="700" fill="{ink}">{escape(text)}</text>'
        )
    return parts


def badge(text: str, x: float, y: float, height: float) -> list[str]:
    """A white pill with ``text`` centred at (x, y): a stack height or a pool count."""
    width = max(height, height * (0.3 + 0.52 * len(text)))
    return [
        f'<rect class="badge" x="{num(x - width / 2)}" y="{num(y - height / 2)}" '
        f'width="{num(width)}" height="{num(height)}" rx="{num(height / 2)}" fill="#FFFFFF" '
        f'stroke="{INK}" stroke-width="{num(0.025)}"/>',
        f'<text class="blabel" x="{num(x)}" y="{num(y)}" dy="0.35em" '
        f'font-size="{num(height * 0.72)}" font-weight="700" fill="{INK}">{escape(text)}</text>',
    ]


def stack_svg(
    model: RenderModel, stack: Sequence[Piece], x: float, y: float, u: float
) -> list[str]:
    """A stack, bottom to top, on a cell centred at (x, y) with inner radius ``u``."""
    layers = [piece for piece in stack for _ in range(piece.count)]
    height = len(layers)
    shown = layers[-MAX_LAYERS:]
    r = PIECE_RADIUS * u if len(shown) == 1 else 0.66 * u
    step = 0.0 if len(shown) == 1 else min(0.18 * u, 0.46 * u / (len(shown) - 1))
    top_y = y - (len(shown) - 1) * step / 2
    parts: list[str] = []
    for index, piece in enumerate(shown[:-1]):
        offset = (len(shown) - 1 - index) * step
        parts += piece_svg(model, piece, x, top_y + offset, r, labelled=False)
    parts += piece_svg(model, shown[-1], x, top_y, r)
    if height > 1:
        parts += badge(str(height), x + 0.66 * u, top_y - 0.6 * u, 0.5 * u)
    return parts
