"""Why a well-formed Carnyx decision is illegal, in words for the player (spec §4-6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardlab.games.carnyx.board import COLOURS, FORWARD, HOME, INDEX, NAMES, SIZE, STEP1

if TYPE_CHECKING:
    from boardlab.games.carnyx.state import CarnyxState

NAMES_OF = ("Dark", "Light")


def explain_illegal(state: CarnyxState, text: str) -> str | None:
    """A reason for a well-formed, illegal ``text`` in ``state`` (not over), or None."""
    side = state.side
    home_rank = 1 if side == 0 else SIZE
    if state.in_setup:
        if text.startswith("@"):
            return f"setup pieces go on your home rank (rank {home_rank})"
        return f"the setup phase is on: place a piece on rank {home_rank} with @square, e.g. @c1"
    if text.startswith("@"):
        return "the setup phase is over; bring pieces in from reserve with R@square"
    if text == "pass":
        return "pass is only legal when no other decision is"
    if text == "H":
        return "you hunkered down on your previous turn and may not hunker twice in a row"
    reason = _deploy_reason(state, text) if text.startswith("R@") else _move_reason(state, text)
    if reason:
        return reason
    captures, _ = state._candidates()
    if captures and not state.hunker >> side & 1:
        listed = " ".join(sorted(state.action_to_str(a) for a in captures))
        return f"a capture is available: you must capture or hunker down (H); captures: {listed}"
    return None


def _deploy_reason(state: CarnyxState, text: str) -> str | None:
    side = state.side
    square = INDEX[text[2:]]
    if not state.pools[3 * side + 2]:
        return "you have no reserve pieces to deploy"
    if square not in HOME[side]:
        return f"reserve pieces enter on your home rank (rank {1 if side == 0 else SIZE})"
    stack = state.board[square]
    if stack and stack[-1] != COLOURS[side]:
        owner = NAMES_OF[1 - side]
        return f"{NAMES[square]} is controlled by {owner}; deploy on an empty or own square"
    return None


def _move_reason(state: CarnyxState, text: str) -> str | None:
    side = state.side
    own = COLOURS[side]
    opponent = NAMES_OF[1 - side]
    origin = INDEX[text[:2]]
    stack = state.board[origin]
    if not stack:
        return f"there is no piece on {NAMES[origin]}"
    if stack[-1] != own:
        return f"{NAMES[origin]} is controlled by {opponent} (the top piece controls a stack)"
    if "off" in text:
        return _exit_reason(state, text, origin, stack)
    target = INDEX[text[3:5]]
    dx = target % SIZE - origin % SIZE
    dy = (target // SIZE - origin // SIZE) * (1 if side == 0 else -1)
    if dx and dy:
        return "pieces move straight forward, left or right, never diagonally"
    if dy < 0:
        return "pieces never move backward"
    distance = abs(dx + dy)
    if len(stack) == 1 and distance != 1:
        return "a single piece moves exactly one square"
    if len(stack) > 1 and distance != 2:
        return "a stack moves exactly two squares in a straight line"
    if len(stack) > 1:
        middle = (origin + target) // 2
        jumped = state.board[middle]
        if jumped and jumped[-1] == own and not state.game.jump_own:
            return f"your own piece on {NAMES[middle]} blocks the jump (stacks jump only opponents)"
    occupant = state.board[target]
    if occupant and occupant[-1] == own and not state.game.allow_merge:
        return "moving onto your own stack is not allowed (allow_merge=false)"
    if occupant and occupant[-1] != own and state.hunker >> (1 - side) & 1:
        return f"{opponent} hunkered down: its stacks cannot be captured this ply"
    if state.memory.get(origin) == target:
        return f"no return: this stack just came to {NAMES[origin]} from {NAMES[target]}"
    return None


def _exit_reason(state: CarnyxState, text: str, origin: int, stack: str) -> str | None:
    side = state.side
    opponent = NAMES_OF[1 - side]
    forward = FORWARD[side]
    middle = STEP1[origin][forward]
    if len(stack) == 1 and middle >= 0:
        return f"a single piece leaves the board only forward from {opponent}'s home rank"
    if len(stack) > 1 and middle >= 0 and STEP1[middle][forward] >= 0:
        return f"a stack leaves the board only from {opponent}'s home rank or the rank before it"
    if len(stack) > 1 and middle >= 0:
        jumped = state.board[middle]
        if jumped and jumped[-1] == COLOURS[side] and not state.game.jump_own:
            return f"your own piece on {NAMES[middle]} blocks the jump off the board"
    reentry = text.partition("@")[2]
    if len(stack) > 1:
        return (
            "only a single piece names a re-entry square; write the stack exit as X-off"
            if (reentry)
            else None
        )
    if not state.game.reentry:
        return (
            "with single_exit=reserve the piece goes to reserve; write X-off" if reentry else None
        )
    squares = [
        NAMES[s] for s in HOME[side] if not state.board[s] or state.board[s][-1] == COLOURS[side]
    ]
    if reentry not in squares and (reentry or squares):
        allowed = " ".join(squares) or "none"
        return f"a single piece re-enters on an empty or own square of your home rank: {allowed}"
    return None
