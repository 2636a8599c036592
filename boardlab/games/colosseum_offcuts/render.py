"""Terminal drawing of a Colosseum Offcuts position: the occupied area with coordinates."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardlab.games.colosseum_offcuts.board import counter_text

if TYPE_CHECKING:
    from boardlab.games.colosseum_offcuts.state import ColosseumState

_WIDTH = 80
_KINDS = ("Board Pieces", "Fortifications")


def render_state(state: ColosseumState) -> str:
    """The grid around the footprint (north up), the stacks, the seats and the turn step.

    Each cell shows its stack bottom to top, e.g. ``2f1B`` is P2's Mobile Fortification under
    P1's Attack-mode Board Piece. When that is too wide for 80 columns, cells show the top
    counter with ``+`` for a stack, and the stacks are listed in full below the grid.
    """
    stacks = state.stacks
    lines: list[str] = []
    if stacks:
        xs = [x for x, _ in stacks]
        ys = [y for _, y in stacks]
        x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
        label = max(len(str(y)) for y in (y0, y1))
        tallest = max(len(stack) for stack in stacks.values())
        width = max(2 * tallest, max(len(str(x)) for x in (x0, x1)))
        full = label + 1 + (x1 - x0 + 1) * (width + 1) <= _WIDTH
        if not full:
            width = max(3, max(len(str(x)) for x in (x0, x1)))
        lines.append(" " * (label + 1) + " ".join(f"{x:>{width}}" for x in range(x0, x1 + 1)))
        for y in range(y1, y0 - 1, -1):
            row = []
            for x in range(x0, x1 + 1):
                stack = stacks.get((x, y))
                if not stack:
                    text = "."
                elif full:
                    text = "".join(counter_text(c) for c in stack)
                else:
                    text = counter_text(stack[-1]) + ("+" if len(stack) > 1 else "")
                row.append(f"{text:>{width}}")
            lines.append(f"{y:>{label}} " + " ".join(row))
        tall = [(cell, stack) for cell, stack in sorted(stacks.items()) if len(stack) > 1]
        if tall:
            lines.append("Stacks, bottom to top:")
            lines.extend(
                f"  {x},{y}: " + " ".join(counter_text(c) for c in stack) for (x, y), stack in tall
            )
    else:
        lines.append("(no counter placed yet; the first Board Piece goes on 0,0)")
    lines.append("Counters: seat digit, then b/f = Board Piece/Fortification Mobile, B/F = Attack")
    lines.extend(_seat_lines(state))
    lines.append(_step_line(state))
    lines.append(
        f"Ply {state.ply}; turns without capture {state.no_capture}; "
        f"forced passes in a row {state.forced_pass}"
    )
    if state.outcome is not None:
        lines.append("Game over: " + state.outcome.describe(state.game.player_names))
    return "\n".join(lines)


def _seat_lines(state: ColosseumState) -> list[str]:
    counts = [[0, 0] for _ in range(state.game.players)]
    for stack in state.stacks.values():
        for counter in stack:
            counts[counter >> 2][(counter >> 1) & 1] += 1
    lines = []
    for seat, (bps, forts) in enumerate(counts):
        status = ""
        if not state.setup and not forts:
            status = " - eliminated"
        mark = ">" if seat == state.side and state.outcome is None else " "
        lines.append(f"{mark} P{seat + 1}: {bps} {_KINDS[0]}, {forts} {_KINDS[1]}{status}")
    return lines


def _step_line(state: ColosseumState) -> str:
    name = f"P{state.side + 1}"
    if state.setup:
        kind = "Fortification" if state.setup >= 4 else "Board Piece"
        total = 4 * state.game.players
        return (
            f"Setup step S{state.setup}: {name} places a {kind} "
            f"(placement {state.ply + 1} of {total})"
        )
    if state.first is None:
        return f"{name} to move: action 1 of 2"
    return f"{name} to move: action 2 of 2 (first action {state.first})"
