"""Board geometry of Murus Gallicus as bitboards: one int bit per cell, rows 9 bits wide.

Cell (column c, row r), both from 0, is bit ``r * 9 + c``. Column 8 of every row is padding
that is never on the board, so a shift that leaves the board on the east or west side lands on
padding and is masked off.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

WIDTH = 8
STRIDE = 9
COLUMNS = "abcdefgh"

# The 8 king directions as bit shifts, in the order used for action ids:
# N, NE, E, SE, S, SW, W, NW.
SHIFTS = (STRIDE, STRIDE + 1, 1, 1 - STRIDE, -STRIDE, -STRIDE - 1, -1, STRIDE - 1)
DIRECTIONS = len(SHIFTS)


@dataclass(frozen=True)
class Board:
    """Masks and sizes of one board option."""

    rows: int
    home_rows: int  # rows of towers each side starts with
    cells: int  # bit positions used, padding included
    mask: int  # every cell on the board
    bottom: int  # row 1, the Romans' home row
    top: int  # the top row, the Gauls' home row
    stones: int  # stones per side at the start
    # Per cell: the tower moves from it as (bits of the near and far cells, action id), and
    # the sacrifices as (bit of the adjacent cell, action id); empty for padding cells.
    tower_moves: tuple[tuple[tuple[int, int], ...], ...]
    sacrifices: tuple[tuple[tuple[int, int], ...], ...]
    # Per action id: (is a tower move, origin bit, bits of the cells it changes) — the near
    # and far cells of a tower move, the enemy wall of a sacrifice; unused ids hold zeros.
    effects: tuple[tuple[bool, int, int], ...]
    goals: tuple[int, int]  # the row each side must reach: top for the Romans, row 1 for Gauls

    def name(self, index: int) -> str:
        """Cell name like ``c3`` for a bit index."""
        return f"{COLUMNS[index % STRIDE]}{index // STRIDE + 1}"

    def index(self, name: str) -> int | None:
        """Bit index of a cell name, or None if it is not on this board."""
        if len(name) != 2 or name[0] not in COLUMNS or not name[1].isdigit():
            return None
        row = int(name[1]) - 1
        if not 0 <= row < self.rows:
            return None
        return row * STRIDE + COLUMNS.index(name[0])


def _row_mask(row: int) -> int:
    return ((1 << WIDTH) - 1) << (row * STRIDE)


@cache
def board_for(option: str) -> Board:
    """The Board of a ``board`` option value."""
    rows = 7 if option == "8x7" else 8
    home_rows = 2 if option == "8x8_two_rows" else 1
    mask = 0
    for row in range(rows):
        mask |= _row_mask(row)
    cells = rows * STRIDE
    tower_moves: list[tuple[tuple[int, int], ...]] = []
    sacrifices: list[tuple[tuple[int, int], ...]] = []
    for origin in range(cells):
        moves, targets = [], []
        if mask >> origin & 1:
            for direction, step in enumerate(SHIFTS):
                near, far = origin + step, origin + 2 * step
                # Padding and the rows beyond the board are off the mask, so a step that
                # leaves the board on any side lands on a cleared bit.
                if 0 <= near < cells and mask >> near & 1:
                    targets.append((1 << near, (DIRECTIONS + direction) * cells + origin))
                    if 0 <= far < cells and mask >> far & 1:
                        moves.append(((1 << near) | (1 << far), direction * cells + origin))
        tower_moves.append(tuple(moves))
        sacrifices.append(tuple(targets))
    effects = []
    for kind in range(2):
        for step in SHIFTS:
            for origin in range(cells):
                near, far = origin + step, origin + 2 * step
                if kind == 0 and 0 <= far < cells:
                    effects.append((True, 1 << origin, (1 << near) | (1 << far)))
                elif kind == 1 and 0 <= near < cells:
                    effects.append((False, 1 << origin, 1 << near))
                else:
                    effects.append((False, 0, 0))
    return Board(
        effects=tuple(effects),
        goals=(_row_mask(rows - 1), _row_mask(0)),
        tower_moves=tuple(tower_moves),
        sacrifices=tuple(sacrifices),
        rows=rows,
        home_rows=home_rows,
        cells=cells,
        mask=mask,
        bottom=_row_mask(0),
        top=_row_mask(rows - 1),
        stones=16 * home_rows,
    )
