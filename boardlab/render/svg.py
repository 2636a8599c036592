"""The SVG renderer: one standalone SVG document for any render model.

The renderer knows no game. It draws the model's cells (with their stacks), coordinate labels,
pools, the caller's highlights and arrows, and a status block (side to move or result, seats
with their colours and scores, notes) below the board. The output is deterministic: the same
model and arguments give the same bytes.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from xml.sax.saxutils import escape, quoteattr

from boardlab.core.render_model import Cell, Label, Piece, RenderModel
from boardlab.render.cells import cell_svg, frame_svg
from boardlab.render.geometry import Frame, hex_pointy, inner_radius, num, polygon, tone
from boardlab.render.palette import ARROW, INK, MUTED, PAGE, seat_colour
from boardlab.render.pieces import stack_svg
from boardlab.render.pools import pool_svg, slot_centre

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif"
PIXELS_PER_UNIT = 56.0
"""Default size: pixels of the ``width``/``height`` attributes per board unit."""

STYLE = """
svg.boardlab-board .mark-last, svg.boardlab-board .mark-hl { display: none; }
svg.boardlab-board .last > .mark-last, svg.boardlab-board .hl > .mark-hl { display: inline; }
svg.boardlab-board .stack, svg.boardlab-board .arrows { pointer-events: none; }
svg.boardlab-board .coord, svg.boardlab-board .info { pointer-events: none; }
svg.boardlab-board .cell, svg.boardlab-board .piece[data-id] { cursor: pointer; }
"""

CELLS_KEPT = 8192
"""How many drawn cells ``_CELLS`` keeps: a game's boards have tens to a hundred cells,
each in a few dozen looks (its stacks, last-turn and highlight marks, flipped or not)."""

LABELS_KEPT = 64
"""How many sets of coordinate labels ``_coordinates`` keeps (one or two per board and flip)."""

STATUS_SIZE = 0.34
LINE_SIZE = 0.27
NOTE_SIZE = 0.24
SWATCH = 1.2
"""Room for a seat's colour swatch before its name, in font sizes."""
GAP = 1.6
"""Room between two seats on the seats line, in font sizes."""


def render_svg(
    model: RenderModel,
    *,
    flip: bool = False,
    highlights: Iterable[str] = (),
    arrows: Iterable[tuple[str, str]] = (),
    width: float | None = None,
) -> str:
    """A standalone SVG document of ``model``.

    ``flip`` turns the board half round (another seat's point of view; text stays upright).
    ``highlights`` are cell or pool piece ids drawn with a ring (class ``hl``); ``arrows`` are
    (from id, to id) pairs drawn on top. ``width`` is the width in pixels (height follows).
    Unknown ids raise ValueError.
    """
    min_x, min_y, ext_w, ext_h = model.extent
    frame = Frame(min_x + ext_w / 2, min_y + ext_h / 2, flip)
    centres = _centres(model, frame)
    marked = set(highlights)
    _check_ids(marked, centres, "highlight")
    arrow_list = list(arrows)
    _check_ids({end for pair in arrow_list for end in pair}, centres, "arrow")
    last = {target for path in model.last_turn for target in path.targets}

    lines = _status_lines(model)
    text_h = sum(_line_height(size) for _, size, _, _ in lines) + 0.25
    text_w = max(width for _, _, _, width in lines) + 0.6
    doc_w = max(ext_w, text_w)
    doc_x = min_x - (doc_w - ext_w) / 2
    doc_h = ext_h + text_h
    pixels = width if width is not None else doc_w * PIXELS_PER_UNIT
    title = f"{model.game}: {_status(model)}"

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="boardlab-board" '
        f"data-game={quoteattr(model.game)} "
        f'viewBox="{num(doc_x)} {num(min_y)} {num(doc_w)} {num(doc_h)}" '
        f'width="{_px(pixels)}" height="{_px(pixels * doc_h / doc_w)}" '
        f'font-family="{FONT}" text-anchor="middle" role="img" aria-label={quoteattr(title)}>',
        f"<title>{escape(title)}</title>",
        f"<style>{STYLE}</style>",
        f'<rect x="{num(doc_x)}" y="{num(min_y)}" width="{num(doc_w)}" height="{num(doc_h)}" '
        f'fill="{PAGE}"/>',
    ]
    parts += _board(model, frame, marked, last)
    parts.append(_coordinates(model.labels, frame))
    for pool in model.pools:
        parts += pool_svg(model, pool, frame, marked, last)
    parts += _arrows(arrow_list, centres)
    parts += _status_svg(model, lines, doc_x + doc_w / 2, min_y + ext_h + 0.15)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _px(value: float) -> str:
    return f"{value:.0f}"


