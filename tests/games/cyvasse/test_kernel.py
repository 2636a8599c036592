"""The compiled Cyvasse kernel plays the reference's rules: lock step over every option, from
deployments, from presets and from each seat's view; perft; the rare rules built as positions."""

from __future__ import annotations

import random
from functools import cache

import pytest

pytest.importorskip("numba")

import numpy as np

from boardlab.core.engine import Kernel, KernelArray
from boardlab.core.engine_check import compare, lockstep
from boardlab.core.outcome import Termination
from boardlab.core.render_model import SPECTATOR
from boardlab.games.cyvasse import Cyvasse, CyvasseState
from boardlab.games.cyvasse.board import HEX_NAMES
from boardlab.games.cyvasse.kernel import make_kernel
from boardlab.games.cyvasse.kernel_cases import OPTION_SETS as OPTION_VALUES
from boardlab.games.cyvasse.kernel_cases import SMALL_ARMY
from boardlab.games.cyvasse.presets import (
    PRESETS,
    lineup_decisions,
    lineup_from_state,
)
from tests.games.cyvasse.helpers import board_text, game
from tests.games.cyvasse.test_protocol import DEPLOYED


@cache
def kernel_of(**options: object) -> Kernel:
    """The kernel of a game with these options (seed 0 unless given)."""
    return make_kernel(game(**options))


def play_on(kernel: Kernel, state: CyvasseState, rng: random.Random, where: str) -> int:
    """Random decisions from ``state`` in lock step with the kernel; returns the decisions.

    Every tenth decision the kernel state is encoded afresh from the reference state, so a
    history carried over by ``encode`` must count repetitions as the played one does.
    """
    s = kernel.encode(state)
    decisions = 0
    while True:
        compare(kernel, state, s, f"{where} decision {decisions}")
        if state.is_terminal():
            return decisions
        action = rng.choice(sorted(state.legal_actions()))
        state.apply_action(action)
        kernel.apply(kernel.params, s, action)
        decisions += 1
        if decisions % 10 == 0:
            s = kernel.encode(state)


PRESET_OPTIONS: list[dict[str, object]] = [
    {},
    {"cavalry_second_optional": True},
    {"losing_attacks": "suicide"},
    {"dragon_blocked_by_dragon": True},
]


@pytest.mark.parametrize("options", OPTION_VALUES, ids=repr)
def test_lockstep_from_random_deployments(options: dict[str, object]) -> None:
    cyvasse = game(**options)
    assert lockstep(cyvasse, kernel_of(**options), games=3, seed=3) > 0


@pytest.mark.parametrize("options", PRESET_OPTIONS, ids=repr)
def test_lockstep_from_every_preset_pair(options: dict[str, object]) -> None:
    """Play from each pair of lineups (both seats deploy a preset) where the army fits."""
    kernel = kernel_of(**options)
    cyvasse = kernel.game
    assert isinstance(cyvasse, Cyvasse)
    rng = random.Random(5)
    for south in PRESETS.values():
        for north in PRESETS.values():
            state = cyvasse.new_initial_state()
            for lineup in (south, north):
                for action in lineup_decisions(state, lineup):
                    state.apply_action(action)
            assert not state.deploying
            play_on(kernel, state, rng, f"{options} presets")


@pytest.mark.parametrize(
    "options",
    [{}, {"army": SMALL_ARMY}, {"hidden_setup": False}, {"first_tie": "north", "seed": 4}],
    ids=repr,
)
def test_lockstep_from_each_seats_view(options: dict[str, object]) -> None:
    """From a view (``view_state`` of South, North and a spectator) at points of a real game,
    the kernel plays on exactly as the reference plays on from the same view: the hidden zone
    stays empty until North's deployment completes, then holds the mirror of the other army."""
    kernel = kernel_of(**options)
    cyvasse = kernel.game
    assert isinstance(cyvasse, Cyvasse)
    rng = random.Random(11)
    veiled: set[int] = set()
    for index in range(2):
        state = cyvasse.new_initial_state()
        deploying = 2 * len(cyvasse.order)
        south = rng.randrange(1, len(cyvasse.order))
        north = rng.randrange(len(cyvasse.order) + 1, deploying)
        points = {south, len(cyvasse.order), north, deploying + 9}
        decision = 0
        while not state.is_terminal() and decision <= max(points):
            if decision in points:
                for seat in (0, 1, SPECTATOR):
                    if seat == SPECTATOR and _spectator_view_is_stuck(state):
                        continue
                    view = state.view_state(seat)
                    veiled.add(view.veiled)
                    play_on(kernel, view, random.Random(decision), f"game {index} view {seat}")
            state.apply_action(rng.choice(sorted(state.legal_actions())))
            decision += 1
    assert veiled == ({-1, 0, 1} if cyvasse.hidden_setup else {-1})


