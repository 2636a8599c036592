"""The Anacund ring and its layouts: square geometry, neighbour tables, slats and shuffling.

Squares are numbered 1..36 in the spec (§2) and indexed 0..35 here. A :class:`Layout` holds
the value of every square and the bonus square; it is immutable and shared by every state
that uses it.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from functools import lru_cache

SQUARES = 36
COLUMNS = 17
VALUES = range(1, 7)

X_SLAT = (1, 3, 5)
Y_SLAT = (2, 4, 6)
TWO_SLATS: tuple[tuple[int, int], ...] = ((1, 6),) * 5 + ((2, 5),) * 5 + ((3, 4),) * 5
"""The fifteen 2-ideogram slats, top|bottom as printed; index 0 is the bonus slat (§4.2)."""

L0_VALUES = "112312312312312324645645645645645653"
L0_BONUS = 2
LAYOUT_RE = re.compile(r"([1-6]{36}):([1-9]|[12][0-9]|3[0-6])")
LAYOUT_HELP = (
    "random, l0, or <36 digits 1-6>:<bonus square 1-36>, e.g. " + f"{L0_VALUES}:{L0_BONUS}"
)


def top_square(column: int) -> int:
    """Square number (1-based) of the top cell of ``column`` (1..17)."""
    return column


def bottom_square(column: int) -> int:
    """Square number (1-based) of the bottom cell of ``column`` (1..17)."""
    return SQUARES - column


def _neighbours(ring: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(next, previous) index tables; -1 where an open track ends."""
    nxt = [(i + 1) % SQUARES for i in range(SQUARES)]
    prv = [(i - 1) % SQUARES for i in range(SQUARES)]
    if not ring:
        nxt[SQUARES - 1] = -1
        prv[0] = -1
    return tuple(nxt), tuple(prv)


RING_NEIGHBOURS = _neighbours(ring=True)
OPEN_NEIGHBOURS = _neighbours(ring=False)


@dataclass(frozen=True)
class Layout:
    """The values of squares 1..36 (as a digit string) and the bonus square number."""

    values: str
    bonus: int
    value_of: tuple[int, ...] = field(init=False, compare=False, repr=False)
    by_value: tuple[tuple[int, ...], ...] = field(init=False, compare=False, repr=False)
    """Square indices (0-based) of each value 0..6 (index 0 unused)."""

    def __post_init__(self) -> None:
        value_of = tuple(int(c) for c in self.values)
        by_value = tuple(tuple(i for i, v in enumerate(value_of) if v == k) for k in range(7))
        object.__setattr__(self, "value_of", value_of)
        object.__setattr__(self, "by_value", by_value)

    @property
    def text(self) -> str:
        """The explicit layout string ``<values>:<bonus>`` (option ``layout``)."""
        return f"{self.values}:{self.bonus}"


@lru_cache(maxsize=256)
def make_layout(values: str, bonus: int) -> Layout:
    """The shared Layout for these values and bonus (cached: states share one object)."""
    return Layout(values, bonus)


def check_layout_option(text: str) -> str | None:
    """Why ``text`` is not a valid ``layout`` option value, or None when it is."""
    if text in ("random", "l0") or LAYOUT_RE.fullmatch(text):
        return None
    return f"allowed: {LAYOUT_HELP}"


def random_layout(seed: int) -> Layout:
    """Shuffle the canonical slats with ``random.Random(seed)`` exactly as spec §4.2 says."""
    values, bonus = random_values(seed)
    return make_layout("".join(map(str, values)), bonus)


def random_values(seed: int) -> tuple[list[int], int]:
    """The values of squares 1..36 and the bonus square number of :func:`random_layout`
    (without making the Layout: the RL environments start a game from them on the kernel)."""
    rng = random.Random(seed)
    values = [0] * SQUARES
    bonus = 0
    order = list(range(len(TWO_SLATS)))
    rng.shuffle(order)
    for column in range(2, COLUMNS):
        slat = order[column - 2]
        top, bottom = TWO_SLATS[slat]
        if rng.random() < 0.5:
            top, bottom = bottom, top
        values[top_square(column) - 1] = top
        values[bottom_square(column) - 1] = bottom
        if slat == 0:
            bonus = top_square(column) if top == 1 else bottom_square(column)
    first, last = (X_SLAT, Y_SLAT) if rng.random() < 0.5 else (Y_SLAT, X_SLAT)
    for column, slat3 in ((1, first), (COLUMNS, last)):
        cells = slat3[::-1] if rng.random() < 0.5 else slat3
        _put_end_slat(values, column, cells)
    return values, bonus


def _put_end_slat(values: list[int], column: int, cells: tuple[int, ...]) -> None:
    """Write a 3-ideogram slat (top, middle, bottom) into end column 1 or 17."""
    middle = SQUARES if column == 1 else COLUMNS + 1
    values[top_square(column) - 1] = cells[0]
    values[middle - 1] = cells[1]
    values[bottom_square(column) - 1] = cells[2]


def layout_from_option(layout: str, seed: int) -> Layout:
    """The Layout that option ``layout`` (already validated) gives with this seed."""
    if layout == "random":
        return random_layout(seed)
    if layout == "l0":
        return make_layout(L0_VALUES, L0_BONUS)
    match = LAYOUT_RE.fullmatch(layout)
    assert match is not None, "layout option is validated before use"
    return make_layout(match.group(1), int(match.group(2)))
