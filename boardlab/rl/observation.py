"""Observation planes of any game, built from the render model of one seat's view.

The encoder never looks inside a game: it reads ``state.render_model(view=seat)``, so whatever
the view hides (the other seat's Cyvasse deployment) is absent by construction. Cells go to a
fixed grid (rows and columns of the board's geometry, found once per game), or, for an
unbounded board, to a square window anchored at the picture's south-west cell, the same window
the game's action ids use. Owners are seat-relative: plane 0 of a kind is the observing seat's
own pieces, plane 1 the next seat's, and so on. Numbers that belong to no cell (pools, scores,
phase, whose turn) are broadcast as constant planes. The layout of the channels is given by
:meth:`ObservationEncoder.channel_names`.

This encoding is the reference: the per-game encoders of :mod:`boardlab.rl.fast` read the
state directly and are tested to give the same planes, bit for bit.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from boardlab.core.game import Game
from boardlab.core.render_model import Cell, Piece, RenderModel
from boardlab.core.state import State
from boardlab.rl.vocabulary import VOCABULARIES, Vocabulary

Planes = npt.NDArray[np.float32]


def piece_key(piece: Piece, vocabulary: Vocabulary) -> str:
    """The vocabulary key of a piece: ``kind``, ``kind/face`` or ``kind#label``."""
    if piece.kind in vocabulary.labelled:
        return f"{piece.kind}#{piece.label}"
    return f"{piece.kind}/{piece.face}" if piece.face else piece.kind