def _spectator_view_is_stuck(state: CyvasseState) -> bool:
    """While North deploys, a spectator's view hides North's King placed so far, so neither
    engine can finish that deployment (see the next test)."""
    return state.deploying and state.side == 1 and state.placed > 0 and state.game.hidden_setup


def test_a_spectators_view_of_norths_deployment_cannot_be_played_to_the_end() -> None:
    """The reference raises when the view's deployment completes without North's King (its
    mirror army reflects North's zone, which the spectator's view emptied too); the kernel
    raises as well instead of choosing a first player without Kings."""
    kernel = kernel_of()
    state = game().new_initial_state()
    for action in lineup_decisions(state, PRESETS["classic"]):
        state.apply_action(action)
    north = lineup_decisions(state, PRESETS["vanguard"])
    state.apply_action(north[0])
    view = state.view_state(SPECTATOR)
    s = kernel.encode(view)
    for action in north[1:-1]:
        view.apply_action(action)
        kernel.apply(kernel.params, s, action)
        compare(kernel, view, s, "spectator's view")
    with pytest.raises(ValueError):
        view.apply_action(north[-1])
    with pytest.raises(RuntimeError, match="King is missing"):
        kernel.apply(kernel.params, s, north[-1])


def test_a_view_completing_the_deployment_assumes_the_mirror_army() -> None:
    kernel = kernel_of()
    state = game().new_initial_state()
    for action in lineup_decisions(state, PRESETS["classic"]):
        state.apply_action(action)
    north = lineup_decisions(state, PRESETS["fortress"])
    for action in north[:-1]:
        state.apply_action(action)
    view = state.view_state(1)  # North's view, one item to go: South's army is hidden
    assert view.veiled == 0
    s = kernel.encode(view)
    view.apply_action(north[-1])
    kernel.apply(kernel.params, s, north[-1])
    compare(kernel, view, s, "after North's last placement in its view")
    decoded = kernel.decode(s)
    assert isinstance(decoded, CyvasseState)
    assert lineup_from_state(decoded, 0) == lineup_from_state(decoded, 1) == PRESETS["fortress"]


def test_a_view_parsed_from_text_plays_on_alike() -> None:
    """North's view text at the start of its deployment (South's zone written empty)."""
    kernel = kernel_of()
    view = game().view_from_text("6/7/8/9/10/11/10/9/8/7/6 N d - 0 1")
    assert view.veiled == 0
    assert play_on(kernel, view, random.Random(2), "view text") > 19


def kernel_perft(kernel: Kernel, s: KernelArray, depth: int) -> int:
    """Leaves ``depth`` decisions below ``s``, with the kernel functions only."""
    if depth == 0:
        return 1
    p = kernel.params
    out = np.empty(kernel.max_legal, dtype=np.int64)
    count = kernel.legal(p, s, out)
    if depth == 1:
        return int(count)
    total = 0
    child = np.empty_like(s)
    for action in out[:count]:
        child[:] = s
        kernel.apply(p, child, action)
        total += kernel_perft(kernel, child, depth - 1)
    return total


def test_perft_from_the_deployed_position_of_fact_3() -> None:
    kernel = kernel_of()
    s = kernel.encode(game().state_from_text(DEPLOYED))
    assert [kernel_perft(kernel, s, depth) for depth in (1, 2)] == [149, 17802]