def _check_ids(ids: set[str], known: dict[str, tuple[float, float]], what: str) -> None:
    unknown = sorted(ids - set(known))
    if unknown:
        raise ValueError(f"{what} names ids the picture does not have: {', '.join(unknown)}")


def _centres(model: RenderModel, frame: Frame) -> dict[str, tuple[float, float]]:
    """The drawn centre of every cell and clickable pool piece, by id."""
    centres = {cell.id: frame.point(cell.x, cell.y) for cell in model.cells}
    for pool in model.pools:
        for index, piece in enumerate(pool.pieces):
            if piece.id:
                centres[piece.id] = slot_centre(pool, index, frame)
    return centres


def _board(model: RenderModel, frame: Frame, marked: set[str], last: set[str]) -> list[str]:
    """The rim under the board, the cells, then the stacks above every cell."""
    if not model.cells:
        return []
    pointy = hex_pointy(model.cells)
    origin = model.cells[0]
    palette = (model.players, model.seat_colours)
    drawn = []
    for cell in model.cells:
        x, y = frame.point(cell.x, cell.y)
        classes = (" last" if cell.id in last else "") + (" hl" if cell.id in marked else "")
        shade = tone(cell, origin, pointy)
        key = (
            cell.id,
            cell.shape,
            cell.size,
            cell.kind,
            cell.owner,
            cell.label,
            tuple(_piece_values(piece) for piece in cell.stack),
            x,
            y,
            pointy,
            shade,
            classes,
            palette,
        )
        lines = _CELLS.get(key)
        if lines is None:
            if len(_CELLS) >= CELLS_KEPT:
                _CELLS.clear()
            lines = _CELLS[key] = _drawn_cell(model, cell, x, y, pointy, shade, classes)
        drawn.append(lines)
    parts = ['<g class="rim">']
    parts += [rim for rim, _, _ in drawn]
    parts += ["</g>", '<g class="cells">']
    parts += [body for _, body, _ in drawn]
    parts += ["</g>", '<g class="stacks">']
    parts += [stack for _, _, stack in drawn if stack]
    parts.append("</g>")
    return parts


def _piece_values(piece: Piece) -> tuple[object, ...]:
    """Every field of ``piece``, as plain values."""
    return (
        piece.owner,
        piece.kind,
        piece.label,
        piece.face,
        piece.count,
        piece.hidden,
        piece.id,
        piece.shape,
    )


_CELLS: dict[tuple[object, ...], tuple[str, str, str]] = {}
"""Drawn cells by everything their drawing depends on: the cell's fields, where it is drawn,
its tone and marks, and the seats' names and colours (the only parts of the model a cell's
drawing reads). Most cells of a new position look as in the previous one, so a game's few
thousand distinct cells are drawn once. The keys are plain values, not the model's objects:
kept objects would be scanned by every full garbage collection of a server's event loop."""


def _drawn_cell(
    model: RenderModel, cell: Cell, x: float, y: float, pointy: bool, tone: int, classes: str
) -> tuple[str, str, str]:
    """One cell drawn at (x, y): its share of the rim, its group, and its stack's group ("" if
    it has none), each as lines of SVG."""
    body = "\n".join(cell_svg(model, cell, x, y, pointy, tone, classes))
    stack = ""
    if cell.stack:
        stack = "\n".join(
            [
                f'<g class="stack" data-cell={quoteattr(cell.id)}>',
                *stack_svg(model, cell.stack, x, y, inner_radius(cell)),
                "</g>",
            ]
        )
    return frame_svg(cell, x, y, pointy), body, stack


@functools.lru_cache(maxsize=LABELS_KEPT)
def _coordinates(labels: tuple[Label, ...], frame: Frame) -> str:
    """The coordinate labels as lines of SVG (the same for every position of a board)."""
    parts = ['<g class="coord">']
    for label in labels:
        x, y = frame.point(label.x, label.y)
        parts.append(
            f'<text x="{num(x)}" y="{num(y)}" dy="0.35em" font-size="{num(0.3)}" '
            f'fill="{MUTED}">{escape(label.text)}</text>'
        )
    parts.append("</g>")
    return "\n".join(parts)


