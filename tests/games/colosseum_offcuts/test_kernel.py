"""The compiled Colosseum Offcuts kernel plays the reference's rules decision for decision."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba")

from boardlab.core.engine import Kernel, KernelArray
from boardlab.core.engine_check import compare, lockstep
from boardlab.core.outcome import Result, Termination
from boardlab.core.perft import perft
from boardlab.core.registry import make
from boardlab.core.state import State
from boardlab.games.colosseum_offcuts.kernel import make_kernel
from boardlab.games.colosseum_offcuts.kernel_cases import FIVE_SEAT_OPTIONS, SINGLE_OPTIONS

GAME_ID = "colosseum-offcuts"
AFTER_SETUP = "2 -1,-1=1f/-1,0=1b/-1,1=1f/0,0=1b/1,0=2b/2,-1=2f/2,0=2b/2,1=2f 1 - 0 0 8"


def kernel_of(**options: object) -> Kernel:
    """The kernel of the game with these options."""
    return make_kernel(make(GAME_ID, **options))


@pytest.mark.parametrize(("players", "games"), [(2, 8), (3, 3), (4, 2), (5, 1)])
def test_lockstep_every_seat_count(players: int, games: int) -> None:
    """Seeded random games from the initial position, compared at every decision."""
    kernel = kernel_of(players=players)
    assert lockstep(kernel.game, kernel, games, seed=players) > 0


@pytest.mark.parametrize("options", SINGLE_OPTIONS)
@pytest.mark.parametrize("players", [2, 3])
def test_lockstep_every_option(options: dict[str, object], players: int) -> None:
    """Each option value with the others at their defaults, and the combinations above."""
    kernel = kernel_of(players=players, **options)
    assert lockstep(kernel.game, kernel, 4 if players == 2 else 1, seed=7) > 0


@pytest.mark.parametrize("options", FIVE_SEAT_OPTIONS)
def test_lockstep_five_seats_with_options(options: dict[str, object]) -> None:
    """The Mobile-move readings together, and the draw rules together, at five seats."""
    kernel = kernel_of(players=5, **options)
    assert lockstep(kernel.game, kernel, 1, seed=3) > 0


def kernel_perft(kernel: Kernel, s: KernelArray, depth: int) -> int:
    """Perft over the kernel's functions alone (bulk counting at depth 1)."""
    buffer = np.empty(kernel.max_legal, dtype=np.int64)
    count = kernel.legal(kernel.params, s, buffer)
    if depth == 1:
        return int(count)
    total = 0
    for action in buffer[:count].copy():
        child = s.copy()
        kernel.apply(kernel.params, child, action)
        total += kernel_perft(kernel, child, depth - 1)
    return total


def test_perft_after_setup() -> None:
    """The counts of the reference's perft test (26, 632), and depth 3 against the reference."""
    kernel = kernel_of()
    position = kernel.game.state_from_text(AFTER_SETUP)
    s = kernel.encode(position)
    assert [kernel_perft(kernel, s, depth) for depth in (1, 2)] == [26, 632]
    assert kernel_perft(kernel, s, 3) == perft(position, 3)


@pytest.mark.parametrize("players", [3, 5])
def test_perft_through_the_setup(players: int) -> None:
    kernel = kernel_of(players=players)
    state = kernel.game.new_initial_state()
    assert kernel_perft(kernel, kernel.encode(state), 4) == perft(state, 4)


def follow(kernel: Kernel, state: State, moves: list[str]) -> tuple[State, KernelArray]:
    """Play ``moves`` (notation) in both engines from ``state``, comparing after each one."""
    s = kernel.encode(state)
    compare(kernel, state, s, "start")
    for index, move in enumerate(moves):
        for action in state.parse_turn(move):
            state.apply_action(action)
            kernel.apply(kernel.params, s, action)
            compare(kernel, state, s, f"after {index}: {move}")
    return state, s


HOLE = (
    "3 -2,0=2b/-1,-1=2b/-1,0=2f/-1,1=2f/0,-2=3b/0,-1=3b/0,1=3f/0,2=1f/1,-1=3f/1,0=1b/1,1=1b/"
    "2,0=1f 1 - 0 0 40"
)
"""The cell 0,0 is a hole; 0,1 faces it and, above, only the counter on 0,2."""


