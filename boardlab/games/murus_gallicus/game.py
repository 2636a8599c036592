"""The Murus Gallicus game: options, initial position and position-text parsing (spec §11-12)."""

from __future__ import annotations

import re

from boardlab.core.errors import PositionError
from boardlab.core.game import Game
from boardlab.core.options import OptionSpec, max_plies_option, repetition_option
from boardlab.games.murus_gallicus.board import STRIDE, Board, board_for
from boardlab.games.murus_gallicus.state import SIDE_LETTERS, MurusGallicusState

_ROW = re.compile(r"(?:[RrGg]|[1-8](?![1-8]))+")
_PLY = re.compile(r"0|[1-9][0-9]*")


class MurusGallicus(Game):
    """Murus Gallicus by Phillip Leduc: Romans (row 1, move first) against Gauls."""

    id = "murus-gallicus"
    name = "Murus Gallicus"
    summary = (
        "Romans and Gauls face each other with towers of two stones on a small board. A tower "
        "moves by spilling its stones into a wall; walls and towers block, and a tower can "
        "sacrifice a stone to destroy an adjacent enemy wall. Break through: the first stone "
        "to reach the enemy home row wins, and a side left without a move loses."
    )
    OPTIONS = (
        OptionSpec(
            "board",
            "enum",
            "8x7",
            "Grid: 8x7; 8x8 (one home row each); 8x8_two_rows (towers on two rows each).",
            choices=("8x7", "8x8", "8x8_two_rows"),
        ),
        repetition_option(3),
        max_plies_option(400),
    )

    def _setup(self) -> None:
        self.board: Board = board_for(str(self.options["board"]))

    @property
    def player_names(self) -> tuple[str, ...]:
        """Romans, then Gauls."""
        return ("Romans", "Gauls")

    @property
    def num_actions(self) -> int:
        """Two kinds (tower move, sacrifice) x 8 directions x bit positions."""
        return 2 * 8 * self.board.cells

    def new_initial_state(self) -> MurusGallicusState:
        """Towers on the home rows (two rows each with 8x8_two_rows); Romans to move (§4)."""
        board = self.board
        romans = gauls = 0
        for row in range(board.home_rows):
            romans |= board.bottom << (row * STRIDE)
            gauls |= board.top >> (row * STRIDE)
        return MurusGallicusState(self, [romans, 0, gauls, 0], 0, 0)

    def state_from_text(self, text: str) -> MurusGallicusState:
        """Parse a position text (§11), checking canonical form and consistency."""
        board = self.board
        fields = text.split(" ")
        if len(fields) != 3:
            raise PositionError(f"position text needs 3 fields (board side ply), got {text!r}")
        rows, side, ply = fields
        if side not in SIDE_LETTERS:
            raise PositionError(f"side to move must be R or G, got {side!r}")
        if not _PLY.fullmatch(ply):
            raise PositionError(f"ply counter must be a plain decimal integer, got {ply!r}")
        ranks = rows.split("/")
        if len(ranks) != board.rows:
            raise PositionError(f"the {self.options['board']} board has {board.rows} rows")
        bits = [0, 0, 0, 0]
        for number, rank in zip(range(board.rows, 0, -1), ranks, strict=True):
            if not _ROW.fullmatch(rank):
                raise PositionError(f"row {number}: bad or non-canonical row {rank!r}")
            column = 0
            for char in rank:
                if char.isdigit():
                    column += int(char)
                    continue
                if column < 8:
                    bits["RrGg".index(char)] |= 1 << ((number - 1) * STRIDE + column)
                column += 1
            if column != 8:
                raise PositionError(f"row {number} covers {column} cells, not 8")
        for name, towers, walls in (("Romans", bits[0], bits[1]), ("Gauls", bits[2], bits[3])):
            if 2 * towers.bit_count() + walls.bit_count() > board.stones:
                raise PositionError(f"{name} have more than {board.stones} stones")
        mover = SIDE_LETTERS.index(side)
        goal = board.top if mover == 0 else board.bottom
        if (bits[2 * mover] | bits[2 * mover + 1]) & goal:
            raise PositionError(f"{self.player_names[mover]}, to move, already stand on the goal")
        return MurusGallicusState(self, bits, mover, int(ply))