def _arrows(
    arrows: Sequence[tuple[str, str]], centres: dict[str, tuple[float, float]]
) -> list[str]:
    """Arrows from centre to centre, stopping short of both so the pieces stay visible."""
    if not arrows:
        return []
    parts = ['<g class="arrows">']
    for start, end in arrows:
        (x1, y1), (x2, y2) = centres[start], centres[end]
        length = math.hypot(x2 - x1, y2 - y1)
        if length < 0.5:
            continue
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        sx, sy = x1 + 0.22 * ux, y1 + 0.22 * uy
        tip_x, tip_y = x2 - 0.18 * ux, y2 - 0.18 * uy
        base_x, base_y = tip_x - 0.34 * ux, tip_y - 0.34 * uy
        head = [
            (tip_x, tip_y),
            (base_x - 0.2 * uy, base_y + 0.2 * ux),
            (base_x + 0.2 * uy, base_y - 0.2 * ux),
        ]
        parts += [
            f'<g class="arrow" data-from={quoteattr(start)} data-to={quoteattr(end)} '
            f'fill="{ARROW}" stroke="{ARROW}" opacity="0.8">',
            f'<line x1="{num(sx)}" y1="{num(sy)}" x2="{num(base_x)}" y2="{num(base_y)}" '
            f'stroke-width="{num(0.12)}" stroke-linecap="round"/>',
            f'<polygon points="{polygon(head)}" stroke="none"/>',
            "</g>",
        ]
    parts.append("</g>")
    return parts


def _status(model: RenderModel) -> str:
    """The model's status sentence, or one made from the side to move."""
    if model.status:
        return model.status
    if model.to_move is None:
        return "Game over"
    return f"{model.players[model.to_move]} to move"


Line = tuple[str, float, str, float]
"""A status block line: its text, font size, kind (status, seats, note) and width."""


def _status_lines(model: RenderModel) -> list[Line]:
    status = _status(model)
    swatch = 0.0 if model.to_move is None else SWATCH * STATUS_SIZE
    lines: list[Line] = [(status, STATUS_SIZE, "status", _text_width(status, STATUS_SIZE) + swatch)]
    seats = _seat_texts(model)
    width = sum(_text_width(text, LINE_SIZE) for text in seats)
    width += len(seats) * SWATCH * LINE_SIZE + (len(seats) - 1) * GAP * LINE_SIZE
    lines.append(("", LINE_SIZE, "seats", width))
    lines += [(note, NOTE_SIZE, "note", _text_width(note, NOTE_SIZE)) for note in model.notes]
    return lines


def _seat_texts(model: RenderModel) -> list[str]:
    texts = []
    for seat, name in enumerate(model.players):
        score = "" if model.scores is None else f" {_score(model.scores[seat])}"
        texts.append(f"{name}{score}")
    return texts


def _score(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _line_height(size: float) -> float:
    return size * 1.55


def _text_width(text: str, size: float) -> float:
    """A generous estimate of the width of ``text`` in a sans-serif face."""
    return 0.58 * size * len(text)


def _status_svg(model: RenderModel, lines: list[Line], centre_x: float, top: float) -> list[str]:
    """The status line, the seats with their colours (and scores), then the notes."""
    parts = ['<g class="info">']
    y = top
    for text, size, kind, width in lines:
        y += _line_height(size)
        baseline = y - size * 0.45
        if kind == "seats":
            parts += _seats_svg(model, centre_x, baseline, size, width)
            continue
        x, anchor = centre_x, "middle"
        if kind == "status" and model.to_move is not None:
            # The swatch of the seat to move, then the text, centred together.
            x = centre_x - width / 2 + size * SWATCH
            anchor = "start"
            parts.append(
                f'<circle cx="{num(x - size * 0.8)}" cy="{num(baseline - size * 0.35)}" '
                f'r="{num(size * 0.38)}" fill="{seat_colour(model, model.to_move)}" '
                f'stroke="{INK}" stroke-width="{num(0.02)}"/>'
            )
        look = f'fill="{INK}" font-weight="700"' if kind == "status" else f'fill="{MUTED}"'
        parts.append(
            f'<text class="{kind}" x="{num(x)}" y="{num(baseline)}" text-anchor="{anchor}" '
            f'font-size="{num(size)}" {look}>{escape(text)}</text>'
        )
    parts.append("</g>")
    return parts


def _seats_svg(
    model: RenderModel, centre_x: float, baseline: float, size: float, width: float
) -> list[str]:
    """Each seat's colour swatch followed by its name and score, in one centred row."""
    parts = []
    x = centre_x - width / 2
    for seat, text in enumerate(_seat_texts(model)):
        colour = seat_colour(model, seat)
        parts.append(
            f'<circle cx="{num(x + size * 0.4)}" cy="{num(baseline - size * 0.35)}" '
            f'r="{num(size * 0.38)}" fill="{colour}" stroke="{INK}" stroke-width="{num(0.02)}"/>'
        )
        parts.append(
            f'<text x="{num(x + size * SWATCH)}" y="{num(baseline)}" font-size="{num(size)}" '
            f'fill="{INK}" text-anchor="start">{escape(text)}</text>'
        )
        x += size * SWATCH + _text_width(text, size) + size * GAP
    return parts
