"""The compiled Murus Gallicus kernel plays the reference's rules bit for bit."""

from __future__ import annotations

import pytest

pytest.importorskip("numba")

import numpy as np

import boardlab
from boardlab.core import kernel_drivers
from boardlab.core.engine import Kernel, KernelArray
from boardlab.core.engine_check import compare, lockstep, option_sets
from boardlab.core.outcome import Termination
from boardlab.core.perft import perft
from boardlab.core.state import State
from boardlab.games.murus_gallicus import kernel as mg

CASES = option_sets("murus-gallicus")

# Both sides shuffle two home-row towers round a cycle of six moves (found by a search), so
# the start position comes back after 12 plies and again after 24.
CYCLE_START = "GG6/8/8/8/8/8/RR6 R 0"
ROMAN_CYCLE = ["b1-d1", "a1-c1", "c1-a1", "b1-d1", "d1-b1", "c1-a1"]
CYCLE = [m for r in ROMAN_CYCLE for m in (r, r.replace("1", "7"))]


def _kernel(**options: object) -> Kernel:
    return mg.make_kernel(boardlab.make("murus-gallicus", **options))


@pytest.mark.parametrize("options", CASES, ids=[str(c) for c in CASES])
def test_lockstep_random_games_for_every_option_set(options: dict[str, object]) -> None:
    """Raises EngineMismatch at the first decision where the engines differ."""
    game = boardlab.make("murus-gallicus", **options)
    lockstep(game, mg.make_kernel(game), games=10, seed=20)


@pytest.mark.parametrize("board", ["8x7", "8x8", "8x8_two_rows"])
def test_perft_equals_the_reference(board: str) -> None:
    kernel = _kernel(board=board)
    start = kernel.game.new_initial_state()
    s = kernel.encode(start)
    assert [kernel_drivers.perft(kernel, s, d) for d in range(4)] == [
        perft(start, d) for d in range(4)
    ]


def test_perft_five_from_the_start() -> None:
    """The issue's reference count (1,953,664), too slow for the reference in a test."""
    kernel = _kernel()
    assert kernel_drivers.perft(kernel, kernel.encode(kernel.game.new_initial_state()), 5) == (
        1_953_664
    )


def _play_both(
    options: dict[str, object], text: str, moves: list[str]
) -> tuple[State, KernelArray]:
    """Play ``moves`` from ``text`` in both engines, comparing after every decision."""
    kernel = _kernel(**options)
    state = kernel.game.state_from_text(text)
    s = kernel.encode(state)
    compare(kernel, state, s, "start")
    for index, move in enumerate(moves):
        action = state.parse_action(move)
        state.apply_action(action)
        kernel.apply(kernel.params, s, action)
        compare(kernel, state, s, f"after {index + 1} moves")
    return state, s


@pytest.mark.parametrize(("limit", "plies"), [(2, 12), (3, 24)])
def test_repetition_draw_at_the_nth_occurrence(limit: int, plies: int) -> None:
    state, _ = _play_both({"repetition_draw": limit}, CYCLE_START, (CYCLE * 2)[:plies])
    assert state.outcome is not None and state.outcome.termination == Termination.REPETITION


def test_repetition_history_carries_over_from_a_reference_state() -> None:
    """A state encoded mid-cycle keeps the positions seen so far: the draw comes on time."""
    kernel = _kernel(repetition_draw=2)
    state = kernel.game.state_from_text(CYCLE_START)
    for move in CYCLE[:7]:
        state.play(move)
    s = kernel.encode(state)
    for move in CYCLE[7:]:
        action = state.parse_action(move)
        state.apply_action(action)
        kernel.apply(kernel.params, s, action)
        compare(kernel, state, s, move)
    assert kernel.is_over(kernel.params, s) and state.is_terminal()


def test_no_repetition_draw_when_the_rule_is_off() -> None:
    state, _ = _play_both({"repetition_draw": 0}, CYCLE_START, CYCLE * 3)
    assert not state.is_terminal()


@pytest.mark.parametrize(
    ("options", "text", "moves", "termination"),
    [
        ({"max_plies": 400}, "GG1GGGGG/8/2R5/8/8/8/RR1RRRRR R 399", ["a1-a3"], "ply_cap"),
        ({"max_plies": 30}, "GG1GGGGG/8/2R5/8/8/8/RR1RRRRR R 30", [], "ply_cap"),
        # Breakthrough on the last ply before the cap: the win comes first.
        ({"max_plies": 21}, "GG1GGGGG/8/2R5/8/8/8/RR1RRRRR R 20", ["c5-c7"], "home_row"),
        ({}, "8/8/8/4g3/3R4/8/8 R 10", ["d3xe4"], "stalemate"),
        ({}, "gg6/8/6RR/6RG/6RR/8/R7 R 30", ["a1-a3"], "stalemate"),
        ({"board": "8x8"}, "GGGGGGGG/8/8/8/8/8/8/RRRRRRRR R 0", ["d1-d3", "a8-a6"], None),
    ],
)
def test_end_rules_from_positions(
    options: dict[str, object], text: str, moves: list[str], termination: str | None
) -> None:
    state, _ = _play_both(options, text, moves)
    ended = None if state.outcome is None else state.outcome.termination.name.lower()
    assert ended == termination


@pytest.mark.parametrize(
    ("options", "keys"),
    [({}, 401), ({"max_plies": 30}, 31), ({"max_plies": 0}, 1024), ({"repetition_draw": 0}, 0)],
)
def test_a_state_holds_every_turn_start_the_ply_cap_allows(
    options: dict[str, object], keys: int
) -> None:
    """``max_plies + 1`` keys (the positions at plies 0 to the cap); the store's limit without a
    cap; none without the repetition rule."""
    kernel = _kernel(**options)
    assert kernel.encode(kernel.game.new_initial_state()).nbytes == 8 * (mg.HISTORY + keys)


def test_random_playouts_reach_the_reference_game_length() -> None:
    """Uniformly random games last about 32.6 plies in the reference engine too."""
    kernel = _kernel()
    s = kernel.encode(kernel.game.new_initial_state())
    games, decisions = kernel_drivers.random_playouts(kernel, s, 4000, seed=3)
    assert games == 4000 and 31.5 < decisions / games < 33.7
    assert np.array_equal(s, kernel.encode(kernel.game.new_initial_state()))
