"""Cyvasse items (spec §3): unit kinds, stats, the combat matrix (§6.1) and the ``army`` option.

Board cells are small ints: ``EMPTY``, ``MOUNTAIN``, ``2 + kind`` for a South unit and
``12 + kind`` for a North unit, where ``kind`` indexes :data:`UNIT_LETTERS`.
"""

from __future__ import annotations

import re

UNIT_LETTERS = "KDEHLSRBCT"
ITEM_LETTERS = UNIT_LETTERS + "M"
MOUNTAIN_ITEM = 10
"""Index of the Mountain in ITEM_LETTERS."""
KING, DRAGON, ELEPHANT, HEAVY, LIGHT, SPEAR, RABBLE, CROSSBOW, CATAPULT, TREBUCHET = range(10)

EMPTY = 0
MOUNTAIN = 1
SIDE_BASE = (2, 12)
"""Cell code of kind 0 for each side: South 2..11, North 12..21."""

MOVEMENT = (2, 0, 3, 2, 3, 2, 3, 1, 2, 0)
"""Movement value; the Dragon's flight is separate and the cavalry's is its first jump."""
STRENGTH = (2, 5, 4, 3, 2, 2, 1, 2, 3, 1)
DEFENCE = (2, 5, 4, 3, 2, 2, 1, 1, 1, 1)
RANGE = (0, 0, 0, 0, 0, 0, 0, 2, 3, 3)
TRUMPS: frozenset[tuple[int, int]] = frozenset(
    {(SPEAR, LIGHT), (CROSSBOW, ELEPHANT), (CATAPULT, DRAGON), (TREBUCHET, DRAGON)}
)
IS_RANGED = tuple(r > 0 for r in RANGE)
IS_CAVALRY = tuple(k in (HEAVY, LIGHT) for k in range(10))
SECOND_JUMP = 2
VALUE = (0.0, 8.0, 5.0, 4.0, 3.0, 2.0, 1.0, 3.0, 4.0, 3.0)
"""Material values for the heuristic (the King is priceless: losing it ends the game)."""


def may_attack(attacker: int, defender: int) -> bool:
    """Spec §6.1: the defender does not trump the attacker, and trump or strength >= defence."""
    if (defender, attacker) in TRUMPS:
        return False
    return (attacker, defender) in TRUMPS or STRENGTH[attacker] >= DEFENCE[defender]


WINS: tuple[tuple[bool, ...], ...] = tuple(
    tuple(may_attack(a, d) for d in range(10)) for a in range(10)
)
"""WINS[attacker][defender]: the attack is legal under the default rules (and succeeds)."""


def cell_side(cell: int) -> int:
    """0 for a South unit, 1 for a North unit (cell must hold a unit)."""
    return (cell - 2) // 10


def cell_kind(cell: int) -> int:
    """The kind of the unit in a cell (cell must hold a unit)."""
    return (cell - 2) % 10


DEFAULT_ARMY = "K1D1E2H2L2S2R3B2C1T1M2"
_ARMY_PART = re.compile(r"([KDEHLSRBCTM])([1-9][0-9]*)")
MAX_ARMY = 40


def check_army(text: str) -> str | None:
    """Why an ``army`` option value is bad, or None (spec §12)."""
    try:
        parse_army(text)
    except ValueError as error:
        return str(error)
    return None


def parse_army(text: str) -> tuple[int, ...]:
    """Item counts per letter of :data:`ITEM_LETTERS` (0 where absent); raises ValueError."""
    counts = [0] * len(ITEM_LETTERS)
    pos = 0
    last = -1
    while pos < len(text):
        match = _ARMY_PART.match(text, pos)
        if not match:
            raise ValueError(
                f"write letter-count pairs in the order {ITEM_LETTERS}, e.g. {DEFAULT_ARMY}"
            )
        index = ITEM_LETTERS.index(match.group(1))
        if index <= last:
            raise ValueError(f"letters must appear once each, in the order {ITEM_LETTERS}")
        last = index
        counts[index] = int(match.group(2))
        pos = match.end()
    if counts[KING] != 1:
        raise ValueError("the army must have exactly one King (K1)")
    if sum(counts) > MAX_ARMY:
        raise ValueError(f"the army has {sum(counts)} items; at most {MAX_ARMY} fit a zone")
    return tuple(counts)


def deployment_order(counts: tuple[int, ...]) -> tuple[int, ...]:
    """The items in deployment order (spec §4), as ITEM_LETTERS indices (10 = Mountain)."""
    return tuple(i for i, n in enumerate(counts) for _ in range(n))
