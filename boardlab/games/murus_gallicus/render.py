"""Terminal drawing of a Murus Gallicus position."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardlab.games.murus_gallicus.board import COLUMNS, STRIDE

if TYPE_CHECKING:
    from boardlab.games.murus_gallicus.state import MurusGallicusState

LEGEND = "R/G tower (2 stones), r/g wall (1 stone), . empty"


def render(state: MurusGallicusState) -> str:
    """The board with coordinates on all sides, a legend and the side to move."""
    board = state.board
    files = "   " + " ".join(COLUMNS)
    lines = [files]
    for row in range(board.rows - 1, -1, -1):
        cells = []
        for column in range(8):
            bit = 1 << (row * STRIDE + column)
            cells.append(next((c for c, b in zip("RrGg", state.bits, strict=True) if b & bit), "."))
        lines.append(f"{row + 1:>2} {' '.join(cells)} {row + 1}")
    lines.append(files)
    names = state.game.player_names
    lines.append(LEGEND)
    stones = [2 * state.bits[i].bit_count() + state.bits[i + 1].bit_count() for i in (0, 2)]
    lines.append(f"stones: {names[0]} {stones[0]}, {names[1]} {stones[1]}; ply {state.ply}")
    if state.outcome is None:
        lines.append(f"{names[state.side]} to move")
    else:
        lines.append(state.outcome.describe(names))
    return "\n".join(lines)
