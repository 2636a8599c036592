"""Carnyx board geometry and the action-id layout, as module-level tables computed once.

Squares are indexed 0..24 in the spec's square order (a1, b1, ..., e1, a2, ..., e5), so the
index is ``5 * (rank - 1) + file`` (spec §2). Directions are absolute: north (+1 rank), south
(-1 rank), west (-1 file), east (+1 file); *forward* is north for Dark and south for Light.
"""

from __future__ import annotations

from typing import Final

SIZE: Final = 5
SQUARES: Final = SIZE * SIZE
CENTRE: Final = 12  # c3
DARK: Final = 0
LIGHT: Final = 1
COLOURS: Final = "DL"
"""The colour letter of each seat, as written in stacks and position texts."""

FILES: Final = "abcde"
NAMES: Final = tuple(f"{FILES[i % SIZE]}{i // SIZE + 1}" for i in range(SQUARES))
INDEX: Final = {name: i for i, name in enumerate(NAMES)}

NORTH, SOUTH, WEST, EAST = 0, 1, 2, 3
_DELTAS: Final = ((0, 1), (0, -1), (-1, 0), (1, 0))
FORWARD: Final = (NORTH, SOUTH)
"""The forward direction of each seat."""
DIRECTIONS: Final = ((NORTH, WEST, EAST), (SOUTH, WEST, EAST))
"""The three directions each seat may move in: forward, left/right (spec §2)."""

HOME: Final = (tuple(range(0, 5)), tuple(range(20, 25)))
"""The home-rank squares of each seat: rank 1 for Dark, rank 5 for Light."""


def _step(square: int, direction: int, distance: int) -> int:
    dx, dy = _DELTAS[direction]
    x = square % SIZE + dx * distance
    y = square // SIZE + dy * distance
    return y * SIZE + x if 0 <= x < SIZE and 0 <= y < SIZE else -1


STEP1: Final = tuple(tuple(_step(s, d, 1) for d in range(4)) for s in range(SQUARES))
"""STEP1[square][direction]: the adjacent square that way, or -1 off the board."""
STEP2: Final = tuple(tuple(_step(s, d, 2) for d in range(4)) for s in range(SQUARES))
"""STEP2[square][direction]: the square two steps that way, or -1 off the board."""

# Action ids. Each decision has one id that depends only on its notation string.
SETUP_BASE: Final = 0
"""``@s``: SETUP_BASE + s."""
DEPLOY_BASE: Final = SETUP_BASE + SQUARES
"""``R@s``: DEPLOY_BASE + s."""
MOVE_BASE: Final = DEPLOY_BASE + SQUARES
"""``X-Y`` / ``XxY``: MOVE_BASE + 8 * X + 2 * direction + (distance - 1)."""
EXIT_BASE: Final = MOVE_BASE + 8 * SQUARES
"""``X-off``: EXIT_BASE + 6 * X; ``X-off@R``: EXIT_BASE + 6 * X + 1 + file of R."""
HUNKER: Final = EXIT_BASE + 6 * SQUARES
PASS: Final = HUNKER + 1
NUM_ACTIONS: Final = PASS + 1

MOVE_TARGET: Final = tuple(
    _step((a - MOVE_BASE) // 8, (a - MOVE_BASE) % 8 // 2, (a - MOVE_BASE) % 2 + 1)
    for a in range(MOVE_BASE, EXIT_BASE)
)
"""MOVE_TARGET[id - MOVE_BASE]: the target square of a move id (-1 if off the board)."""


def move_id(origin: int, direction: int, distance: int) -> int:
    """The action id of a move from ``origin`` ``distance`` squares in ``direction``."""
    return MOVE_BASE + 8 * origin + 2 * direction + distance - 1


def exit_id(origin: int, reentry: int | None) -> int:
    """The action id of an exit from ``origin``, re-entering on ``reentry`` if given."""
    return EXIT_BASE + 6 * origin + (0 if reentry is None else 1 + reentry % SIZE)
