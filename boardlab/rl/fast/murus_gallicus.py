"""Murus Gallicus observations read from the four bitboards of the state."""

from __future__ import annotations

import numpy as np

from boardlab.core.state import State
from boardlab.games.murus_gallicus.board import STRIDE, WIDTH
from boardlab.games.murus_gallicus.game import MurusGallicus
from boardlab.games.murus_gallicus.state import MurusGallicusState
from boardlab.rl.fast.base import FastEncoder
from boardlab.rl.observation import Planes

_STACKS = (((0, "stone", 2),), ((0, "stone", 1),), ((1, "stone", 2),), ((1, "stone", 1),))
"""The stack on a cell set in each bitboard (Roman towers, Roman walls, Gaul towers, Gaul
walls): a tower is two stones, a wall one. The bitboards never share a cell."""


class MurusGallicusEncoder(FastEncoder):
    """The planes of a Murus Gallicus state: its bitboards unpacked, times one small matrix."""

    def __init__(self, game: MurusGallicus) -> None:
        super().__init__(game)
        board = game.board
        self._board_rows = board.rows
        self._bits = board.cells
        self._bytes = (board.cells + 7) // 8
        self._shift = 8 * self._bytes
        # Column b of the table is what one stone of bitboard b adds to each stack channel; a
        # board row of the grid is a bitboard row (north first), so the planes are a product.
        self._matrices = [np.ascontiguousarray(table.T) for table in self.stack_table(_STACKS)]
        self._stack_channels = slice(1, self._height + 1)
        for seat in range(self.players):
            for owner, row in ((0, board.rows - 1), (1, 0)):
                home = self.channel(f"cell home seat+{self.relative(owner, seat)}")
                self.template(seat)[home, row] = 1.0

    @property
    def stack_channels(self) -> int:
        """How many stack channels (pieces, tops, height) follow the ``cell`` channel."""
        return self._height

    def stack_matrices(self) -> list[Planes]:
        """Per seat, the ``(stack channels, 4)`` matrix: column ``b`` is what a cell set in
        bitboard ``b`` writes in the stack channels."""
        return list(self._matrices)

    def encode(self, state: State, seat: int) -> Planes:
        """The planes of ``state`` for ``seat`` (equal to :meth:`reference`)."""
        assert isinstance(state, MurusGallicusState)
        out, _ = self.start(state, seat, "over" if state.is_terminal() else "play")
        size, shift = self._bytes, self._shift
        roman_towers, roman_walls, gaul_towers, gaul_walls = state.bits
        # One integer holding the four bitboards byte-aligned: one conversion, not four.
        packed = (
            roman_towers | roman_walls << shift | gaul_towers << 2 * shift | gaul_walls << 3 * shift
        )
        raw = np.frombuffer(packed.to_bytes(4 * size, "little"), np.uint8)
        bits = np.unpackbits(raw.reshape(4, size), axis=1, count=self._bits, bitorder="little")
        planes = self._matrices[seat] @ bits
        rows = self._board_rows
        out[self._stack_channels] = planes.reshape(-1, rows, STRIDE)[:, ::-1, :WIDTH]
        return out
