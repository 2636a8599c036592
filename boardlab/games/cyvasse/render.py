"""Terminal drawing of a Cyvasse state: the hex board with coordinates, then the game info."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardlab.games.cyvasse.board import LETTERS, RANK_LEN, RANK_START, RANKS, ZONE_OF
from boardlab.games.cyvasse.units import EMPTY, MOUNTAIN, UNIT_LETTERS, cell_kind, cell_side

if TYPE_CHECKING:
    from boardlab.games.cyvasse.state import CyvasseState

_LEGEND = (
    "K King  D Dragon  E Elephant  H Heavy Horse  L Light Horse  S Spearman  R Rabble\n"
    "B Crossbowman  C Catapult  T Trebuchet  ^ Mountain  . empty  ? hidden\n"
    "UPPERCASE = South, lowercase = North"
)


def _cell(state: CyvasseState, h: int) -> str:
    if ZONE_OF[h] in state.hidden_zones:
        return "?"
    cell = state.board[h]
    if cell == EMPTY:
        return "."
    if cell == MOUNTAIN:
        return "^"
    letter = UNIT_LETTERS[cell_kind(cell)]
    return letter if cell_side(cell) == 0 else letter.lower()


def render_board(state: CyvasseState) -> list[str]:
    """The 11 ranks, North at the top; each row names its first and last hex."""
    lines = []
    for rank in range(RANKS, 0, -1):
        length = RANK_LEN[rank - 1]
        start = RANK_START[rank - 1]
        indent = " " * (2 * (11 - length))
        cells = "   ".join(_cell(state, h) for h in range(start, start + length))
        last = LETTERS[length - 1]
        lines.append(f"{rank:>2} {indent}a  {cells}  {last}{indent} {rank}")
    return lines


def render_state(state: CyvasseState) -> str:
    """Board plus side to move, step, counters and outcome."""
    from boardlab.games.cyvasse.position import format_step
    from boardlab.games.cyvasse.state import SIDE_NAMES

    lines = [
        "            North (ranks 7-11)",
        *render_board(state),
        "            South (ranks 1-5)",
    ]
    side = SIDE_NAMES[state.side]
    outcome = state.outcome
    if outcome is not None:
        lines.append(f"Game over: {outcome.describe(SIDE_NAMES)}")
    elif state.deploying:
        left = len(state.game.order) - state.placed
        lines.append(f"{side} deploys: next item {state.next_item()} ({left} left)")
    elif state.jump is not None:
        lines.append(f"{side} to move: second jump after {format_step(state)}")
    else:
        lines.append(
            f"{side} to move" + (" (the previous ply was a forced pass)" if state.passed else "")
        )
    for zone in state.hidden_zones:
        lines.append(f"{SIDE_NAMES[zone]}'s deployment is hidden (?)")
    lines.append(f"Ply {state.ply}, plies without capture {state.no_capture}")
    lines.append(_LEGEND)
    return "\n".join(lines)
