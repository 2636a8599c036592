"""The compiled Carnyx kernel plays the reference rules bit for bit (issue 20).

Lock-step random games over every option, perft against the reference, and the rare rules
(re-entry, conversion, exits to reserve, hunker and forced capture, forced passes, exhaustion,
repetition draws, ply caps) played from built positions and compared after every decision.
"""

from __future__ import annotations

import pytest

pytest.importorskip("numba")

import numpy as np

import boardlab
from boardlab.core.engine import ENGINE_VARIABLE, Kernel, kernel_for
from boardlab.core.engine_check import compare, lockstep
from boardlab.core.outcome import Termination
from boardlab.core.perft import perft
from boardlab.games.carnyx.kernel import TERMINATIONS, make_kernel
from boardlab.games.carnyx.kernel_cases import OPTION_SETS as OPTIONS
from boardlab.games.carnyx.kernel_rules import STATUS, TERMINATION, WINNER, _check_end
from tests.games.kernel_helpers import kernel_perft, play_both


def kernel_of(**options: object) -> Kernel:
    return make_kernel(boardlab.make("carnyx", **options))


@pytest.mark.parametrize(
    "options",
    OPTIONS,
    ids=lambda options: ",".join(f"{k}={v}" for k, v in options.items()) or "defaults",
)
def test_lockstep_random_games(options: dict[str, object]) -> None:
    """Seeded random games agree at every decision (``lockstep`` raises at the first
    difference: legal ids, position text, end, returns, seat or key)."""
    kernel = kernel_of(**options)
    games = 24 if not options else 6
    assert lockstep(kernel.game, kernel, games=games, seed=20) >= games


AFTER_SETUP = "2(LL)L1/5/5/5/1D(DD)2 D 0,10,0/0,10,0 - - - 6"
MIDGAME = "L3L/2(LDD)2/5/5/D4 D 0,10,0/0,10,0 - - - 20"


@pytest.mark.parametrize(
    ("text", "depth", "count"),
    [
        (None, 4, 625),
        (AFTER_SETUP, 1, 6),
        (AFTER_SETUP, 2, 32),
        (AFTER_SETUP, 4, None),
        (MIDGAME, 4, None),
    ],
)
def test_perft_equals_the_reference(text: str | None, depth: int, count: int | None) -> None:
    """The counts of test_perft_conformance, and deeper ones against the reference's perft."""
    kernel = kernel_of()
    game = kernel.game
    state = game.new_initial_state() if text is None else game.state_from_text(text)
    expected = perft(state, depth) if count is None else count
    assert kernel_perft(kernel, kernel.encode(state), depth) == expected


def test_single_exit_re_enters_on_a_named_home_square() -> None:
    """Spec §6.3, §7.5, fact 10: b5-off@b1 puts the piece back on b1; Light then captures it."""
    state, _ = play_both(kernel_of(), "1D3/5/5/5/L3D D 0,10,0/0,10,0 - - - 22", "b5-off@b1")
    assert state.position_text() == "5/5/5/5/LD2D L 0,10,0/0,10,0 - - - 23"
    assert state.legal_moves() == ["H", "a1xb1"]
    play_both(kernel_of(), "1D3/5/5/5/L3D D 0,10,0/0,10,0 - - - 22", "b5-off@e1 a1-b1 e1-c1")


def test_single_exit_goes_to_reserve_without_a_free_home_square() -> None:
    """Fact 11: every Dark home square is Light's, so b5-off goes to reserve; Dark plays on."""
    state, _ = play_both(kernel_of(), "1D3/5/5/5/LLLLL D 0,10,0/0,5,0 - - - 22", "b5-off H")
    assert not state.is_terminal()
    play_both(kernel_of(single_exit="reserve"), "1D3/5/5/5/L3D D 0,10,0/0,10,0 - - - 22", "b5-off")


@pytest.mark.parametrize(
    ("options", "after"),
    [
        ({}, "L3L/5/5/5/D4 L 0,9,3/0,10,0 - - - 21"),
        ({"conversion": "token"}, "L3L/5/5/5/D4 L 0,10,3/0,10,0 - - - 21"),
    ],
)
def test_stack_exit_converts_the_opponents_pieces(options: dict[str, object], after: str) -> None:
    """Fact 8: a stack exit sends own pieces to reserve and converts each opponent piece."""
    state, _ = play_both(kernel_of(**options), MIDGAME, "c4-off")
    assert state.position_text() == after
    play_both(kernel_of(**options), MIDGAME, "c4-off a5-a4 R@b1 a4-a3")


def test_conversion_stops_when_the_supply_is_empty() -> None:
    """Spec §7.5: with supply 0 the removed Light piece converts nothing; the history restarts."""
    state, _ = play_both(
        kernel_of(), "L3L/2(LDD)2/5/5/D4 D 0,0,0/0,10,0 - - - 20", "c4-off a5-a4 R@b1 a4-a3"
    )
    assert state.position_text().split()[2] == "0,0,1/0,10,0"


def test_hunker_protects_and_frees_from_forced_capture() -> None:
    """Facts 3 and 4: forced capture, hunker down, protection, then a free ply."""
    state, _ = play_both(kernel_of(), "L3L/5/2L2/2D2/D3D L 0,10,0/0,10,0 - - - 11", "H a1-a2")
    assert state.legal_moves() == ["a5-a4", "a5-b5", "c3-b3", "c3-d3", "c3xc2", "e5-d5", "e5-e4"]


