"""Anacund decisions: ``size@square`` strings and their action ids (spec §10).

The action space is fixed at 6 x 36 = 216 ids: ``(size - 1) * 36 + (square - 1)``, where
``size`` is the current size of the chosen group and ``square`` the square number.
"""

from __future__ import annotations

import re

from boardlab.core.errors import NotationError
from boardlab.games.anacund.board import SQUARES

NUM_ACTIONS = 6 * SQUARES
NOTATION = re.compile(r"([1-6])@([1-9]|[12][0-9]|3[0-6])")
NOTATION_HELP = (
    "write size@square: the current size 1-6 of the group you take a piece from, '@', "
    "and a square 1-36 without a leading zero, e.g. 6@19"
)

ACTION_STRINGS = tuple(f"{a // SQUARES + 1}@{a % SQUARES + 1}" for a in range(NUM_ACTIONS))
"""The notation of every action id, precomputed."""


def encode(size: int, index: int) -> int:
    """Action id of placing from a group of ``size`` on square index ``index`` (0-based)."""
    return (size - 1) * SQUARES + index


def decode(action: int) -> tuple[int, int]:
    """(group size, square index 0-based) of an action id."""
    return action // SQUARES + 1, action % SQUARES


def parse_decision(text: str) -> tuple[int, int]:
    """(group size, square index 0-based) of a well-formed decision, else NotationError."""
    match = NOTATION.fullmatch(text)
    if match is None:
        raise NotationError(f"malformed move {text!r}: {NOTATION_HELP}")
    return int(match.group(1)), int(match.group(2)) - 1
