"""What every fast encoder shares: per-seat constant planes, channel lookup and the flags.

A fast encoder gives the planes of :class:`~boardlab.rl.observation.ObservationEncoder` (the
reference, built from the render model) by reading one game's state directly. Everything that
does not depend on the position (the ``cell`` plane of a fixed board, the ``seat k`` one-hot,
special cells that never change) is written once per seat into a template; the phase and
turn flags too, per combination, so that a call copies one array and writes the position.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boardlab.core.game import Game
from boardlab.core.state import State
from boardlab.rl.observation import ObservationEncoder, Planes

Stack = Sequence[tuple[int | None, str, int]]
"""A stack bottom to top as ``(owner, vocabulary key, count)`` entries."""


class FastEncoder(ObservationEncoder):
    """An encoder that reads the state itself; :meth:`reference` stays the render-model one."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        names = self.channel_names()
        self._channels = {name: index for index, name in enumerate(names)}
        self.cells = self.rows * self.columns
        """Places of one plane (rows times columns)."""
        self._templates: list[Planes] = []
        for seat in range(self.players):
            template = np.zeros(self.shape, dtype=np.float32)
            template[0] = self._board.reshape(self.rows, self.columns)
            template[self.channel(f"seat {seat}")] = 1.0
            self._templates.append(template)
        self._phases = {phase: self.channel(f"phase {phase}") for phase in self.vocabulary.phases}
        self._to_move = self.channel("to move")
        self._turn = self.channel("turn start")
        self._ply = self.channel("ply fraction")
        self._cap = game.max_plies
        self._flagged: dict[tuple[int, str, bool, bool], Planes] = {}
        """The templates with the phase and turn flags set, made when first needed."""

    def channel(self, name: str) -> int:
        """The index of the channel called ``name`` (see :meth:`channel_names`)."""
        return self._channels[name]

    def relative(self, owner: int, seat: int) -> int:
        """Seat ``owner`` counted from ``seat`` (0 is ``seat`` itself)."""
        return (owner - seat) % self.players

    def stack_table(self, stacks: Sequence[Stack]) -> list[Planes]:
        """Per seat, the ``(len(stacks), K)`` values of the stack channels (pieces, tops,
        height: channels 1 to K) of each stack, as the reference writes them."""
        tables = []
        for seat in range(self.players):
            table = np.zeros((len(stacks), self._height), dtype=np.float32)
            for row, stack in zip(table, stacks, strict=True):
                for owner, key, count in stack:
                    plane = self._piece[key]
                    if owner is not None:
                        plane += self.relative(owner, seat)
                    row[plane - 1] += count
                if stack:
                    row[self._height - 1] = sum(count for _, _, count in stack)
                    top = stack[-1][0]
                    if top is not None:
                        row[self._top + self.relative(top, seat) - 1] = 1.0
            tables.append(table)
        return tables

    def template(self, seat: int) -> Planes:
        """The constant planes of ``seat``'s observations, to complete in ``__init__``."""
        return self._templates[seat]

    def start(self, state: State, seat: int, phase: str) -> tuple[Planes, Planes]:
        """A fresh array holding the constant planes, the phase and the turn flags of
        ``state`` for ``seat``; and the same array shaped ``(channels, cells)``."""
        mover = not state.is_terminal() and state.current_player == seat
        key = (seat, phase, mover, state.turn_start)
        flagged = self._flagged.get(key)
        if flagged is None:
            flagged = self._flagged[key] = self._templates[seat].copy()
            flagged[self._phases[phase]] = 1.0
            flagged[self._to_move] = float(mover)
            flagged[self._turn] = float(state.turn_start)
        out = flagged.copy()
        if self._cap:
            out[self._ply] = min(state.ply / self._cap, 1.0)
        return out, out.reshape(self.shape[0], self.cells)