@pytest.mark.parametrize(("measured", "into_hole"), [("lifted", True), ("before", False)])
def test_a_lifted_counter_opens_a_target_onto_the_hole(measured: str, into_hole: bool) -> None:
    """§6.1, O8: with 0,2 lifted, 0,1 faces the exterior, so 0,0 (the hole) is a destination.

    Measured before lifting, 0,1 is fully enclosed and no target touches the hole.
    """
    kernel = kernel_of(players=3, exposed_edges_measured=measured)
    state = kernel.game.state_from_text(HOLE)
    assert ("m0,2:0,0" in state.legal_moves()) is into_hole
    follow(kernel, state, ["m0,2:0,0+f2,0" if into_hole else "f0,2+f2,0"])


def test_round_of_forced_passes_with_eliminated_seats_on_top() -> None:
    """§9: P1 and P2 pass whole turns, P3 has nothing either: drawn; P4 and P5 (out) lose.

    Every counter of the three seats in the game is buried under Board Pieces of the two
    eliminated seats, so no seat in the game has any action.
    """
    text = "5 0,0=1B1F1F4B/1,0=2B2F5B/2,0=3B3F3F4B/3,0=5B 1 - 4 0 90"
    for ranking, results in (
        ("shared", "DDDLL"),
        ("fortifications", "DLDLL"),
    ):
        kernel = kernel_of(players=5, draw_ranking=ranking)
        state, s = follow(kernel, kernel.game.state_from_text(text), ["pass", "pass"])
        assert state.outcome is not None
        assert state.outcome.termination is Termination.FORCED_PASSES
        assert "".join(r.name[0] for r in state.outcome.results) == results
        rewards = np.zeros(5)
        kernel.returns(kernel.params, s, rewards)
        assert list(rewards) == [{"D": 0.0, "L": -1.0}[r] for r in results]


def test_round_of_forced_passes_met_by_a_second_action_pass_is_not_counted() -> None:
    """§5: a pass at the second action ends the turn and resets the forced-pass counter."""
    kernel = kernel_of()
    text = "2 0,0=2B1B/1,0=2B1B/2,0=2F1F/3,0=2F1F 2 a4,0:3,0x 5 1 60"
    state, s = follow(kernel, kernel.game.state_from_text(text), ["pass"])
    assert not kernel.is_over(kernel.params, s)
    assert state.position_text().endswith(" 1 - 0 0 61")


def test_repetition_draw_by_flips_from_a_played_game() -> None:
    """§9: the third start-of-turn occurrence ends the game, counted from the game's start.

    The game is played from the initial position, so the encoded state carries the history
    (including positions before the capture, which can never recur).
    """
    kernel = kernel_of(players=2, draw_ranking="fortifications")
    state = kernel.game.new_initial_state()
    setup = ["B@0,0", "B@1,0", "B@-1,0", "B@2,0", "F@-1,1", "F@2,1", "F@-1,-1", "F@2,-1"]
    cycle = ["f-1,-1+f-1,-1", "f2,1+f2,1"]
    state, s = follow(kernel, state, [*setup, *cycle])
    assert not state.is_terminal()
    # Encoding mid-game keeps the counts: the next cycle is the third occurrence.
    state, s = follow(kernel, state, cycle)
    assert state.outcome is not None
    assert state.outcome.termination is Termination.REPETITION
    assert kernel.is_over(kernel.params, s)


def test_no_capture_cap_with_fortification_ranking() -> None:
    """§9: after P3's capture it holds the most Fortifications, so the capped game is its win."""
    text = "3 0,0=1f/1,0=2f/2,0=3f/3,0=1f/4,0=3F 3 - 0 0 300"
    kernel = kernel_of(players=3, no_capture_rounds=1, draw_ranking="fortifications")
    start = kernel.game.state_from_text(text)
    state, s = follow(kernel, start, ["a4,0:3,0x+f2,0", "f0,0+f0,0", "f1,0+f1,0"])
    assert not state.is_terminal()
    state, s = follow(kernel, state, ["f3,0+f3,0"])
    assert kernel.is_over(kernel.params, s)
    assert state.outcome is not None
    assert state.outcome.termination is Termination.NO_CAPTURE
    assert state.outcome.results == (Result.LOSS, Result.LOSS, Result.WIN)


