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


# Side to move, actions left and a Fortification that may not leave its cell (see
# test_colosseum_evaluation.py): each branch of the evaluation, in both engines.
TURN_POSITIONS = [
    "2 -1,-1=1f/-1,0=1b/0,0=1b/0,1=1f/1,0=2b/1,1=2f/2,-1=2f/2,0=2b 1 - 3 0 20",
    "2 -1,-1=1f/-1,0=1b/0,0=1b/0,1=1f/1,0=2b/1,1=2f/2,-1=2f/2,0=2b 2 - 3 0 20",
    "2 -1,-1=1F/-1,0=1b/0,0=1b/0,1=1f/1,0=2b/1,1=2f/2,-1=2f/2,0=2b 1 f-1,-1 3 0 20",
    "2 -1,-1=1f/-1,0=1b/0,0=1b/0,1=1F/1,0=2b/1,1=2f/2,-1=2F/2,0=2b 1 f0,1 3 0 20",
    "2 -1,-1=1f/-1,0=1b/0,0=1b/0,1=1F/1,0=2b/1,1=2f/2,-1=2F/2,0=2b 2 f2,-1 3 0 20",
    "2 -1,0=1b/-1,2=1f/0,0=1b/0,1=2b/0,2=2b/1,1=2f/2,1=2f/2,2=1f 2 - 1 0 9",
    "2 -1,0=1b/-1,2=1f/0,0=1b/0,1=2b/0,2=2b/1,1=2f/2,1=2f/2,2=1f 1 - 1 0 9",
]


@pytest.mark.parametrize("text", TURN_POSITIONS)
def test_evaluation_equals_the_heuristic_on_turn_positions(text: str) -> None:
    game = boardlab.make("colosseum-offcuts")
    kernel = make_kernel(game)
    position = game.state_from_text(text)
    s = kernel.encode(position)
    for seat in (0, 1):
        assert evaluate(kernel.params, s, seat) == pytest.approx(position.heuristic(seat), abs=1e-9)
