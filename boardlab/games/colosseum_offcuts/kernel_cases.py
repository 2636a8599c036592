"""The option sets the kernel is checked on: every seat count, each option varied alone, then
combinations.

Shared by the kernel's tests and ``benchmarks/engine_diff.py`` (through
:func:`boardlab.core.engine_check.option_sets`).
"""

SEAT_COUNTS = (2, 3, 4, 5)
"""Every seat count the game allows."""

SINGLE_OPTIONS: list[dict[str, object]] = [
    {"connectivity_check": "final"},
    {"exposed_edges_measured": "before"},
    {"mobile_move": "slide"},
    {"no_capture_rounds": 0},
    {"no_capture_rounds": 1},
    {"no_capture_rounds": 3},
    {"draw_ranking": "fortifications"},
    {"repetition_draw": 0},
    {"repetition_draw": 2},
    # Options that change the same rule together: the Mobile move's three readings,
    # and the draw rules with the ranking that scores them.
    {"connectivity_check": "final", "exposed_edges_measured": "before"},
    {"connectivity_check": "final", "mobile_move": "slide"},
    {"exposed_edges_measured": "before", "mobile_move": "slide"},
    {"connectivity_check": "final", "exposed_edges_measured": "before", "mobile_move": "slide"},
    {"no_capture_rounds": 1, "draw_ranking": "fortifications"},
    {"repetition_draw": 2, "draw_ranking": "fortifications", "no_capture_rounds": 0},
]
"""Each option value with the others at their defaults, and options that change the same rule
together; checked at 2 and 3 seats."""

FIVE_SEAT_OPTIONS: list[dict[str, object]] = [
    {"connectivity_check": "final", "exposed_edges_measured": "before", "mobile_move": "slide"},
    {"no_capture_rounds": 2, "draw_ranking": "fortifications", "repetition_draw": 2},
]
"""The Mobile-move readings together, and the draw rules together, at five seats."""

OPTION_SETS: list[dict[str, object]] = (
    [dict[str, object](players=players) for players in SEAT_COUNTS]
    + [{"players": players, **options} for players in (2, 3) for options in SINGLE_OPTIONS]
    + [{"players": 5, **options} for options in FIVE_SEAT_OPTIONS]
)