class ObservationEncoder:
    """Turns a state into a float32 array of shape ``(channels, rows, columns)`` for a seat."""

    def __init__(self, game: Game) -> None:
        if game.id not in VOCABULARIES:
            raise ValueError(f"no observation vocabulary for game {game.id!r}")
        self.game = game
        vocab = self.vocabulary = VOCABULARIES[game.id]
        players = self.players = game.num_players
        names: list[str] = ["cell"]
        self._piece: dict[str, int] = {}
        for key in vocab.pieces:
            self._piece[key] = len(names)
            if key in vocab.neutral:
                names.append(f"piece {key}")
            else:
                names += [f"piece {key} seat+{rel}" for rel in range(players)]
        self._top = len(names)
        names += [f"top seat+{rel}" for rel in range(players)]
        self._height = len(names)
        names.append("height")
        self._cell_kind: dict[str, int] = {}
        for kind in vocab.cell_kinds:
            self._cell_kind[kind] = len(names)
            if kind in vocab.seat_cell_kinds:
                names += [f"cell {kind} seat+{rel}" for rel in range(players)]
            else:
                names.append(f"cell {kind}")
        self._value = len(names)
        if vocab.cell_values:
            names.append("cell value")
        self._scalars = len(names)
        self._pool: dict[str, int] = {}
        for role in vocab.pool_roles:
            self._pool[role] = len(names)
            names += [
                f"pool {role} seat+{rel} {key}" for rel in range(players) for key in vocab.pool_keys
            ]
        self._scores = len(names)
        if vocab.scores:
            names += [f"score seat+{rel}" for rel in range(players)]
        self._phase = {phase: len(names) + index for index, phase in enumerate(vocab.phases)}
        names += [f"phase {phase}" for phase in vocab.phases]
        self._flags = len(names)
        names += ["to move", "turn start", "ply fraction"]
        names += [f"seat {seat}" for seat in range(players)]
        self._names = tuple(names)
        window = vocab.window.get(players)
        self._window = window
        if window is None:
            self._index, self.rows, self.columns = _grid(game.new_initial_state().render_model())
        else:
            self._index, self.rows, self.columns = {}, window, window
        self.shape = (len(names), self.rows, self.columns)
        self._board = np.zeros(self.rows * self.columns, dtype=np.float32)
        """The ``cell`` plane of a fixed board, written once."""
        self._board[list(self._index.values())] = 1.0

    def channel_names(self) -> tuple[str, ...]:
        """One name per channel, in order (``piece stone seat+1``, ``phase play``…)."""
        return self._names

    def encode(self, state: State, seat: int) -> Planes:
        """The observation of ``state`` for ``seat`` (fast encoders override this)."""
        return self.reference(state, seat)

    def reference(self, state: State, seat: int) -> Planes:
        """The observation of ``state`` for ``seat``, from the render model of its view."""
        model = state.render_model(view=seat)
        out = np.zeros(self.shape, dtype=np.float32)
        flat = out.reshape(self.shape[0], self.rows * self.columns)
        scalars = [0.0] * (len(self._names) - self._scalars)
        places = self._places(model)
        flat[0] = self._board
        values = self.vocabulary.cell_values
        for cell in model.cells:
            place = places.get(cell.id)
            if place is None:
                self._off_board(cell, seat, scalars)
            elif cell.stack or cell.kind != "normal" or (values and cell.label):
                self._cell(cell, place, seat, flat)
            else:
                flat[0, place] = 1.0  # an empty cell of a window (fixed boards have it already)
        for pool in model.pools:
            role = self._role(pool.id)
            owner = pool.owner if pool.owner is not None else seat
            for piece in pool.pieces:
                self._count_pooled(role, owner, piece, seat, scalars)
        base = self._scalars
        if self.vocabulary.scores and model.scores is not None:
            for owner, score in enumerate(model.scores):
                scalars[self._scores - base + self._relative(owner, seat)] = float(score)
        scalars[self._phase[model.phase] - base] = 1.0
        flags = self._flags - base
        over = state.is_terminal()
        scalars[flags] = float(not over and state.current_player == seat)
        scalars[flags + 1] = float(state.turn_start)
        cap = self.game.max_plies
        scalars[flags + 2] = min(state.ply / cap, 1.0) if cap else 0.0
        scalars[flags + 3 + seat] = 1.0
        out[base:] = np.asarray(scalars, dtype=np.float32)[:, None, None]
        return out

    def grid_place(self, cell_id: str) -> int:
        """Flat grid index (``row * columns + column``) of a cell of a fixed board."""
        return self._index[cell_id]

    def _places(self, model: RenderModel) -> dict[str, int]:
        """Flat grid index of every cell id of this picture."""
        if self._window is None:
            return self._index
        west = min(cell.x for cell in model.cells)
        north = max(cell.y for cell in model.cells)
        size = self._window
        places = {}
        for cell in model.cells:
            east = round((cell.x - west) / cell.size)
            up = round((north - cell.y) / cell.size)
            if east < size and up < size:
                places[cell.id] = east * size + up
        return places

    def _cell(self, cell: Cell, place: int, seat: int, flat: Planes) -> None:
        """Write one board cell's planes."""
        flat[0, place] = 1.0
        height = 0
        for piece in cell.stack:
            flat[self._piece_plane(piece, seat), place] += piece.count
            height += piece.count
        if cell.stack:
            flat[self._height, place] = height
            top = cell.stack[-1].owner
            if top is not None:
                flat[self._top + self._relative(top, seat), place] = 1.0
        if cell.kind != "normal":
            plane = self._cell_kind.get(cell.kind)
            if plane is None:
                raise ValueError(
                    f"{self.game.id}: cell kind {cell.kind!r} is not in its vocabulary"
                )
            if cell.kind in self.vocabulary.seat_cell_kinds and cell.owner is not None:
                plane += self._relative(cell.owner, seat)
            flat[plane, place] = 1.0
        if self.vocabulary.cell_values and cell.label:
            flat[self._value, place] = float(cell.label)

    def _off_board(self, cell: Cell, seat: int, scalars: list[float]) -> None:
        """Pieces on a cell outside the fixed board count as a pool named by the cell's kind."""
        for piece in cell.stack:
            owner = piece.owner if piece.owner is not None else seat
            self._count_pooled(self._role(cell.kind), owner, piece, seat, scalars)

    def _count_pooled(
        self, role: int, owner: int, piece: Piece, seat: int, scalars: list[float]
    ) -> None:
        """Add a pooled piece to its ``(role, relative owner, key)`` feature."""
        keys = self.vocabulary.pool_keys
        key = piece_key(piece, self.vocabulary)
        if key not in keys:
            raise ValueError(f"{self.game.id}: pooled piece {key!r} is not in its vocabulary")
        index = role + self._relative(owner, seat) * len(keys) + keys.index(key)
        scalars[index - self._scalars] += piece.count

    def _role(self, name: str) -> int:
        """First channel of the pool role whose word appears in ``name``."""
        for role, channel in self._pool.items():
            if role in name.split("-"):
                return channel
        raise ValueError(f"{self.game.id}: pool {name!r} has no role in its vocabulary")

    def _key(self, piece: Piece) -> str:
        key = piece_key(piece, self.vocabulary)
        if key not in self._piece:
            raise ValueError(f"{self.game.id}: piece {key!r} is not in its vocabulary")
        return key

    def _piece_plane(self, piece: Piece, seat: int) -> int:
        plane = self._piece[self._key(piece)]
        if piece.owner is None:
            return plane
        return plane + self._relative(piece.owner, seat)

    def _relative(self, owner: int, seat: int) -> int:
        """Seat ``owner`` counted from ``seat`` onwards in seat order (0 is ``seat`` itself)."""
        return (owner - seat) % self.players


def _grid(model: RenderModel) -> tuple[dict[str, int], int, int]:
    """Flat index of each cell on the rows and columns of the board's geometry."""
    ys = sorted({round(cell.y, 3) for cell in model.cells})
    xs = sorted({round(cell.x, 3) for cell in model.cells})
    row = {y: index for index, y in enumerate(ys)}
    column = {x: index for index, x in enumerate(xs)}
    index = {
        cell.id: row[round(cell.y, 3)] * len(xs) + column[round(cell.x, 3)] for cell in model.cells
    }
    return index, len(ys), len(xs)
