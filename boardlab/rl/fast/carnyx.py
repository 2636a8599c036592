"""Carnyx observations read from the stacks (colour letters) and pools of the state."""

from __future__ import annotations

import numpy as np

from boardlab.core.state import State
from boardlab.games.carnyx.board import CENTRE, COLOURS, HOME, NAMES, SIZE
from boardlab.games.carnyx.game import Carnyx
from boardlab.games.carnyx.state import CarnyxState
from boardlab.rl.fast.base import FastEncoder
from boardlab.rl.observation import Planes

_ROLES = ("unplaced", "supply", "reserve")
"""The pools of a seat, in the order of ``state.pools`` (three per seat)."""


class CarnyxEncoder(FastEncoder):
    """The planes of a Carnyx state: each stack string is coded once, then looked up."""

    def __init__(self, game: Carnyx) -> None:
        super().__init__(game)
        self._codes: dict[str, int] = {}
        self._tables = [np.zeros((self._height, 0), dtype=np.float32) for _ in range(2)]
        """Per seat, the stack channels (rows) of each stack code (columns)."""
        self._code("")
        self._stack_channels = slice(1, self._height + 1)
        self._pools = [
            [
                [
                    self.channel(f"pool {role} seat+{self.relative(owner, seat)} disc")
                    for role in _ROLES
                ]
                for owner in range(2)
            ]
            for seat in range(2)
        ]
        for seat in range(2):
            flat = self.template(seat).reshape(self.shape[0], self.cells)
            flat[self.channel("cell centre"), self.grid_place(NAMES[CENTRE])] = 1.0
            for owner in range(2):
                home = self.channel(f"cell home seat+{self.relative(owner, seat)}")
                flat[home, [self.grid_place(NAMES[square]) for square in HOME[owner]]] = 1.0

    def _code(self, stack: str) -> int:
        """The code of a stack string, coding it (a new column of the tables) when new."""
        code = self._codes.get(stack)
        if code is None:
            code = self._codes[stack] = len(self._codes)
            entries = [(COLOURS.index(letter), "disc", 1) for letter in stack]
            columns = self.stack_table([entries])
            self._tables = [
                np.hstack([table, column.T])
                for table, column in zip(self._tables, columns, strict=True)
            ]
        return code

    def encode(self, state: State, seat: int) -> Planes:
        """The planes of ``state`` for ``seat`` (equal to :meth:`reference`)."""
        assert isinstance(state, CarnyxState)
        setup = state.in_setup
        phase = "over" if state.is_terminal() else "setup" if setup else "play"
        out, _ = self.start(state, seat, phase)
        codes = self._codes
        known = [codes.get(stack, -1) for stack in state.board]
        if -1 in known:
            known = [self._code(stack) for stack in state.board]
        # Squares run a1..e5 (rank 1 first); the grid's first row is rank 5.
        planes = self._tables[seat][:, known].reshape(-1, SIZE, SIZE)
        out[self._stack_channels] = planes[:, ::-1]
        pools = state.pools
        shown = (0, 1) if setup else (1, 2)  # the unplaced pieces in setup, then the reserve
        for owner, channels in enumerate(self._pools[seat]):
            for role in shown:
                count = pools[3 * owner + role]
                if count:
                    out[channels[role]] = count
        return out
