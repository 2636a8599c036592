"""The option sets the Carnyx kernel is checked on: each option varied alone, then combinations.

Shared by the kernel's tests, the compiled evaluation's tests and ``benchmarks/engine_diff.py``
(through :func:`boardlab.core.engine_check.option_sets`).
"""

OPTION_SETS: list[dict[str, object]] = [
    {},
    {"allow_merge": False},
    {"jump_own": True},
    {"no_return": "strict"},
    {"conversion": "token"},
    {"single_exit": "reserve"},
    {"repetition_draw": 2},
    {"repetition_draw": 1},
    {"repetition_draw": 0},
    {"max_plies": 0},
    {"max_plies": 40},
    {"max_plies": 3},
    # Combinations that change the same rule: jumps and merges, exits and what they earn,
    # the no-return memory with jumps, and the draw rules together.
    {"allow_merge": False, "jump_own": True},
    {"conversion": "token", "single_exit": "reserve"},
    {"no_return": "strict", "jump_own": True, "allow_merge": False},
    {"repetition_draw": 2, "max_plies": 0, "no_return": "strict"},
]
