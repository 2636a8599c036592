"""Move notation of Colosseum Offcuts (spec §10): cells ``x,y`` and the five decision forms."""

from __future__ import annotations

import re

from boardlab.games.colosseum_offcuts.board import Cell

INT = r"(?:0|-?[1-9][0-9]*)"
CELL = rf"{INT},{INT}"
ACTION_PATTERN = rf"m{CELL}:{CELL}|a{CELL}:{CELL}x?|f{CELL}"
"""A Mobile move, an Attack move or a flip: what a mid-turn step field may hold."""
NOTATION = re.compile(rf"[BF]@{CELL}|{ACTION_PATTERN}|pass")
ACTION = re.compile(ACTION_PATTERN)
CELL_RE = re.compile(rf"({INT}),({INT})")
NOTATION_HELP = (
    "write a placement B@x,y or F@x,y (setup), a Mobile move mX,Y:x,y, an Attack move "
    "aX,Y:x,y (suffix x for a capture), a flip fx,y, or pass; integers are canonical "
    "(no leading zeros, no -0)"
)


def cell_text(cell: Cell) -> str:
    """A cell as ``x,y``."""
    return f"{cell[0]},{cell[1]}"


def placement_text(fort: bool, cell: Cell) -> str:
    """A setup placement, e.g. ``B@0,0``."""
    return f"{'F' if fort else 'B'}@{cell[0]},{cell[1]}"


def mobile_text(origin: Cell, dest: Cell) -> str:
    """A Mobile move, e.g. ``m-1,-1:2,2``."""
    return f"m{origin[0]},{origin[1]}:{dest[0]},{dest[1]}"


def attack_text(origin: Cell, dest: Cell, capture: bool) -> str:
    """An Attack move, e.g. ``a0,0:1,0x``."""
    return f"a{origin[0]},{origin[1]}:{dest[0]},{dest[1]}{'x' if capture else ''}"


def flip_text(cell: Cell) -> str:
    """A flip, e.g. ``f0,2``."""
    return f"f{cell[0]},{cell[1]}"
