"""Colosseum Offcuts observations read from the stacks of the state, in its action window."""

from __future__ import annotations

from boardlab.core.state import State
from boardlab.games.colosseum_offcuts.board import ATTACK, FORT
from boardlab.games.colosseum_offcuts.game import ColosseumOffcuts
from boardlab.games.colosseum_offcuts.picture import PER_KIND
from boardlab.games.colosseum_offcuts.state import ColosseumState
from boardlab.rl.fast.base import FastEncoder
from boardlab.rl.observation import Planes


def _key(counter: int) -> str:
    """The vocabulary key of a counter on the board (kind and face)."""
    kind = "fortification" if counter & FORT else "board-piece"
    return f"{kind}/{'dark' if counter & ATTACK else 'light'}"


class ColosseumEncoder(FastEncoder):
    """The planes of a Colosseum Offcuts state: the window is the state's own action frame."""

    def __init__(self, game: ColosseumOffcuts) -> None:
        super().__init__(game)
        players = self.players
        cells = self.cells
        counters = range(4 * players)
        # Flat offsets (channel * cells) of what a counter adds: its piece plane, and the
        # ``top`` plane of its owner when it is on top; per observing seat.
        self._piece_offsets = [
            [
                (self._piece_of(counter) + self.relative(counter >> 2, seat)) * cells
                for counter in counters
            ]
            for seat in range(players)
        ]
        self._top_offsets = [
            [(self._top + self.relative(counter >> 2, seat)) * cells for counter in counters]
            for seat in range(players)
        ]
        self._height_offset = self._height * cells
        self._pool_channels = [
            [
                {
                    key: self.channel(f"pool pool seat+{self.relative(owner, seat)} {key}")
                    for key in self.vocabulary.pooled
                }
                for owner in range(players)
            ]
            for seat in range(players)
        ]

    def _piece_of(self, counter: int) -> int:
        """The first channel of a counter's kind and face (seat+0's)."""
        return self.channel(f"piece {_key(counter)} seat+0")

    def encode(self, state: State, seat: int) -> Planes:
        """The planes of ``state`` for ``seat`` (equal to :meth:`reference`)."""
        assert isinstance(state, ColosseumState)
        setup = bool(state.setup)
        phase = "setup" if setup else "over" if state.is_terminal() else "play"
        out, _ = self.start(state, seat, phase)
        frame = state.frame()
        size = self.rows
        # The drawn area is the frame's footprint box grown by one cell: the window's corner.
        out[0, : min(frame.width, size), : min(frame.height, size)] = 1.0
        values = out.reshape(-1)
        pieces, tops, height = (
            self._piece_offsets[seat],
            self._top_offsets[seat],
            self._height_offset,
        )
        placed = [[0, 0] for _ in range(self.players)]
        for place, stack in frame.stacks.items():
            for counter in stack:
                values[pieces[counter] + place] += 1.0
                placed[counter >> 2][counter >> 1 & 1] += 1
            values[tops[stack[-1]] + place] = 1.0
            values[height + place] = len(stack)
        for owner, (board_pieces, forts) in enumerate(placed):
            pool = self._pool_channels[seat][owner]
            if setup:
                if board_pieces < PER_KIND:
                    out[pool["board-piece/light"]] = PER_KIND - board_pieces
                if forts < PER_KIND:
                    out[pool["fortification/light"]] = PER_KIND - forts
            elif forts < PER_KIND:
                out[pool["fortification"]] = PER_KIND - forts
        return out
