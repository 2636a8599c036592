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
from boardlab.core.render_model import SPECTATOR
from boardlab.games.cyvasse import Cyvasse, CyvasseState
from boardlab.games.cyvasse.kernel import make_kernel
from boardlab.games.cyvasse.presets import (
    PRESETS,
    lineup_decisions,
    lineup_from_state,
)
from tests.games.cyvasse.helpers import game
from tests.games.cyvasse.test_protocol import DEPLOYED

SMALL_ARMY = "K1D1H1L1B1C1T1M2"


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


OPTION_VALUES: list[dict[str, object]] = [
    {},
    {"army": SMALL_ARMY},
    {"army": "K1R30M9"},  # 40 items, the most a zone holds
    {"army": "K1D1E1H1L1S1R1B1C1T1M1"},
    {"cavalry_second_optional": True},
    {"losing_attacks": "suicide"},
    {"dragon_blocked_by_dragon": True},
    {"first_tie": "south"},
    {"first_tie": "north"},
    {"first_tie": "random", "seed": 1},
    {"hidden_setup": False},
    {"no_capture_plies": 0},
    {"no_capture_plies": 12},
    {"max_plies": 0},
    {"max_plies": 45},
    {"max_plies": 1},
    {"repetition_draw": 0},
    {"repetition_draw": 1},
    {"repetition_draw": 2, "army": "K1L1M2"},
    # Combinations that change the same rule.
    {"losing_attacks": "suicide", "dragon_blocked_by_dragon": True},
    {"losing_attacks": "suicide", "cavalry_second_optional": True},
    {"no_capture_plies": 0, "max_plies": 0, "army": SMALL_ARMY},
    {"no_capture_plies": 30, "max_plies": 40, "repetition_draw": 2, "army": "K1H1L1M2"},
]


@pytest.mark.parametrize("options", OPTION_VALUES, ids=repr)
def test_lockstep_from_random_deployments(options: dict[str, object]) -> None:
    cyvasse = game(**options)
    assert lockstep(cyvasse, kernel_of(**options), games=6, seed=3) > 0


@pytest.mark.parametrize("options", OPTION_VALUES[:10], ids=repr)
def test_lockstep_from_every_preset_pair(options: dict[str, object]) -> None:
    """Play from each pair of lineups (both seats deploy a preset) where the army fits."""
    kernel = kernel_of(**options)
    cyvasse = kernel.game
    assert isinstance(cyvasse, Cyvasse)
    if len(cyvasse.order) != 19:
        pytest.skip("the built-in presets are for the default army")
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
    veiled = 0
    for index in range(3):
        state = cyvasse.new_initial_state()
        points = set(rng.sample(range(2 * len(state.game.order)), 4)) | {0, len(cyvasse.order)}
        decision = 0
        while not state.is_terminal() and decision < 60:
            if decision in points or (not state.deploying and decision % 25 == 0):
                for seat in (0, 1, SPECTATOR):
                    if seat == SPECTATOR and _spectator_view_is_stuck(state):
                        continue
                    view = state.view_state(seat)
                    veiled += view.veiled >= 0
                    play_on(kernel, view, random.Random(decision), f"game {index} view {seat}")
            state.apply_action(rng.choice(sorted(state.legal_actions())))
            decision += 1
    assert veiled > 0 or not cyvasse.hidden_setup


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
