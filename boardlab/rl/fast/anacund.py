"""Anacund observations read from the square codes, layout and groups of the state."""

from __future__ import annotations

import numpy as np

from boardlab.core.state import State
from boardlab.games.anacund.board import SQUARES, Layout
from boardlab.games.anacund.game import Anacund
from boardlab.games.anacund.rules import BLOCKED, PIECE
from boardlab.games.anacund.state import AnacundState
from boardlab.rl.fast.base import FastEncoder
from boardlab.rl.observation import Planes

_CODES = 5
"""Square codes: free, a piece of seat 0 or 1, blocked with seat 0's or 1's captured piece."""


class AnacundEncoder(FastEncoder):
    """The planes of an Anacund state: one table lookup per square code, bonus or not."""

    def __init__(self, game: Anacund) -> None:
        super().__init__(game)
        self._square_places = np.array(
            [self.grid_place(str(index + 1)) for index in range(SQUARES)]
        )
        stacks = [
            [(PIECE.index(code), "piece", 1)] if code in PIECE else [] for code in range(_CODES)
        ]
        bonus, blocked = self.channel("cell bonus"), self.channel("cell blocked")
        self._square_channels = slice(1, blocked + 1)
        # Code + _CODES marks the bonus square: the cell kinds follow the stack channels, so
        # one table row gives every per-square channel but the printed value.
        self._tables = []
        for table in self.stack_table(stacks + stacks):
            kinds = np.zeros((2 * _CODES, blocked - self._height), dtype=np.float32)
            for code in BLOCKED:
                kinds[[code, code + _CODES], blocked - self._height - 1] = 1.0
            kinds[
                [_CODES + code for code in range(_CODES) if code not in BLOCKED],
                bonus - self._height - 1,
            ] = 1.0
            self._tables.append(np.ascontiguousarray(np.hstack([table, kinds]).T))
        self._layout: Layout | None = None
        self._values = np.zeros(self.cells, dtype=np.float32)
        # Groups, captured pieces and scores are broadcast channels in one run: they are
        # gathered in a list and written at once.
        self._first = self.channel("pool groups seat+0 piece")
        self._block = self.channel(f"score seat+{self.players - 1}") + 1 - self._first
        seats = range(self.players)
        self._groups = [
            [
                {
                    size: self.channel(
                        f"pool groups seat+{self.relative(owner, seat)} group#{size}"
                    )
                    - self._first
                    for size in range(1, 7)
                }
                for owner in seats
            ]
            for seat in seats
        ]
        self._captured = [
            [
                self.channel(f"pool captured seat+{self.relative(owner, seat)} piece") - self._first
                for owner in seats
            ]
            for seat in seats
        ]
        self._score_channels = [
            [
                self.channel(f"score seat+{self.relative(owner, seat)}") - self._first
                for owner in seats
            ]
            for seat in seats
        ]

    def square_tables(self) -> list[Planes]:
        """Per seat, the ``(channels, 10)`` table of the per-square channels (those after the
        ``cell`` plane, up to ``cell blocked``) of each square code, plus 5 on the bonus square."""
        return list(self._tables)

    def _value_plane(self, layout: Layout) -> Planes:
        """The ``cell value`` plane of a layout, kept for the layout of the last call (an
        environment draws a new layout at each reset)."""
        if layout is not self._layout:
            self._values = np.zeros(self.cells, dtype=np.float32)
            self._values[self._square_places] = layout.value_of
            self._layout = layout
        return self._values

    def encode(self, state: State, seat: int) -> Planes:
        """The planes of ``state`` for ``seat`` (equal to :meth:`reference`)."""
        assert isinstance(state, AnacundState)
        out, flat = self.start(state, seat, "over" if state.is_terminal() else "play")
        layout = state.layout
        squares = state.squares
        codes = np.frombuffer(squares, np.uint8).astype(np.intp)
        codes[layout.bonus - 1] += _CODES
        flat[self._square_channels, self._square_places] = self._tables[seat][:, codes]
        flat[self._value] = self._value_plane(layout)
        block = [0] * self._block
        for owner, code in enumerate(BLOCKED):
            block[self._captured[seat][owner]] = squares.count(code)
        for owner, sizes in enumerate(state.groups):
            channels = self._groups[seat][owner]
            for size in sizes:
                if size:
                    block[channels[size]] += 1
        for channel, score in zip(self._score_channels[seat], state.scores(), strict=True):
            block[channel] = score
        first = self._first
        out[first : first + self._block] = np.array(block, dtype=np.float32)[:, None, None]
        return out
