"""The option sets the kernel is checked on: each option varied alone, then combinations.

Shared by the kernel's tests and ``benchmarks/engine_diff.py`` (through
:func:`boardlab.core.engine_check.option_sets`).
"""

OPTION_SETS: list[dict[str, object]] = [
    {},
    {"board": "8x8"},
    {"board": "8x8_two_rows"},
    {"repetition_draw": 0},
    {"repetition_draw": 1},
    {"repetition_draw": 2},
    {"max_plies": 0},
    {"max_plies": 1},
    {"max_plies": 40},
    # Both draw rules at once, and with the other boards.
    {"repetition_draw": 2, "max_plies": 40},
    {"repetition_draw": 0, "max_plies": 0},
    {"board": "8x8_two_rows", "repetition_draw": 2, "max_plies": 60},
    {"board": "8x8", "repetition_draw": 2},
]