def test_elimination_skips_the_seat_and_leaves_its_board_pieces() -> None:
    """§3, §5: P1 captures P2's last Fortification mid-turn; P2's Board Piece stays, P3 moves.

    Then a capture of P3's last Fortification at the first action of a turn wins at once.
    """
    text = "3 0,0=1F/1,0=2f/1,1=2b/2,0=3f/2,1=3b/3,0=1f 1 - 0 0 40"
    kernel = kernel_of(players=3)
    state, s = follow(kernel, kernel.game.state_from_text(text), ["a0,0:1,0x", "f3,0"])
    assert kernel.player(kernel.params, s) == 2
    state, s = follow(kernel, state, ["f2,0+f2,1", "a1,0:2,0x"])
    assert state.outcome is not None
    assert state.outcome.results == (Result.WIN, Result.LOSS, Result.LOSS)
    assert kernel.player(kernel.params, s) == 0


@pytest.mark.parametrize("players", [2, 4])
def test_encoding_a_played_state_continues_the_same_game(players: int) -> None:
    """encode() of a mid-game, mid-turn reference state (its history included) plays on equal."""
    kernel = kernel_of(players=players, no_capture_rounds=2, repetition_draw=2)
    rng = random.Random(5)
    for _ in range(3):
        state = kernel.game.new_initial_state()
        for _ in range(rng.randrange(10, 60)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        s = kernel.encode(state)
        while not state.is_terminal():
            action = rng.choice(sorted(state.legal_actions()))
            state.apply_action(action)
            kernel.apply(kernel.params, s, action)
            compare(kernel, state, s, "continued game")


def test_a_state_after_a_resignation_encodes_and_plays_on() -> None:
    """With 4 seats a resigning seat leaves (its Fortifications go); the kernel plays on equal."""
    kernel = kernel_of(players=4)
    rng = random.Random(11)
    state = kernel.game.new_initial_state()
    while state.ply < 30 or not state.turn_start:
        state.apply_action(rng.choice(state.legal_actions()))
    left = state.after_resignation(state.current_player)
    assert left is not None
    s = kernel.encode(left)
    compare(kernel, left, s, "after the resignation")
    while not left.is_terminal():
        action = rng.choice(sorted(left.legal_actions()))
        left.apply_action(action)
        kernel.apply(kernel.params, s, action)
        compare(kernel, left, s, "played on")


def test_a_history_past_the_states_slots_counts_exactly() -> None:
    """With the cap off and room for 3 keys, the older turn starts go to the store: the third
    occurrence of a position still draws (the kernel raised here)."""
    kernel = make_kernel(make(GAME_ID, no_capture_rounds=0), history=3)
    state = kernel.game.state_from_text("2 0,0=1f/1,0=2f/2,0=1b/3,0=2b 1 - 0 0 20")
    s = kernel.encode(state)
    for move in ["f0,0+f2,0", "f1,0+f1,0", "f0,0+f0,0", "f1,0+f1,0", "f0,0+f0,0"]:
        for action in state.parse_turn(move):
            state.apply_action(action)
            kernel.apply(kernel.params, s, action)
            compare(kernel, state, s, move)
    assert state.outcome is not None and state.outcome.termination is Termination.REPETITION


def test_decisions_far_from_the_origin_keep_their_ids() -> None:
    """Coordinates are absolute and unbounded: a layout far away plays with the same ids."""
    kernel = kernel_of()
    here = kernel.game.state_from_text("2 0,0=2f/1,0=1b/2,0=1f 1 - 0 0 20")
    far = kernel.game.state_from_text(
        "2 4000000000,-7=2f/4000000001,-7=1b/4000000002,-7=1f 1 - 0 0 20"
    )
    buffer = np.empty(kernel.max_legal, dtype=np.int64)
    ids = []
    for state in (here, far):
        count = kernel.legal(kernel.params, kernel.encode(state), buffer)
        ids.append(sorted(int(a) for a in buffer[:count]))
    assert ids[0] == ids[1] == sorted(here.legal_actions())
    follow(kernel, far, far.legal_moves()[:1])


@pytest.mark.parametrize(
    ("text", "players"),
    [
        ("2 0,0=1f/1,0=2b/2,0=1b 1 - 0 0 20", 2),
        ("3 0,0=1f/1,0=2f/2,0=3f/3,0=1f/4,0=3f 1 - 150 0 300", 3),
        ("3 0,0=1B1B1F1F2B2B2F2F3B/1,0=3B 2 - 0 1 70", 3),
    ],
)
def test_positions_that_parse_as_finished_games(text: str, players: int) -> None:
    """encode keeps the outcome of a position text that is a finished game; decode gives it back."""
    kernel = kernel_of(players=players)
    state = kernel.game.state_from_text(text)
    assert state.is_terminal()
    compare(kernel, state, kernel.encode(state), text)
