"""Geometry of the pictures: flipping, number format, cell outlines and cell tones.

Model coordinates are board units; the SVG is written in hundredths of a unit so numbers stay
short integers or one decimal, which also makes the output byte-for-byte stable.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from boardlab.core.render_model import Cell

SCALE = 100.0
"""SVG user units per board unit."""

SQRT3 = math.sqrt(3.0)
NUMBERS_KEPT = 8192
"""How many formatted numbers ``num`` keeps: a picture writes some 1,700, mostly the same few
hundred coordinates and sizes from one picture to the next."""


@functools.lru_cache(maxsize=NUMBERS_KEPT)
def num(value: float) -> str:
    """A board-unit length or coordinate as SVG text (hundredths, at most one decimal)."""
    scaled = round(value * SCALE, 1)
    whole = int(scaled)
    return str(whole) if scaled == whole else str(scaled)


@dataclass(frozen=True)
class Frame:
    """Where model points land: the identity, or a half turn about the extent's centre."""

    centre_x: float
    centre_y: float
    flip: bool

    def point(self, x: float, y: float) -> tuple[float, float]:
        """The drawn position of model point (x, y)."""
        if not self.flip:
            return x, y
        return 2 * self.centre_x - x, 2 * self.centre_y - y

    def box(self, x: float, y: float, width: float, height: float) -> tuple[float, float]:
        """The drawn top-left corner of a box whose model top-left corner is (x, y)."""
        if not self.flip:
            return x, y
        return 2 * self.centre_x - x - width, 2 * self.centre_y - y - height


def hex_pointy(cells: Sequence[Cell]) -> bool:
    """Whether the hex cells are pointy-top: some neighbours share a row (else flat-top)."""
    hexes = [cell for cell in cells if cell.shape == "hex"]
    rows = {(round(cell.y * 8), round(cell.x * 8)) for cell in hexes}
    for cell in hexes:
        if (round(cell.y * 8), round((cell.x + 1.0) * 8)) in rows:
            return True
        if (round(cell.y * 8), round((cell.x - 1.0) * 8)) in rows:
            return True
    columns = {(round(cell.x * 8), round(cell.y * 8)) for cell in hexes}
    return not any((round(c.x * 8), round((c.y + 1.0) * 8)) in columns for c in hexes)


def hex_corners(x: float, y: float, radius: float, pointy: bool) -> list[tuple[float, float]]:
    """The six corners of a hexagon centred at (x, y) with circumradius ``radius``."""
    start = -90.0 if pointy else 0.0
    return [
        (
            x + radius * math.cos(math.radians(start + 60 * k)),
            y + radius * math.sin(math.radians(start + 60 * k)),
        )
        for k in range(6)
    ]


def polygon(points: Sequence[tuple[float, float]]) -> str:
    """An SVG ``points`` attribute."""
    return " ".join(f"{num(px)},{num(py)}" for px, py in points)


def inner_radius(cell: Cell) -> float:
    """The radius of the largest circle inside the cell: pieces are sized from it."""
    if cell.shape == "square":
        return cell.size / 2
    if cell.shape == "hex":
        return cell.size * SQRT3 / 2
    return cell.size


def tone(cell: Cell, origin: Cell, pointy: bool) -> int:
    """Which of three tones a normal cell takes, so neighbours differ on regular grids.

    Squares alternate like a chessboard; hexes take the three-colouring of the hex grid. The
    index is taken relative to ``origin`` (the first cell) so any offset of the grid works.
    Round spots (a track) take the first tone.
    """
    dx, dy = cell.x - origin.x, cell.y - origin.y
    if cell.shape == "square":
        return (round(dx / cell.size) + round(dy / cell.size)) % 2
    if cell.shape == "hex":
        along, across = (dx, dy) if pointy else (dy, dx)
        row = round(across / (SQRT3 / 2))
        column = round(along - row / 2)
        return (column - row) % 3
    return 0
