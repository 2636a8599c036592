"""Murus Gallicus positions: bitboard move generation, moves, end conditions (spec §5-§9).

Action ids: ``(kind * 8 + direction) * board.cells + origin`` where kind 0 is a tower move and
kind 1 a sacrifice, direction indexes :data:`board.SHIFTS` and origin is the tower's bit index.
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable
from functools import cache
from typing import TYPE_CHECKING

from boardlab.core.outcome import Outcome, Termination
from boardlab.core.render_model import ClickPath, Occupancy, RenderModel
from boardlab.core.state import State
from boardlab.games.murus_gallicus import picture
from boardlab.games.murus_gallicus.board import COLUMNS, DIRECTIONS, SHIFTS, STRIDE, Board

if TYPE_CHECKING:
    from boardlab.games.murus_gallicus.game import MurusGallicus

ROMANS, GAULS = 0, 1
SIDE_LETTERS = "RG"


CELL_NAMES = tuple(
    f"{COLUMNS[index % STRIDE]}{index // STRIDE + 1}" if index % STRIDE < len(COLUMNS) else ""
    for index in range(STRIDE * len(COLUMNS))
)
"""The cell name of every bit index of the largest board ("" for the padding bits)."""


@cache
def _cell_names(rows: int) -> frozenset[str]:
    """Every cell of a board of ``rows`` rows."""
    return frozenset(name for name in CELL_NAMES[: rows * STRIDE] if name)


class MurusGallicusState(State):
    """A position: four bitboards (Roman towers, Roman walls, Gaul towers, Gaul walls)."""

    NOTATION = re.compile(r"[a-h][1-8][-x][a-h][1-8]")
    NOTATION_HELP = (
        "write a tower move as origin-far cell (e.g. c1-c3) and a sacrifice as "
        "tower, x, adjacent enemy wall (e.g. d3xe4)"
    )
    NEGATED_HEURISTIC = True  # the score is antisymmetric and tanh odd

    def __init__(self, game: MurusGallicus, bits: list[int], side: int, ply: int) -> None:
        self.game = game
        self.board: Board = game.board
        self.bits = bits  # [Roman towers, Roman walls, Gaul towers, Gaul walls]
        self.side = side
        self.ply = ply
        self._outcome: Outcome | None = None
        self._legal: list[int] = []
        self._judge(1 - side)
        self._start()

    @property
    def current_player(self) -> int:
        """0 for the Romans, 1 for the Gauls."""
        return self.side

    def _copy_mutables(self, other: MurusGallicusState) -> None:
        other.bits = self.bits.copy()

    def _repetition_key(self) -> Hashable:
        return (*self.bits, self.side)

    def search_key(self) -> Hashable:
        """The fields of the position text: the four boards, the side to move and the ply."""
        return (*self.bits, self.side, self.ply)

    def _generate(self) -> list[int]:
        """Every legal action id of the side to move (§6), from per-cell tables."""
        board = self.board
        bits = self.bits
        own = 2 * self.side
        towers = bits[own]
        enemy_walls = bits[3 - own]
        free = board.mask & ~(towers | bits[2 - own] | enemy_walls)  # empty or own wall
        tower_moves, sacrifices = board.tower_moves, board.sacrifices
        actions: list[int] = []
        add = actions.append
        while towers:
            low = towers & -towers
            origin = low.bit_length() - 1
            towers ^= low
            for cells, action in tower_moves[origin]:
                if free & cells == cells:  # near and far cell both free
                    add(action)
            if enemy_walls:
                for cell, action in sacrifices[origin]:
                    if enemy_walls & cell:
                        add(action)
        return actions

    def _legal_actions(self) -> list[int]:
        return self._legal.copy()

    def _apply(self, action: int) -> None:
        is_move, origin, target = self.board.effects[action]
        bits = self.bits
        mover = self.side
        own = 2 * mover
        if is_move:  # tower move (§7): the near and far cells each gain a stone
            walls = bits[own + 1]
            bits[own] = (bits[own] ^ origin) | (walls & target)  # own walls become towers
            bits[own + 1] = walls ^ target  # empty cells become walls
        else:  # sacrifice (§7): the enemy wall goes, the tower becomes a wall
            bits[3 - own] ^= target
            bits[own] ^= origin
            bits[own + 1] |= origin
        self.side = 1 - mover
        self.ply += 1
        self._judge(mover)

    def _judge(self, mover: int) -> None:
        """Breakthrough, then stalemate, after a ply by ``mover`` (§8)."""
        if (self.bits[2 * mover] | self.bits[2 * mover + 1]) & self.board.goals[mover]:
            self._outcome = Outcome.win_for(mover, 2, Termination.HOME_ROW)
            self._legal = []
            return
        self._legal = self._generate()
        if not self._legal:
            self._outcome = Outcome.win_for(mover, 2, Termination.STALEMATE)

    def action_to_str(self, action: int) -> str:
        """``c1-c3`` for a tower move (origin and far cell), ``d3xe4`` for a sacrifice."""
        kind_direction, origin = divmod(action, self.board.cells)
        step = SHIFTS[kind_direction % DIRECTIONS]
        name = self.board.name
        if kind_direction < DIRECTIONS:
            return f"{name(origin)}-{name(origin + 2 * step)}"
        return f"{name(origin)}x{name(origin + step)}"

    def _explain_illegal(self, text: str) -> str | None:
        board = self.board
        origin, target = board.index(text[:2]), board.index(text[3:])
        if origin is None or target is None:
            return f"the board has rows 1 to {board.rows}"
        if not self.bits[2 * self.side] >> origin & 1:
            return f"there is no {self.game.player_names[self.side]} tower on {text[:2]}"
        columns = abs(target % STRIDE - origin % STRIDE)
        rows = abs(target // STRIDE - origin // STRIDE)
        if text[2] == "x":
            if max(columns, rows) != 1:
                return "a sacrifice targets an adjacent enemy wall"
            return f"there is no enemy wall on {text[3:]} to sacrifice against"
        if {columns, rows} - {0, 2} or columns == rows == 0:
            return "a tower moves exactly two cells in a straight line (name the far cell)"
        return "the move is blocked: both cells must be empty or hold your own wall"

    def position_text(self) -> str:
        """Board rows top to bottom, side to move, ply counter (§11)."""
        board = self.board
        rows = []
        for row in range(board.rows - 1, -1, -1):
            out, empty = [], 0
            for column in range(8):
                bit = 1 << (row * STRIDE + column)
                letter = next((c for c, b in zip("RrGg", self.bits, strict=True) if b & bit), "")
                if letter:
                    if empty:
                        out.append(str(empty))
                        empty = 0
                    out.append(letter)
                else:
                    empty += 1
            if empty:
                out.append(str(empty))
            rows.append("".join(out))
        return f"{'/'.join(rows)} {SIDE_LETTERS[self.side]} {self.ply}"

    def render(self) -> str:
        """The board with coordinates, then the side to move and the ply."""
        from boardlab.games.murus_gallicus.render import render

        return render(self)

    def _render_model(self) -> RenderModel:
        return picture.render_model(self)

    def click_path(self, action: int) -> ClickPath:
        """Origin then far cell of a tower move; tower then enemy wall of a sacrifice."""
        return picture.click_path(self, action)

    def heuristic(self, player: int) -> float:
        """Material (tower 2, wall 1) plus the advance of towers towards the enemy home row."""
        rows = self.board.rows
        score = 0.0
        for side, sign in ((player, 1.0), (1 - player, -1.0)):
            towers, walls = self.bits[2 * side], self.bits[2 * side + 1]
            score += sign * (2 * towers.bit_count() + walls.bit_count())
            while towers:
                low = towers & -towers
                row = (low.bit_length() - 1) // STRIDE
                advance = row if side == ROMANS else rows - 1 - row
                score += sign * 0.15 * advance * advance
                towers ^= low
        return math.tanh(score / 12.0)

    def occupancy(self) -> Occupancy:
        """Stones per side (a tower is two) and the cells holding them, from the bitboards."""
        bits = self.bits
        taken = bits[0] | bits[1] | bits[2] | bits[3]
        occupied = []
        while taken:
            low = taken & -taken
            occupied.append(CELL_NAMES[low.bit_length() - 1])
            taken ^= low
        pieces = (
            2 * bits[0].bit_count() + bits[1].bit_count(),
            2 * bits[2].bit_count() + bits[3].bit_count(),
        )
        return Occupancy(pieces, frozenset(occupied), _cell_names(self.board.rows))
