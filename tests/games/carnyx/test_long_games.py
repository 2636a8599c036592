"""Carnyx games of thousands of plies without an irreversible one, on the kernel (issue 37).

Each side's repetition history once held at most 1,024 turn starts (with no ply cap, or one
above 2,052) and the kernel raised past them.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numba")

import boardlab
from boardlab.core.engine_check import lockstep, option_sets
from boardlab.core.outcome import Termination
from boardlab.core.state import State
from boardlab.games.carnyx.kernel import make_kernel
from boardlab.games.carnyx.state import CarnyxState
from tests.games.long_games import Policy, play_lockstep, stalling


def progress(state: State) -> tuple[int, int]:
    """The total supply and the pieces in play: neither ever grows."""
    assert isinstance(state, CarnyxState)
    return state.pools[1] + state.pools[4], sum(map(len, state.board)) + sum(state.pools)


STALLING: Policy = stalling(progress)


@pytest.mark.parametrize(
    ("options", "history", "plies", "termination"),
    [
        # From ply 1,053 on, nothing irreversible: 1,131 turn starts a side by the draw.
        ({"max_plies": 0}, None, 3315, Termination.REPETITION),
        # The same game with 3 keys a side in the state: the rest in the store.
        ({"max_plies": 0}, 3, 3315, Termination.REPETITION),
        ({}, 3, 300, Termination.PLY_CAP),
    ],
)
def test_a_game_without_irreversible_plies_ends_by_the_rules(
    options: dict[str, object], history: int | None, plies: int, termination: Termination
) -> None:
    game = boardlab.make("carnyx", **options)
    kernel = make_kernel(game) if history is None else make_kernel(game, history)
    state = game.new_initial_state()
    s = kernel.encode(state)
    assert play_lockstep(kernel, state, s, STALLING, random.Random(0)) == plies
    assert state.outcome is not None and state.outcome.termination is termination


@pytest.mark.parametrize("options", option_sets("carnyx"), ids=str)
def test_random_games_with_a_tiny_history(options: dict[str, object]) -> None:
    """Every option set, with room for 2 keys a side in the state: the rest always past it."""
    game = boardlab.make("carnyx", **options)
    lockstep(game, make_kernel(game, 2), games=3, seed=37)
