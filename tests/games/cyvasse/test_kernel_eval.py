"""The compiled Cyvasse evaluation equals the reference heuristic (issue 21 item 3).

At every position of seeded random games, for every seat and every option set the kernel is
checked on, ``kernel_eval.evaluate`` gives ``State.heuristic`` to 1e-9.
"""

from __future__ import annotations

import pytest

pytest.importorskip("numba")

from boardlab.games.cyvasse.kernel import make_kernel
from boardlab.games.cyvasse.kernel_cases import OPTION_SETS
from boardlab.games.cyvasse.kernel_eval import evaluate
from tests.games.cyvasse.helpers import game
from tests.games.kernel_helpers import compare_evaluations


@pytest.mark.parametrize("options", OPTION_SETS, ids=repr)
def test_evaluation_equals_the_heuristic(options: dict[str, object]) -> None:
    kernel = make_kernel(game(**options))
    assert compare_evaluations(kernel, evaluate, games=2, seed=21)


def test_the_games_compared_reach_many_values() -> None:
    """The comparison is not confined to the start: the default games run through positions
    of many different values."""
    kernel = make_kernel(game())
    assert len(compare_evaluations(kernel, evaluate, games=2, seed=21)) >= 10