def test_capturing_the_last_stack_wins_despite_the_reserve() -> None:
    """Fact 13: Dark captures Light's last stack; Light's 2 reserve pieces do not save it."""
    state, _ = play_both(kernel_of(), "5/5/2L2/2D2/D4 D 0,9,0/0,8,2 - - - 30", "c2xc3")
    assert state.outcome is not None and state.outcome.termination is Termination.ALL_CAPTURED
    assert state.returns() == (1.0, -1.0)


def test_forced_pass() -> None:
    """Fact 14: Dark is free but has nothing to do, so it passes; Light then plays."""
    play_both(kernel_of(), "5/5/L4/DL3/5 D 0,10,0/0,10,0 DL - - 50", "pass a3xa2")


@pytest.mark.parametrize(
    ("text", "termination"),
    [
        ("5/5/5/5/LLLLL D 0,10,0/0,5,0 - - - 22", Termination.EXHAUSTION),
        ("5/5/5/5/LLLLL D 0,10,1/0,5,0 D - p 50", Termination.FORCED_PASSES),
        ("5/5/5/5/D4 L 0,10,0/0,10,3 - - x 31", Termination.ALL_CAPTURED),
    ],
)
def test_end_checks_of_positions_no_game_reaches(text: str, termination: Termination) -> None:
    """Exhaustion and two forced passes arise only in built positions (docs/games/carnyx.md).

    The kernel's own end check, run on the encoded position, finds the reference's ending.
    """
    kernel = kernel_of()
    state = kernel.game.state_from_text(text)
    assert state.outcome is not None and state.outcome.termination is termination
    s = kernel.encode(state)
    s[STATUS] = s[WINNER] = s[TERMINATION] = 0
    _check_end(kernel.params, s)
    assert kernel.is_over(kernel.params, s)
    assert TERMINATIONS[s[TERMINATION]] is termination
    rewards = np.zeros(2)
    kernel.returns(kernel.params, s, rewards)
    assert tuple(rewards) == state.returns()


SHUFFLE = "L3L/5/5/5/D3D D 0,10,0/0,10,0 - - - 10"
CYCLE = "a1-b1 a5-b5 e1-d1 e5-d5 b1-a1 b5-a5 d1-e1 d5-e5"
"""Each side shuffles two singles sideways (no-return forbids only the immediate way back)."""


@pytest.mark.parametrize("limit", [2, 3, 5])
def test_repetition_draw(limit: int) -> None:
    """The position after the cycle's second ply recurs every 8 plies: its N-th occurrence,
    after 2 + 8 (N - 1) plies, is a draw (spec §9)."""
    plies = 2 + 8 * (limit - 1)
    moves = " ".join((CYCLE.split() * limit)[:plies])
    state, _ = play_both(kernel_of(repetition_draw=limit), SHUFFLE, moves)
    assert state.outcome is not None and state.outcome.termination is Termination.REPETITION
    before, _ = play_both(kernel_of(repetition_draw=limit), SHUFFLE, moves.rsplit(" ", 1)[0])
    assert not before.is_terminal()


def test_repetition_counts_survive_encoding_mid_game() -> None:
    """A state encoded after two occurrences carries them: the third one draws in the kernel."""
    kernel = kernel_of()
    state = kernel.game.state_from_text(SHUFFLE)
    for move in (CYCLE.split() * 2)[:10]:
        state.play(move)
    s = kernel.encode(state)
    for move in (CYCLE.split() * 3)[10:18]:
        action = state.parse_action(move)
        state.apply_action(action)
        kernel.apply(kernel.params, s, action)
    assert state.outcome is not None and state.outcome.termination is Termination.REPETITION
    compare(kernel, state, s, "after the third cycle")


def test_ply_cap() -> None:
    """max_plies=14 from ply 10: the game is drawn when the counter reaches 14 (spec §9)."""
    state, _ = play_both(kernel_of(max_plies=14), SHUFFLE, "a1-b1 a5-b5 e1-d1 e5-d5")
    assert state.outcome is not None and state.outcome.termination is Termination.PLY_CAP


def test_a_history_past_the_states_slots_counts_exactly() -> None:
    """The start has no memory entries, so the cycle's first position is the one at ply 12: its
    300th occurrence draws at ply 2,404, after 1,197 turn starts a side, past the 1,024 a
    side's history keeps in the state without a ply cap (the kernel raised there)."""
    kernel = kernel_of(repetition_draw=300, max_plies=0)
    state = kernel.game.state_from_text(SHUFFLE)
    s = kernel.encode(state)
    moves = CYCLE.split()
    while not state.is_terminal():
        action = state.parse_action(moves[(state.ply - 10) % len(moves)])
        state.apply_action(action)
        kernel.apply(kernel.params, s, action)
        assert bool(kernel.is_over(kernel.params, s)) == state.is_terminal()
    assert state.outcome is not None and state.outcome.termination is Termination.REPETITION
    assert state.ply == 12 + 299 * len(moves)
    compare(kernel, state, s, "at the draw")


def test_the_engine_switch_finds_this_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """``BOARDLAB_ENGINE=fast`` gives this module's kernel; ``python`` gives none."""
    game = boardlab.make("carnyx")
    monkeypatch.setenv(ENGINE_VARIABLE, "fast")
    kernel = kernel_for(game)
    assert kernel is not None and kernel.game is game and kernel.legal is kernel_of().legal
    monkeypatch.setenv(ENGINE_VARIABLE, "python")
    assert kernel_for(game) is None
