"""Cyvasse games of more than a thousand turns without a removal, on the kernel (issue 37).

With both caps off (``no_capture_plies=0``, ``max_plies=0``) only a removal restarts the
repetition history; the kernel's held 1,000 turn starts and raised past them.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numba")

from boardlab.core.engine_check import lockstep
from boardlab.core.outcome import Termination
from boardlab.core.state import State
from boardlab.games.cyvasse.kernel import make_kernel
from boardlab.games.cyvasse.kernel_cases import SMALL_ARMY
from boardlab.games.cyvasse.state import CyvasseState
from tests.games.cyvasse.helpers import game
from tests.games.long_games import hastening, play_lockstep, stalling

# Kings, a Rabble and a Light Horse, in normal play.
SPARSE = "5k/7/8/9/10/4r6/10/9/2L5/7/K5 S - - 0 2"
UNCAPPED = {"no_capture_plies": 0, "max_plies": 0}


def units(state: State) -> int:
    """Occupied hexes: only a removal lowers it (Mountains never move)."""
    assert isinstance(state, CyvasseState)
    return sum(1 for cell in state.board if cell)


@pytest.mark.parametrize("history", [None, 5])
def test_a_game_without_removals_past_a_thousand_turns(history: int | None) -> None:
    """1,600 decisions of the stalling policy (1,066 turn starts, some turns being a cavalry
    double jump, and no repetition draw among them), then the hastening policy to the end (a
    King taken), checked at every decision; with the default state and with room for 5 keys in
    it (the rest in the store)."""
    cyvasse = game(**UNCAPPED)
    kernel = make_kernel(cyvasse) if history is None else make_kernel(cyvasse, history)
    state = cyvasse.state_from_text(SPARSE)
    s = kernel.encode(state)
    rng = random.Random(0)
    assert play_lockstep(kernel, state, s, stalling(units), rng, decisions=1600) == 1600
    assert units(state) == 4 and state.ply == 1068
    play_lockstep(kernel, state, s, hastening(units), rng)
    assert state.outcome is not None and state.outcome.termination is Termination.KING_CAPTURED


@pytest.mark.parametrize(
    "options",
    [
        {"army": SMALL_ARMY, **UNCAPPED},
        {"repetition_draw": 2, "army": "K1", "no_capture_plies": 0},  # random play repeats
        {"no_capture_plies": 30, "max_plies": 40, "repetition_draw": 2, "army": "K1H1L1M2"},
    ],
    ids=str,
)
def test_random_games_with_a_tiny_history(options: dict[str, object]) -> None:
    """The draw rules' option sets, with room for 2 keys in the state: the rest past it."""
    cyvasse = game(**options)
    lockstep(cyvasse, make_kernel(cyvasse, 2), games=3, seed=37)
