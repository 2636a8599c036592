"""The option sets the Anacund kernel is checked on: random layouts from several seeds, ``l0``,
explicit layouts that trigger the fallback value rule, both tracks, the bonus and tie rules.

Shared by the kernel's tests, the compiled evaluation's tests and ``benchmarks/engine_diff.py``
(through :func:`boardlab.core.engine_check.option_sets`).
"""

L0 = "112312312312312324645645645645645653"
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
