"""The picture of a Murus Gallicus position (render model) and the click path of a decision.

Row 1, the Romans' home row, is at the bottom. A stack is one entry of stones: a wall is one
stone, a tower the same entry with count 2. A tower move is clicked as its origin and far cell
(``c1-c3`` is c1 then c3), a sacrifice as the tower and the enemy wall it removes; the far cell
of a move is two cells away and a sacrificed wall adjacent, so no two decisions share a path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardlab.core.render_layout import extent, grid_labels
from boardlab.core.render_model import Cell, ClickPath, Piece, RenderModel
from boardlab.games.murus_gallicus.board import COLUMNS, STRIDE

if TYPE_CHECKING:
    from boardlab.games.murus_gallicus.state import MurusGallicusState

SEAT_COLOURS = ("#f1ebdc", "#33302c")
"""Romans play the light stones, Gauls the dark ones (spec §1)."""


def render_model(state: MurusGallicusState) -> RenderModel:
    """The board with its home rows, every wall and tower, stone counts and the side to move."""
    board = state.board
    names = state.game.player_names
    cells = []
    for row in range(board.rows - 1, -1, -1):
        home = 0 if row == 0 else 1 if row == board.rows - 1 else None
        for column in range(8):
            bit = 1 << (row * STRIDE + column)
            stack: tuple[Piece, ...] = ()
            for index, bits in enumerate(state.bits):
                if bits & bit:  # bits are Roman towers, Roman walls, Gaul towers, Gaul walls
                    stack = (Piece(index // 2, "stone", count=2 - index % 2),)
            cells.append(
                Cell(
                    id=f"{COLUMNS[column]}{row + 1}",
                    shape="square",
                    x=column + 0.5,
                    y=board.rows - 1 - row + 0.5,
                    size=1.0,
                    kind="normal" if home is None else "home",
                    owner=home,
                    stack=stack,
                )
            )
    labels = grid_labels(COLUMNS, [str(row) for row in range(board.rows, 0, -1)])
    stones = [2 * state.bits[i].bit_count() + state.bits[i + 1].bit_count() for i in (0, 2)]
    outcome = state.outcome
    return RenderModel(
        game=state.game.id,
        players=names,
        extent=extent(cells, labels),
        cells=tuple(cells),
        labels=labels,
        to_move=None if outcome is not None else state.side,
        phase="over" if outcome is not None else "play",
        status=f"{names[state.side]} to move." if outcome is None else outcome.describe(names),
        notes=(
            f"Stones: {names[0]} {stones[0]}, {names[1]} {stones[1]} "
            f"(of {board.stones} each); ply {state.ply}.",
        ),
        seat_colours=SEAT_COLOURS,
    )


def click_path(state: MurusGallicusState, action: int) -> ClickPath:
    """``c1-c3`` → c1, c3 (origin, far cell); ``d3xe4`` → d3, e4 (tower, enemy wall)."""
    text = state.action_to_str(action)
    return ClickPath(targets=(text[:2], text[3:]))
