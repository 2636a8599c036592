"""The option sets the kernel is checked on: each option varied alone, then combinations.

Shared by the kernel's tests and ``benchmarks/engine_diff.py`` (through
:func:`boardlab.core.engine_check.option_sets`).
"""

SKEWED = "111111111112222223333334444445555556:3"
"""Eleven squares of value 1 and one of value 6: the fallback value rule comes up in play."""

OPTION_SETS: list[dict[str, object]] = [
    {"seed": 0},
    {"seed": 1},
    {"seed": 42},
    {"layout": "l0"},
    {"layout": SKEWED},
    {"track": "open", "seed": 3},
    {"bonus_points": 0, "seed": 4},
    {"bonus_points": 2, "seed": 5},
    {"tie": "b", "seed": 6},
    # Combinations that change the same rule: flanking at the seam, and ties.
    {"track": "open", "layout": "l0"},
    {"track": "open", "layout": SKEWED},
    {"tie": "b", "bonus_points": 0, "seed": 7},
    {"tie": "b", "bonus_points": 2, "track": "open", "seed": 8},
]