def test_perft_through_the_deployment() -> None:
    kernel = kernel_of(army="K1M1")
    s = kernel.encode(kernel.game.new_initial_state())
    assert kernel_perft(kernel, s, 3) == 40 * 39 * 40


# -- rare rules, built as positions --------------------------------------------------------------


def follow(kernel: Kernel, state: CyvasseState, moves: str) -> KernelArray:
    """Play ``moves`` (decisions joined by spaces) in both engines, comparing after each, and
    every child of each position on the way; returns the kernel state at the end."""
    s = kernel.encode(state)
    compare_children(kernel, state, s)
    for move in moves.split():
        action = state.parse_action(move)
        state.apply_action(action)
        kernel.apply(kernel.params, s, action)
        compare(kernel, state, s, f"after {move}")
        compare_children(kernel, state, s)
    return s


def compare_children(kernel: Kernel, state: CyvasseState, s: KernelArray) -> None:
    """Compare the position after each legal decision (and, inside a cavalry turn, after
    each second jump too)."""
    for action in state.legal_actions():
        child = state.child(action)
        kid = s.copy()
        kernel.apply(kernel.params, kid, action)
        compare(kernel, child, kid, f"{state.position_text()} then {state.action_to_str(action)}")
        if not child.turn_start and not child.is_terminal():
            compare_children(kernel, child, kid)


def outcome_of(kernel: Kernel, s: KernelArray) -> Termination | None:
    outcome = kernel.decode(s).outcome
    return None if outcome is None else outcome.termination


DRAGON_FACTS = [
    # Spec Test fact 11: over a Mountain, own and enemy units; stopped by a Crossbowman.
    "5k/7/2r5/3b5/4r5/11/5S4/5M3/5D2/7/K5 S - - 0 2",
    # Stopped by a Catapult it cannot attack.
    "5k/7/8/3r5/4c5/11/5C4/9/5D2/7/K5 S - - 0 2",
    # Over the enemy Dragon (or stopped by it, with dragon_blocked_by_dragon).
    "5k/7/2r5/9/4d5/11/10/9/5D2/7/K5 S - - 0 2",
    # Against a Trebuchet (attackable only under losing_attacks=suicide), and from the edge.
    "5k/7/8/9/2t7/11/10/9/8/7/DK4 S - - 0 2",
]
DRAGON_OPTIONS: list[dict[str, object]] = [
    {},
    {"dragon_blocked_by_dragon": True},
    {"losing_attacks": "suicide"},
    {"losing_attacks": "suicide", "dragon_blocked_by_dragon": True},
]


@pytest.mark.parametrize("options", DRAGON_OPTIONS, ids=repr)
@pytest.mark.parametrize("text", DRAGON_FACTS)
def test_dragon_lines(text: str, options: dict[str, object]) -> None:
    kernel = kernel_of(**options)
    state = kernel.game.state_from_text(text)
    assert isinstance(state, CyvasseState)
    follow(kernel, state, "")


def test_dragon_facts_of_the_spec() -> None:
    """Spec Test fact 11, read from the kernel's own legal list."""
    names = {
        (DRAGON_FACTS[2], False): ["f3xc9", "f3xe7"],
        (DRAGON_FACTS[2], True): ["f3xe7"],
    }
    for (text, blocked), attacks in names.items():
        kernel = kernel_of(dragon_blocked_by_dragon=blocked)
        state = kernel.game.state_from_text(text)
        s = kernel.encode(state)
        out = np.empty(kernel.max_legal, dtype=np.int64)
        moves = [state.action_to_str(int(a)) for a in out[: kernel.legal(kernel.params, s, out)]]
        assert sorted(m for m in moves if "x" in m) == attacks


