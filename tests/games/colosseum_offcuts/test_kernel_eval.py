"""The compiled Colosseum Offcuts evaluation equals the reference heuristic (issue 21 item 3).

At every position of seeded random games, for every seat, every seat count and every option
set the kernel is checked on, ``kernel_eval.evaluate`` gives ``State.heuristic`` to 1e-9.
"""

from __future__ import annotations

import pytest

pytest.importorskip("numba")

import boardlab
from boardlab.games.colosseum_offcuts.kernel import make_kernel
from boardlab.games.colosseum_offcuts.kernel_cases import SEAT_COUNTS, SINGLE_OPTIONS
from boardlab.games.colosseum_offcuts.kernel_eval import evaluate
from tests.games.kernel_helpers import compare_evaluations


@pytest.mark.parametrize("players", SEAT_COUNTS)
def test_evaluation_equals_the_heuristic_at_every_seat_count(players: int) -> None:
    kernel = make_kernel(boardlab.make("colosseum-offcuts", players=players))
    values = compare_evaluations(kernel, evaluate, games=3, seed=21)
    # The games ran through positions of many values (captures and threats), not only the start.
    assert len(values) >= 10


@pytest.mark.parametrize("options", SINGLE_OPTIONS, ids=repr)
@pytest.mark.parametrize("players", [2, 3])
def test_evaluation_equals_the_heuristic_with_every_option(
    options: dict[str, object], players: int
) -> None:
    kernel = make_kernel(boardlab.make("colosseum-offcuts", players=players, **options))
    assert compare_evaluations(kernel, evaluate, games=1, seed=21)
