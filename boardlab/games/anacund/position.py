"""Anacund position text (spec §11): six space-separated fields, written and parsed strictly.

``values bonus squares side sub-step groups``, e.g. the L0 start
``112312312312312324645645645645645653 2 .................................... A 0 666/666``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from boardlab.core.errors import PositionError
from boardlab.games.anacund.board import Layout, make_layout
from boardlab.games.anacund.rules import SQUARE_CHARS

SIDES = "AB"
PIECES_EACH = 18

_VALUES = re.compile(r"[1-6]{36}")
_BONUS = re.compile(r"[1-9]|[12][0-9]|3[0-6]")
_SQUARES = re.compile(r"[.abAB]{36}")
_GROUPS = re.compile(r"([0-6]{3})/([0-6]{3})")
_CODE = {c: i for i, c in enumerate(SQUARE_CHARS)}


@dataclass(frozen=True)
class Position:
    """The parsed fields of a position text."""

    layout: Layout
    squares: bytearray
    side: int
    sub: int
    groups: tuple[tuple[int, ...], tuple[int, ...]]


def format_groups(groups: tuple[int, ...]) -> str:
    """One player's group sizes as digits, descending (they are kept sorted)."""
    return "".join(map(str, groups))


def format_position(
    layout: Layout,
    squares: bytearray,
    side: int,
    sub: int,
    groups: tuple[tuple[int, ...], tuple[int, ...]],
) -> str:
    """The canonical position text."""
    board = "".join(SQUARE_CHARS[c] for c in squares)
    pair = f"{format_groups(groups[0])}/{format_groups(groups[1])}"
    return f"{layout.values} {layout.bonus} {board} {SIDES[side]} {sub} {pair}"


def parse_position(text: str) -> Position:
    """Parse a position text, rejecting anything non-canonical or inconsistent."""
    fields = text.split(" ")
    if len(fields) != 6:
        raise PositionError(
            f"position text needs 6 fields separated by single spaces "
            f"(values bonus squares side sub-step groups), got {len(fields)}"
        )
    values, bonus, board, side_text, sub_text, groups_text = fields
    if not _VALUES.fullmatch(values):
        raise PositionError(f"values field {values!r} must be 36 digits 1-6")
    if not _BONUS.fullmatch(bonus):
        raise PositionError(f"bonus field {bonus!r} must be a square 1-36 without leading zero")
    if not _SQUARES.fullmatch(board):
        raise PositionError(
            f"squares field {board!r} must be 36 characters of . a b A B "
            "(free, A piece, B piece, blocked with an A / B piece beside it)"
        )
    if side_text not in SIDES:
        raise PositionError(f"side to move {side_text!r} must be A or B")
    if sub_text not in ("0", "1", "2"):
        raise PositionError(f"sub-step {sub_text!r} must be 0, 1 or 2")
    match = _GROUPS.fullmatch(groups_text)
    if match is None:
        raise PositionError(
            f"groups field {groups_text!r} must be <A>/<B>, three digits 0-6 each, e.g. 665/666"
        )
    groups = (_parse_groups(match.group(1), "A"), _parse_groups(match.group(2), "B"))
    side = SIDES.index(side_text)
    sub = int(sub_text)
    squares = bytearray(_CODE[c] for c in board)
    _check_consistency(squares, side, sub, groups)
    return Position(make_layout(values, int(bonus)), squares, side, sub, groups)


def _parse_groups(digits: str, name: str) -> tuple[int, ...]:
    groups = tuple(int(d) for d in digits)
    if list(groups) != sorted(groups, reverse=True):
        raise PositionError(f"{name}'s group sizes {digits!r} must be in descending order")
    return groups


def _check_consistency(
    squares: bytearray, side: int, sub: int, groups: tuple[tuple[int, ...], tuple[int, ...]]
) -> None:
    """The consistency conditions of spec §11."""
    placed_a = PIECES_EACH - sum(groups[0])
    placed_b = PIECES_EACH - sum(groups[1])
    if side == 0:
        ok = placed_b % 3 == 0 and placed_a == placed_b + sub
        rule = "B's count must be a multiple of 3 and A's that plus the sub-step"
    else:
        ok = placed_a >= 3 and placed_a % 3 == 0 and placed_b == placed_a - 3 + sub
        rule = "A's count must be a multiple of 3 (at least 3) and B's 3 fewer plus the sub-step"
    if not ok:
        raise PositionError(
            f"groups say A has placed {placed_a} and B {placed_b} pieces; with "
            f"{SIDES[side]} to move at sub-step {sub}, {rule}"
        )
    free = squares.count(0)
    left = sum(groups[0]) + sum(groups[1])
    if free != left:
        raise PositionError(
            f"{free} free squares but {left} pieces left to place; they must be equal"
        )
    # A finished game (all groups 0) can only have A to move at sub-step 0: the checks above
    # already force that, so it needs no test of its own.