TREBUCHET_LINES = [
    # Spec Test fact 7 with a Trebuchet (range 3) for the Catapult: f8 hidden behind f7.
    "5k/7/8/5rr2/5Mr3/5T5/10/9/8/7/K5 S - - 0 2",
    # Mountains on both f7 and g6: the edge between them blocks g7.
    "5k/7/8/5rr2/5Mr3/5TM4/10/9/8/7/K5 S - - 0 2",
    # Targets three away behind one Mountain, beside it and on the long lines.
    "5k/7/3r4/2eM1s3/3b1M4/3d1T1r3/4M5/3r5/8/7/K5 S - - 0 2",
    # North's Trebuchet shooting a Dragon and a Catapult, Crossbowmen of both sides in range.
    "5k/7/8/3t5/2M1Mb4/3D3C3/4B5/9/8/7/K5 N - - 0 2",
]


@pytest.mark.parametrize("text", TREBUCHET_LINES)
def test_trebuchet_lines(text: str) -> None:
    kernel = kernel_of()
    state = kernel.game.state_from_text(text)
    assert isinstance(state, CyvasseState)
    follow(kernel, state, "")


def test_random_positions_with_mountains_and_every_unit() -> None:
    """Scattered units and Mountains (every line of sight and flight): each legal decision,
    and each second jump, gives the same position in both engines."""
    army = "DEEHHLLSSRRRBBCT"
    rng = random.Random(9)
    built = 0
    for options in DRAGON_OPTIONS:
        kernel = kernel_of(**options)
        for _ in range(6):
            units = ["K", "k", "M", "M", "M", "M"]
            units += rng.sample(army, rng.randrange(4, 16))
            units += rng.sample(army.lower(), rng.randrange(4, 16))
            items = dict(zip(rng.sample(range(91), len(units)), units, strict=True))
            state = _position(kernel, items, rng.choice("SN"))
            follow(kernel, state, "")
            built += 1
    assert built == 24


def _position(kernel: Kernel, items: dict[int, str], side: str) -> CyvasseState:
    """The normal-play state with these items (hex -> letter) and ``side`` to move."""
    board = board_text({HEX_NAMES[h]: letter for h, letter in items.items()})
    state = kernel.game.state_from_text(f"{board} {side} - - 0 2")
    assert isinstance(state, CyvasseState)
    return state


@pytest.mark.parametrize("options", [{}, {"cavalry_second_optional": True}], ids=repr)
def test_cavalry_double_jump(options: dict[str, object]) -> None:
    """Spec Test facts 8-10: both jumps, a capture on either, the King taken on the first."""
    kernel = kernel_of(**options)
    fact_8 = "5k/7/8/9/10/4r6/10/9/2L5/7/K5 S - - 0 2"
    for moves in ("c3-c6 c6xe6", "c3-c6 c6-c4", "c3-d5 d5xe6", "c3xe6 e6-e4"):
        state = kernel.game.state_from_text(fact_8)
        assert isinstance(state, CyvasseState)
        follow(kernel, state, moves)
    king = kernel.game.state_from_text("6/7/8/5r3/10/2k8/10/9/2L5/7/K5 S - - 7 40")
    assert isinstance(king, CyvasseState)
    s = follow(kernel, king, "c3xc6")
    assert outcome_of(kernel, s) is Termination.KING_CAPTURED
    # A first jump that leaves no second one ends the turn (the Heavy Horse walled in).
    walled = kernel.game.state_from_text("5k/7/8/9/10/11/10/9/MM6/HMM4/K5 S - - 0 2")
    assert isinstance(walled, CyvasseState)
    follow(kernel, walled, "")


def test_cavalry_suicide_ends_the_turn() -> None:
    kernel = kernel_of(losing_attacks="suicide")
    state = kernel.game.state_from_text("5k/7/8/9/10/11/4s5/9/4L3/7/K5 S - - 0 2")
    assert isinstance(state, CyvasseState)
    follow(kernel, state, "e3xe5")


