"""Geometry of Colosseum Offcuts: counter codes and the bounded window that indexes cells.

The play area is an unbounded square grid, but a connected footprint of at most ``4n``
counters never spans more than ``4n`` cells in a row. Every cell an action starts from or goes
to is occupied or touches an occupied cell, so it lies in a ``W x W`` window (``W = 4n + 2``)
whose south-west corner is one cell west and south of the footprint's bounding box. Cells are
indexed ``rx * W + ry`` inside that window; these indices drive move generation and action ids.
"""

from __future__ import annotations

# A counter is one int: seat << 2 | kind << 1 | mode.
FORT = 2
"""Kind bit: set for a Fortification, clear for a Board Piece."""
ATTACK = 1
"""Mode bit: set for Attack mode (dark side up), clear for Mobile mode."""
COUNTER_LETTERS = "bBfF"
"""Position-text letter of a counter by its kind and mode bits."""

DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (-1, 0), (0, -1))
"""The four orthogonal steps, east, north, west, south: the order of attack action ids."""

Cell = tuple[int, int]
Stacks = dict[Cell, tuple[int, ...]]


def seat_of(counter: int) -> int:
    """Seat (0-based) owning a counter."""
    return counter >> 2


def counter_text(counter: int) -> str:
    """A counter as in the position text, e.g. ``2F`` for P2's Fortification in Attack mode."""
    return f"{(counter >> 2) + 1}{COUNTER_LETTERS[counter & 3]}"


class Window:
    """Neighbour tables and flood fills on the ``W x W`` window of one player count."""

    __slots__ = ("_templates", "cells", "neighbours", "size", "steps")

    def __init__(self, players: int) -> None:
        size = 4 * players + 2
        self.size = size
        self.cells = size * size
        neighbours: list[tuple[int, ...]] = []
        steps: list[tuple[int, ...]] = []
        for rx in range(size):
            for ry in range(size):
                row = []
                for dx, dy in DIRECTIONS:
                    nx, ny = rx + dx, ry + dy
                    row.append(nx * size + ny if 0 <= nx < size and 0 <= ny < size else -1)
                steps.append(tuple(row))
                neighbours.append(tuple(j for j in row if j >= 0))
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(neighbours)
        """Neighbour indices of each window cell that lie in the window."""
        self.steps: tuple[tuple[int, ...], ...] = tuple(steps)
        """Neighbour index per direction of :data:`DIRECTIONS`, -1 outside the window."""
        self._templates: dict[tuple[int, int], tuple[bytes, tuple[int, ...]]] = {}

    def _template(self, width: int, height: int) -> tuple[bytes, tuple[int, ...]]:
        """Cells outside ``[1, width-2] x [1, height-2]`` marked exterior, and the ring cells."""
        key = (width, height)
        found = self._templates.get(key)
        if found is None:
            size = self.size
            marks = bytearray(self.cells)
            ring = []
            for rx in range(size):
                for ry in range(size):
                    if not (0 < rx < width - 1 and 0 < ry < height - 1):
                        marks[rx * size + ry] = 1
                        if rx < width and ry < height:
                            ring.append(rx * size + ry)
            found = (bytes(marks), tuple(ring))
            self._templates[key] = found
        return found

    def exterior(self, occupied: bytearray, width: int, height: int) -> bytearray:
        """Flags of the exterior cells of the occupied set (§2).

        ``width`` x ``height`` is the footprint's bounding box grown by one cell on every side,
        anchored at the window's corner; every cell outside its interior is exterior, and the
        flood goes inward from its ring through empty cells.
        """
        marks, ring = self._template(width, height)
        exterior = bytearray(marks)
        neighbours = self.neighbours
        todo = list(ring)
        while todo:
            cell = todo.pop()
            for other in neighbours[cell]:
                if not exterior[other] and not occupied[other]:
                    exterior[other] = 1
                    todo.append(other)
        return exterior

    def components(self, occupied: bytearray, cells: list[int]) -> list[int]:
        """Component label (1, 2, …) of each window cell among ``cells``; 0 elsewhere."""
        labels = [0] * self.cells
        neighbours = self.neighbours
        label = 0
        for start in cells:
            if labels[start]:
                continue
            label += 1
            labels[start] = label
            todo = [start]
            while todo:
                cell = todo.pop()
                for other in neighbours[cell]:
                    if occupied[other] and not labels[other]:
                        labels[other] = label
                        todo.append(other)
        return labels

    def connected(self, occupied: bytearray, cells: list[int]) -> bool:
        """True when ``cells`` (exactly the occupied ones) form one 4-connected group or none."""
        if not cells:
            return True
        neighbours = self.neighbours
        seen = {cells[0]}
        todo = [cells[0]]
        while todo:
            cell = todo.pop()
            for other in neighbours[cell]:
                if occupied[other] and other not in seen:
                    seen.add(other)
                    todo.append(other)
        return len(seen) == len(cells)


_WINDOWS: dict[int, Window] = {}


def window_for(players: int) -> Window:
    """The shared window tables of a player count, built once."""
    window = _WINDOWS.get(players)
    if window is None:
        window = _WINDOWS[players] = Window(players)
    return window
