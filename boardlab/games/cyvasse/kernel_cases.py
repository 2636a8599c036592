"""The option sets the Cyvasse kernel is checked on: each option varied alone, then combinations.

Shared by the kernel's tests, the compiled evaluation's tests and ``benchmarks/engine_diff.py``
(through :func:`boardlab.core.engine_check.option_sets`).
"""

SMALL_ARMY = "K1D1H1L1B1C1T1M2"

OPTION_SETS: list[dict[str, object]] = [
    {},
    {"army": SMALL_ARMY},
    {"army": "K1R30M9"},  # 40 items, the most a zone holds
    {"army": "K1D1E1H1L1S1R1B1C1T1M1"},
    {"cavalry_second_optional": True},
    {"losing_attacks": "suicide"},
    {"dragon_blocked_by_dragon": True},
    {"first_tie": "south"},
    {"first_tie": "north"},
    {"first_tie": "random", "seed": 1},
    {"hidden_setup": False},
    {"no_capture_plies": 0},
    {"no_capture_plies": 12},
    {"max_plies": 0},
    {"max_plies": 45},
    {"max_plies": 1},
    {"repetition_draw": 0},
    {"repetition_draw": 1},
    {"repetition_draw": 2, "army": "K1L1M2"},
    {"repetition_draw": 2, "army": "K1", "no_capture_plies": 0},  # random play repeats
    # Combinations that change the same rule.
    {"losing_attacks": "suicide", "dragon_blocked_by_dragon": True},
    {"losing_attacks": "suicide", "cavalry_second_optional": True},
    {"no_capture_plies": 0, "max_plies": 0, "army": SMALL_ARMY},
    {"no_capture_plies": 30, "max_plies": 40, "repetition_draw": 2, "army": "K1H1L1M2"},
]
