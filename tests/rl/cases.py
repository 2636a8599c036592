"""Game options that keep RL tests short: every game, and every seat count of Colosseum."""

from __future__ import annotations

from typing import Any

SMALL_ARMY = "K1H1R2M1"
"""A Cyvasse army of five items, so that deployment takes ten decisions."""

CASES: list[tuple[str, dict[str, Any]]] = [
    ("carnyx", {"max_plies": 40}),
    ("murus-gallicus", {"max_plies": 40}),
    *[("colosseum-offcuts", {"players": n, "no_capture_rounds": 4}) for n in range(2, 6)],
    ("anacund", {}),
    ("cyvasse", {"army": SMALL_ARMY, "max_plies": 40}),
]
"""``(game id, options)`` for each environment under test."""

IDS = [f"{game}-{options.get('players', 2)}" for game, options in CASES]
"""Readable test ids, e.g. ``colosseum-offcuts-4``."""

ALL_CORES = 64
"""A batch the tests step on all cores (``vector.PARALLEL_FROM`` lowered to it)."""
