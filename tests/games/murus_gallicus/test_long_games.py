"""Murus Gallicus games of hundreds of turns without a sacrifice, on the kernel (issue 37).

A learning agent plays such games within minutes; uniformly random play never does. The
kernel's repetition history once held 112 turn starts and raised past them.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numba")


import boardlab
from boardlab.ai import make_bot
from boardlab.ai.search import compiled_search
from boardlab.core.engine_check import compare, lockstep, option_sets
from boardlab.core.outcome import Termination
from boardlab.core.state import State
from boardlab.games.murus_gallicus import kernel as mg
from boardlab.games.murus_gallicus.state import MurusGallicusState
from tests.games.long_games import Policy, play_lockstep, stalling

# Both sides shuffle two home-row towers round a cycle of six moves, so the start position
# comes back after 12 plies and again after 24 (as in test_kernel.py).
CYCLE_START = "GG6/8/8/8/8/8/RR6 R 0"
ROMAN_CYCLE = ["b1-d1", "a1-c1", "c1-a1", "b1-d1", "d1-b1", "c1-a1"]
CYCLE = [m for r in ROMAN_CYCLE for m in (r, r.replace("1", "7"))]


def stones(state: State) -> int:
    """Stones on the board: only a sacrifice lowers it."""
    assert isinstance(state, MurusGallicusState)
    return sum((2 - index % 2) * bits.bit_count() for index, bits in enumerate(state.bits))


def towers(state: State, seat: int) -> float:
    """Both sides' towers: a side left without one cannot move, and the game ends."""
    assert isinstance(state, MurusGallicusState)
    return state.bits[0].bit_count() + state.bits[2].bit_count()


STALLING: Policy = stalling(stones, towers)


def stalled(options: dict[str, object], plies: int, seed: int) -> MurusGallicusState:
    """The reference position after ``plies`` plies of the stalling policy (none a sacrifice)."""
    state = boardlab.make("murus-gallicus", **options).new_initial_state()
    rng = random.Random(seed)
    start = stones(state)
    for _ in range(plies):
        state.apply_action(STALLING(state, rng))
    assert isinstance(state, MurusGallicusState)
    assert not state.is_terminal() and stones(state) == start
    return state


@pytest.mark.parametrize(
    ("options", "seed"),
    [
        ({}, 4),
        # Documented safe, yet its 113th turn start overflowed.
        ({"max_plies": 112}, 0),
        ({"board": "8x8_two_rows"}, 1),
    ],
)
def test_a_game_without_a_sacrifice_runs_to_the_ply_cap(
    options: dict[str, object], seed: int
) -> None:
    """Raised HistoryOverflow at ply 112, the 113th turn start."""
    game = boardlab.make("murus-gallicus", **options)
    kernel = mg.make_kernel(game)
    state = game.new_initial_state()
    start = stones(state)
    s = kernel.encode(state)
    play_lockstep(kernel, state, s, STALLING, random.Random(seed))
    assert state.outcome is not None and state.outcome.termination is Termination.PLY_CAP
    assert state.ply == game.max_plies and stones(state) == start
    assert kernel.truncated is not None and kernel.truncated(kernel.params, s)


def shuffle(state: State, rng: random.Random) -> int:
    """The next move of ``CYCLE`` (both sides shuffle two home-row towers back and forth)."""
    return state.parse_action(CYCLE[state.ply % len(CYCLE)])


@pytest.mark.parametrize(
    ("options", "plies", "termination"),
    [
        # Each position of the cycle occurs every 12 plies: the 100th time at ply 1,188, past
        # the 1,024 keys a state holds without a ply cap (older keys move out of the state).
        ({"repetition_draw": 100, "max_plies": 0}, 1188, Termination.REPETITION),
        # A cap of 1,000 plies: 1,001 turn starts, all kept in the state.
        ({"repetition_draw": 100, "max_plies": 1000}, 1000, Termination.PLY_CAP),
    ],
)
def test_shuffling_towers_back_and_forth_ends_by_the_rules(
    options: dict[str, object], plies: int, termination: Termination
) -> None:
    """No sacrifice ever: the repetition rule counts occurrences over the whole game."""
    kernel = mg.make_kernel(boardlab.make("murus-gallicus", **options))
    state = kernel.game.state_from_text(CYCLE_START)
    s = kernel.encode(state)
    assert play_lockstep(kernel, state, s, shuffle, random.Random(0)) == plies
    assert state.outcome is not None and state.outcome.termination is termination


@pytest.mark.parametrize("history", [1, 2, 5])
@pytest.mark.parametrize(("limit", "plies"), [(2, 12), (3, 24)])
def test_repetitions_are_counted_past_a_tiny_history(history: int, limit: int, plies: int) -> None:
    """With room for ``history`` keys in the state, the earlier occurrences of the cycle's
    positions have left it by the time they recur: the draw still comes at the N-th one,
    played from the start or from a state encoded at any point of the cycle."""
    kernel = mg.make_kernel(boardlab.make("murus-gallicus", repetition_draw=limit), history)
    for encoded_at in range(plies):
        state = kernel.game.state_from_text(CYCLE_START)
        for move in (CYCLE * 2)[:encoded_at]:
            state.play(move)
        s = kernel.encode(state)
        for index in range(encoded_at, plies):
            action = state.parse_action(CYCLE[index % len(CYCLE)])
            state.apply_action(action)
            kernel.apply(kernel.params, s, action)
            compare(kernel, state, s, f"encoded after {encoded_at}, {index + 1} moves")
        assert state.outcome is not None and state.outcome.termination is Termination.REPETITION


@pytest.mark.parametrize("options", option_sets("murus-gallicus"), ids=str)
def test_random_games_with_a_tiny_history(options: dict[str, object]) -> None:
    """Every option set, with room for 2 keys in the state: the rest always past it."""
    game = boardlab.make("murus-gallicus", **options)
    lockstep(game, mg.make_kernel(game, 2), games=4, seed=37)


def test_the_compiled_search_late_in_a_long_game() -> None:
    """One ply before the cap, after 399 plies without a sacrifice, every decision is a draw by
    the cap, and the search says so. Encoding the position raised HistoryOverflow, and the bots
    fell back to the reference search."""
    state = stalled({}, 399, seed=4)
    children = [state.child(action) for action in state.legal_actions()]
    assert all(
        c.outcome is not None and c.outcome.termination is Termination.PLY_CAP for c in children
    )
    search = compiled_search(state.game)
    assert search is not None
    s = search.kernel.encode(state)
    actions = state.legal_actions()
    result = search.run(s, actions, [0.0] * len(actions), 3, None, None)
    assert result.best in actions and result.depth >= 1 and result.value == 0.0
    earlier = stalled({}, 300, seed=4)
    bot = make_bot("level:hard", earlier.game, seed=1)
    assert bot is not None
    assert bot.choose(earlier) in earlier.legal_actions()
    assert bot.stats()["compiled"] == 1.0
