"""Colosseum Offcuts games of thousands of turns without a capture, on the kernel (issue 37).

With ``no_capture_rounds=0`` only a capture restarts the repetition history, and a footprint can
drift without one for ever. The kernel's history once held 16,384 turn starts and raised past
them (a random 5-seat game went past 19,000).
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numba")

from boardlab.core.engine_check import compare, lockstep
from boardlab.core.outcome import Termination
from boardlab.core.registry import make
from boardlab.core.state import State
from boardlab.games.colosseum_offcuts.kernel import make_kernel
from boardlab.games.colosseum_offcuts.state import ColosseumState
from tests.games.long_games import Policy, play_lockstep, stalling, uniform

GAME_ID = "colosseum-offcuts"


def counters(state: State) -> int:
    """Counters on the board: only a capture lowers it."""
    assert isinstance(state, ColosseumState)
    return sum(len(stack) for stack in state.stacks.values())


STALLING: Policy = stalling(counters)


def flip_back(state: State, rng: random.Random) -> int:
    """Flip a counter, then flip it back: the turn leaves the board as it found it."""
    assert isinstance(state, ColosseumState)
    if state.first is None:
        return state.parse_action(next(m for m in state.legal_moves() if m.startswith("f")))
    return state.parse_action(state.first)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_a_game_without_captures_past_a_tiny_history(players: int) -> None:
    """Room for 4 keys in the state, the rest in the store: 300 decisions of the stalling
    policy, then flips back and forth to the repetition draw, checked at every decision."""
    game = make(GAME_ID, players=players, no_capture_rounds=0)
    kernel = make_kernel(game, history=4)
    state = game.new_initial_state()
    s = kernel.encode(state)
    rng = random.Random(players)
    assert play_lockstep(kernel, state, s, STALLING, rng, decisions=300) == 300
    assert counters(state) == 4 * players
    play_lockstep(kernel, state, s, flip_back, rng)
    assert state.outcome is not None and state.outcome.termination is Termination.REPETITION


def test_a_game_past_the_old_bound_of_16384_turn_starts() -> None:
    """After the setup both seats flip a counter back and forth: the first position of play
    recurs every two turns, and its 8,300th occurrence is a draw, at turn start 16,599."""
    game = make(GAME_ID, no_capture_rounds=0, repetition_draw=8300)
    kernel = make_kernel(game)
    state = game.new_initial_state()
    s = kernel.encode(state)
    rng = random.Random(0)
    play_lockstep(kernel, state, s, uniform, rng, decisions=8)  # the setup
    assert isinstance(state, ColosseumState) and not state.setup
    turns = [[flip_back(state, rng)]]  # each seat's turn, the same two ids every time
    for seat in range(2):
        if seat:
            turns.append([flip_back(state, rng)])
        state.apply_action(turns[seat][0])
        kernel.apply(kernel.params, s, turns[seat][0])
        turns[seat].append(flip_back(state, rng))
        state.apply_action(turns[seat][1])
        kernel.apply(kernel.params, s, turns[seat][1])
    decisions = 12
    while not state.is_terminal():
        action = turns[state.current_player][0 if state.first is None else 1]
        state.apply_action(action)
        kernel.apply(kernel.params, s, action)
        decisions += 1
        assert bool(kernel.is_over(kernel.params, s)) == state.is_terminal()
        if decisions % 4000 == 0:
            compare(kernel, state, s, f"decision {decisions}")
    compare(kernel, state, s, "at the draw")
    assert state.outcome is not None and state.outcome.termination is Termination.REPETITION
    assert decisions == 8 + 2 * 16598


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2, "no_capture_rounds": 0},
        {"players": 2, "repetition_draw": 2},
        {"players": 3, "no_capture_rounds": 1},
        {"players": 5, "no_capture_rounds": 2, "repetition_draw": 2},
    ],
    ids=str,
)
def test_random_games_with_a_tiny_history(options: dict[str, object]) -> None:
    """The draw rules' option sets, with room for 2 keys in the state: the rest past it."""
    game = make(GAME_ID, **options)
    lockstep(game, make_kernel(game, history=2), games=3, seed=37)
