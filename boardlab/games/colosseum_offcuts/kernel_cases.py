"""The option sets the Colosseum Offcuts kernel is checked on (at two and three seats in its
tests, beside random games at every seat count): each option varied alone, then combinations.

Shared by the kernel's tests, the compiled evaluation's tests and ``benchmarks/engine_diff.py``
(through :func:`boardlab.core.engine_check.option_sets`, at the default seat count there).
"""

SEAT_COUNTS = (2, 3, 4, 5)

OPTION_SETS: list[dict[str, object]] = [
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
