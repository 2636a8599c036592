"""Cyvasse observations read from the board codes and deployment state, hidden zones hidden."""

from __future__ import annotations

import numpy as np

from boardlab.core.state import State
from boardlab.games.cyvasse.board import HEX_NAMES, NUM_HEXES, ZONES
from boardlab.games.cyvasse.game import Cyvasse
from boardlab.games.cyvasse.picture import UNIT_KINDS
from boardlab.games.cyvasse.state import CyvasseState
from boardlab.games.cyvasse.units import ITEM_LETTERS, MOUNTAIN, SIDE_BASE
from boardlab.rl.fast.base import FastEncoder
from boardlab.rl.observation import Planes

_UNITS = len(UNIT_KINDS)
_CELL_CODES = SIDE_BASE[1] + _UNITS
"""Board cell codes: empty, Mountain, South's units, North's units."""
_ITEM_KEYS = (*UNIT_KINDS, "mountain")
"""The vocabulary key of each item index (``ITEM_LETTERS`` order)."""


def _stack(code: int) -> list[tuple[int | None, str, int]]:
    """The stack a board cell code shows: nothing, a neutral Mountain or one unit."""
    if code < MOUNTAIN:
        return []
    if code == MOUNTAIN:
        return [(None, "mountain", 1)]
    side, kind = divmod(code - SIDE_BASE[0], _UNITS)
    return [(side, UNIT_KINDS[kind], 1)]


class CyvasseEncoder(FastEncoder):
    """The planes of a Cyvasse state as the observing seat's view shows it."""

    def __init__(self, game: Cyvasse) -> None:
        super().__init__(game)
        self._hexes = np.array([self.grid_place(HEX_NAMES[h]) for h in range(NUM_HEXES)])
        self._tables = [
            np.ascontiguousarray(table.T)
            for table in self.stack_table([_stack(code) for code in range(_CELL_CODES)])
        ]
        self._stack_channels = slice(1, self._height + 1)
        self._zones = [np.array(zone) for zone in ZONES]
        self._zone_places = [self._hexes[zone] for zone in self._zones]
        self._counts: dict[tuple[int, ...], Planes] = {}
        seats = range(2)
        self._zone_kinds = [
            [
                {
                    kind: self.channel(f"cell {kind} seat+{self.relative(zone, seat)}")
                    for kind in ("zone", "hidden")
                }
                for zone in seats
            ]
            for seat in seats
        ]
        self._pool_first = [
            [self.channel(f"pool pool seat+{self.relative(side, seat)} king") for side in seats]
            for seat in seats
        ]
        self._left: dict[tuple[int, ...], Planes] = {}

    def stack_tables(self) -> list[Planes]:
        """Per seat, the ``(stack channels, 22)`` table: what each board cell code writes in
        the stack channels (pieces, tops, height; those after the ``cell`` plane)."""
        return list(self._tables)

    def _unit_counts(self, counts: tuple[int, ...]) -> Planes:
        """The army's count of each unit kind, as an array made once per army."""
        found = self._counts.get(counts)
        if found is None:
            found = self._counts[counts] = np.asarray(counts[:_UNITS], dtype=np.float32)
        return found

    def items_left(self, order: tuple[int, ...]) -> Planes:
        """Per number of items placed, the count of each item still to deploy."""
        left = self._left.get(order)
        if left is None:
            left = np.zeros((len(order) + 1, len(ITEM_LETTERS)), dtype=np.float32)
            for placed in range(len(order)):
                for item in order[placed:]:
                    left[placed, item] += 1.0
            self._left[order] = left
        return left

    def encode(self, state: State, seat: int) -> Planes:
        """The planes of ``state`` for ``seat`` (equal to :meth:`reference`)."""
        assert isinstance(state, CyvasseState)
        deploying = state.deploying
        phase = "over" if state.is_terminal() else "deployment" if deploying else "play"
        out, flat = self.start(state, seat, phase)
        codes = np.frombuffer(state.board, np.uint8)
        hidden = state.view_hidden_zones(seat) if deploying else ()
        if hidden:
            codes = codes.copy()  # the view's board: the state's own must not change
            for zone in hidden:
                codes[self._zones[zone]] = 0
        flat[self._stack_channels, self._hexes] = self._tables[seat][:, codes]
        pools = self._pool_first[seat]
        if deploying:
            kinds = self._zone_kinds[seat]
            for zone, places in enumerate(self._zone_places):
                kind = "hidden" if zone in hidden else "zone"
                flat[kinds[zone][kind], places] = 1.0
            left = self.items_left(state.game.order)
            side_to_move = state.side
            for side in range(2):
                first = pools[side]
                if side in hidden:
                    out[first + len(_ITEM_KEYS)] = 1.0  # one unknown "item"
                    continue
                done = len(state.game.order)
                placed = (
                    state.placed if side == side_to_move else 0 if side > side_to_move else done
                )
                out[first : first + len(_ITEM_KEYS)] = left[placed][:, None, None]
            return out
        standing = np.bincount(codes, minlength=_CELL_CODES)
        counts = self._unit_counts(state.game.counts)
        for side in range(2):
            lost = counts - standing[SIDE_BASE[side] : SIDE_BASE[side] + _UNITS]
            first = pools[side]
            out[first : first + _UNITS] = lost[:, None, None]
        return out