def test_repetition_draw_also_with_the_history_carried_by_encode() -> None:
    cycle = "a1-b1 f11-e11 b1-a1 e11-f11"
    kernel = kernel_of()
    state = kernel.game.state_from_text("5k/7/8/9/10/11/10/9/8/7/K5 S - - 0 2")
    assert isinstance(state, CyvasseState)
    s = follow(kernel, state, f"{cycle} {cycle}")
    assert outcome_of(kernel, s) is Termination.REPETITION
    # Encoded after one cycle, the kernel state knows the start occurred twice already.
    again = kernel.game.state_from_text("5k/7/8/9/10/11/10/9/8/7/K5 S - - 0 2")
    assert isinstance(again, CyvasseState)
    for move in cycle.split():
        again.play(move)
    s = follow(kernel, again, cycle)
    assert outcome_of(kernel, s) is Termination.REPETITION
    off = kernel_of(repetition_draw=0)
    state = off.game.state_from_text("5k/7/8/9/10/11/10/9/8/7/K5 S - - 0 2")
    assert isinstance(state, CyvasseState)
    assert outcome_of(off, follow(off, state, f"{cycle} {cycle} {cycle}")) is None


def test_a_capture_restarts_the_repetition_history() -> None:
    """Positions before a removal never come back, so the kernel forgets them; the first
    position after the capture is then the one that repeats (repetition_draw=2)."""
    kernel = kernel_of(repetition_draw=2)
    text = "5k/7/8/9/10/11/10/9/r7/7/K5 S - - 0 2"
    state = kernel.game.state_from_text(text)
    assert isinstance(state, CyvasseState)
    s = follow(kernel, state, "a1-b1 a3-a2 b1xa2 f11-e11 a2-a1 e11-f11 a1-a2")
    assert outcome_of(kernel, s) is Termination.REPETITION


@pytest.mark.parametrize(
    ("text", "moves", "options", "termination"),
    [
        ("5k/7/8/9/10/11/10/9/8/7/K5 S - - 0 499", "a1-a2", {}, Termination.PLY_CAP),
        # The cap waits for the cavalry's second jump (the turn's end).
        ("5k/7/8/9/10/11/10/9/2L5/7/K5 S - - 0 499", "c3-c6", {}, None),
        ("5k/7/8/9/10/11/10/9/2L5/7/K5 S - - 0 499", "c3-c6 c6-c4", {}, Termination.PLY_CAP),
        ("5k/7/8/9/10/11/10/9/8/7/K5 S - - 0 40", "a1-a2", {"max_plies": 41}, Termination.PLY_CAP),
        ("5k/7/8/9/10/11/10/9/8/7/K5 S - - 99 120", "a1-a2", {}, Termination.NO_CAPTURE),
        ("5k/7/8/9/10/11/10/9/8/7/K5 S - - 99 120", "a1-a2", {"no_capture_plies": 0}, None),
        ("5k/7/8/9/10/11/10/9/r7/7/K5 S - - 99 120", "a1xa3", {}, None),
        (
            "6/7/8/9/10/11/10/9/8/7/6 S d - 0 0",
            "K@a1",
            {"army": "K1", "max_plies": 1},
            Termination.PLY_CAP,
        ),
    ],
)
def test_caps(
    text: str, moves: str, options: dict[str, object], termination: Termination | None
) -> None:
    kernel = kernel_of(**options)
    state = kernel.game.state_from_text(text)
    assert isinstance(state, CyvasseState)
    assert outcome_of(kernel, follow(kernel, state, moves)) is termination


def test_forced_passes() -> None:
    """South is walled in and passes; North then moves a cavalry turn with the pass flag
    kept (ERRATA), and a second forced pass in a row draws."""
    kernel = kernel_of()
    state = kernel.game.state_from_text("4tk/5MM/8/9/10/11/10/9/8/MM5/KT4 S - - 0 2")
    assert isinstance(state, CyvasseState)
    assert outcome_of(kernel, follow(kernel, state, "pass")) is Termination.FORCED_PASSES
    horse = kernel.game.state_from_text("4tk/5MM/8/9/5l4/11/10/9/8/MM5/KT4 S - - 0 2")
    assert isinstance(horse, CyvasseState)
    s = follow(kernel, horse, "pass f7-f6")
    assert kernel.decode(s).position_text().split()[2:4] == ["f7-f6", "p"]
    follow(kernel, horse, "f6-f7 pass")
