"""Terminal drawing of a Carnyx position: stacks and control, pools, hunker set, memory."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardlab.games.carnyx.board import CENTRE, COLOURS, FILES, NAMES, SIZE
from boardlab.games.carnyx.position import PIECES_EACH

if TYPE_CHECKING:
    from boardlab.games.carnyx.state import CarnyxState

CELL = 7
NAMES_OF = ("Dark", "Light")


def _cell(square: int, stack: str) -> str:
    if not stack:
        text = "+" if square == CENTRE else "."
    elif len(stack) <= CELL - 2:
        text = stack
    else:
        text = f"{len(stack)}:{stack[-(CELL - 4) :]}"
    return text.center(CELL)


def render_state(state: CarnyxState) -> str:
    """The board (rank 5 at the top, as Dark sees it) and the game information below it."""
    board = state.board
    header = ("    " + "".join(f.center(CELL) for f in FILES)).rstrip()
    lines = [f"Carnyx, ply {state.ply}", header]
    for rank in range(SIZE - 1, -1, -1):
        row = "".join(_cell(s, board[s]) for s in range(rank * SIZE, rank * SIZE + SIZE))
        note = {SIZE - 1: "  Light's home rank", 0: "  Dark's home rank"}.get(rank, "")
        lines.append(f" {rank + 1}  {row}  {rank + 1}{note}")
    lines.append(header)
    lines.append("Stacks are written bottom to top; the top (last) letter controls the square.")
    lines.extend(_stack_lines(state))
    lines.extend(pool_lines(state))
    lines.extend(note_lines(state))
    lines.append(status_line(state))
    return "\n".join(lines)


def _stack_lines(state: CarnyxState) -> list[str]:
    stacks = [
        f"{NAMES[s]} {stack} ({NAMES_OF[COLOURS.index(stack[-1])]})"
        for s, stack in enumerate(state.board)
        if len(stack) > 1
    ]
    return ["Stacks: " + ", ".join(stacks)] if stacks else []


def pool_lines(state: CarnyxState, align: bool = True) -> list[str]:
    """Per player: stacks controlled, pieces on the board, the pools and the removed count.

    ``align`` pads the names to one width, for the terminal's column of lines.
    """
    lines = []
    for seat, name in enumerate(NAMES_OF):
        unplaced, supply, reserve = state.pools[3 * seat : 3 * seat + 3]
        on_board = sum(stack.count(COLOURS[seat]) for stack in state.board)
        controls = sum(1 for stack in state.board if stack and stack[-1] == COLOURS[seat])
        label = f"{name:<{5 if align else 0}} ({COLOURS[seat]})"
        parts = [f"{label}: controls {controls}, on board {on_board}"]
        if unplaced:
            parts.append(f"unplaced {unplaced}")
        parts.append(f"supply {supply}, reserve {reserve}")
        owned = on_board + unplaced + supply + reserve
        if state.game.token:
            parts.append(f"owned {owned}")
        else:
            parts.append(f"removed {PIECES_EACH - owned}")
        lines.append(", ".join(parts))
    return lines


def note_lines(state: CarnyxState) -> list[str]:
    """Who is hunkered down, which stacks may not go back, and what the last ply was."""
    lines = []
    side = state.side
    for seat, name in enumerate(NAMES_OF):
        if state.hunker >> seat & 1:
            if seat == side:
                lines.append(
                    f"{name} hunkered down last ply: free of forced capture, may not hunker now."
                )
            else:
                lines.append(f"{name} is hunkered down: its stacks cannot be captured this ply.")
    for to, origin in sorted(state.memory.items()):
        owner = NAMES_OF[COLOURS.index(state.board[to][-1])]
        lines.append(
            f"No return: {owner}'s stack on {NAMES[to]} may not go back to {NAMES[origin]}."
        )
    if state.marker == "x":
        lines.append("Last ply was a capture.")
    elif state.marker == "p":
        lines.append("Last ply was a forced pass.")
    return lines


def status_line(state: CarnyxState, example: bool = True) -> str:
    """The outcome, the setup placement due (with an ``example`` in notation), or the turn."""
    side = state.side
    outcome = state.outcome
    if outcome is not None:
        return "Game over: " + outcome.describe(state.game.player_names)
    if state.in_setup:
        hint = f" (e.g. {'@c1' if side == 0 else '@c5'})" if example else ""
        return f"Setup: {NAMES_OF[side]} places a piece on its home rank{hint}."
    return f"{NAMES_OF[side]} to move."
