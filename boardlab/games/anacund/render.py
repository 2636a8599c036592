"""Terminal drawing of an Anacund position: the ring as the 3 x 17 rectangle, plus the score.

Each square shows its number, its value (``*`` marks the bonus square) and its content: ``a``
or ``b`` for a piece, ``.`` for free, ``#`` for blocked. The captured piece of a blocked square
is drawn outside the rectangle beside it, as ``A`` or ``B`` (the captor's colour).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardlab.games.anacund import rules
from boardlab.games.anacund.board import COLUMNS, SQUARES, bottom_square, top_square
from boardlab.games.anacund.notation import ACTION_STRINGS

if TYPE_CHECKING:
    from boardlab.games.anacund.state import AnacundState

_LABEL = 9
_CONTENT = ".ab##"
_BESIDE = "   AB"
_COLOURS = ("Dark", "Light")


def render_state(state: AnacundState) -> str:
    """The board drawing and the game information, in under 80 columns."""
    track = state.game.options["track"]
    lines = [f"Anacund, {track} track: square / value (* = bonus) / a b pieces, # blocked"]
    lines += _board(state)
    lines += _info(state)
    return "\n".join(lines)


def _cell(main: str, suffix: str = " ") -> str:
    return f"{main:>3}{suffix}"


def _row(label: str, cells: list[str], left: str = " ", right: str = "") -> str:
    return (f"{label:<{_LABEL - 2}}{left} " + "".join(cells) + right).rstrip()


def _square_lines(state: AnacundState, squares: list[int], blank_middle: bool) -> list[str]:
    """The square, value and content lines of one row of 17 columns (1-based squares)."""
    codes = state.squares
    values = state.layout.values
    bonus = state.layout.bonus

    def pick(make: str, square: int, index: int) -> str:
        if blank_middle and 0 < index < COLUMNS - 1:
            return ""
        if make == "square":
            return _cell(str(square))
        if make == "value":
            return _cell(values[square - 1], "*" if square == bonus else " ")
        return _cell(_CONTENT[codes[square - 1]])

    return [
        _row(name, [pick(name, sq, i) or _cell("") for i, sq in enumerate(squares)])
        for name in ("square", "value", "piece")
    ]


def _beside(state: AnacundState, squares: list[int]) -> str:
    return _row("beside", [_cell(_BESIDE[state.squares[sq - 1]]) for sq in squares])


def _board(state: AnacundState) -> list[str]:
    top = [top_square(c) for c in range(1, COLUMNS + 1)]
    bottom = [bottom_square(c) for c in range(1, COLUMNS + 1)]
    middle = [SQUARES if c == 1 else COLUMNS + 1 if c == COLUMNS else 0 for c in range(1, 18)]
    lines = [_beside(state, top), *_square_lines(state, top, False), ""]
    mid = _square_lines(state, middle, True)
    left = _BESIDE[state.squares[SQUARES - 1]]
    right = _BESIDE[state.squares[COLUMNS]].strip()
    lines += [mid[0], mid[1], _row("piece", [mid[2][_LABEL:]], left, " " + right if right else "")]
    bottom_lines = _square_lines(state, bottom, False)
    lines += ["", *reversed(bottom_lines), _beside(state, bottom)]
    return lines


def _info(state: AnacundState) -> list[str]:
    lines = ["", *(seat_line(state, seat) for seat in (0, 1)), *last_placement_lines(state)]
    lines.append(status_line(state))
    if state.outcome is not None:
        lines += ["  " + line for line in score_lines(state)]
    return lines


def seat_line(state: AnacundState, seat: int, align: bool = True) -> str:
    """A seat's name and colour, group sizes and running score (``align``: in columns)."""
    sizes = " ".join(str(g) for g in state.groups[seat])
    who = f"{state.game.player_names[seat]} ({_COLOURS[seat]})"
    score = state.scores()[seat]
    if align:
        return f"{who:<10} groups {sizes}   score {score}"
    return f"{who}: groups {sizes}, score {score}"


def last_placement_lines(state: AnacundState) -> list[str]:
    """The previous placement and what it captured, when the state remembers it."""
    if state.last_action is None:
        return []
    caught = " ".join(str(i + 1) for i in sorted(state.last_captured))
    note = f", captured {caught}" if caught else ""
    return [f"Last placement: {ACTION_STRINGS[state.last_action]}{note}"]


def status_line(state: AnacundState) -> str:
    """Who places, and which placement of the turn this is; or how the game ended."""
    names = state.game.player_names
    outcome = state.outcome
    if outcome is not None:
        return f"Game over: {outcome.describe(names)}"
    left = 3 - state.sub
    return f"{names[state.side]} to place: placement {state.sub + 1} of 3 ({left} left this turn)"


def score_lines(state: AnacundState) -> list[str]:
    """How each score is made up (spec §8): pieces on the track, beside it, and the bonus."""
    owner = rules.bonus_owner(state.squares, state.layout.bonus)
    points = state.game.bonus_points
    lines = []
    for seat, name in enumerate(state.game.player_names):
        on = state.squares.count(rules.PIECE[seat])
        beside = state.squares.count(rules.BLOCKED[seat])
        parts = f"{on} on the track + {beside} captured beside"
        if owner == seat:
            parts += f" + bonus {points} (square {state.layout.bonus})"
        lines.append(f"{name}: {parts} = {state.scores()[seat]}")
    return lines
