"""Checks shared by the tests of the compiled kernels: perft over the kernel's own functions,
a game played move by move in both engines with a comparison after every decision, and the
compiled evaluations against the reference heuristics over seeded random games."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from boardlab.core.engine import Kernel, KernelArray
from boardlab.core.engine_check import compare
from boardlab.core.state import State


def kernel_perft(kernel: Kernel, s: KernelArray, depth: int) -> int:
    """Perft over the kernel's functions (a copy per child, as the reference clones)."""
    if depth == 0:
        return 1
    buffer = np.empty(kernel.max_legal, dtype=np.int64)
    count = kernel.legal(kernel.params, s, buffer)
    if depth == 1:
        return int(count)
    total = 0
    for action in buffer[:count]:
        child = s.copy()
        kernel.apply(kernel.params, child, action)
        total += kernel_perft(kernel, child, depth - 1)
    return total


def play_both(kernel: Kernel, text: str, moves: str = "") -> tuple[State, KernelArray]:
    """Play the space-separated ``moves`` from position ``text`` in both engines, comparing
    them (legal ids, text, end, returns, seat, key) before the first and after every one."""
    state = kernel.game.state_from_text(text)
    s = kernel.encode(state)
    compare(kernel, state, s, f"{text} start")
    for move in moves.split():
        action = state.parse_action(move)
        state.apply_action(action)
        kernel.apply(kernel.params, s, action)
        compare(kernel, state, s, f"{text} after {move}")
    return state, s


def compare_evaluations(
    kernel: Kernel, evaluate: Callable[..., float], games: int, seed: int
) -> set[float]:
    """Play ``games`` seeded random games in both engines; at every position of a game in
    progress, assert that the compiled ``evaluate`` equals the reference ``heuristic`` (to
    1e-9) for every seat. Returns the distinct values seen, so that a test can check that the
    games reached positions the evaluation tells apart."""
    p = kernel.params
    seen: set[float] = set()
    for index in range(games):
        rng = random.Random(f"{seed}:{index}")
        state = kernel.game.new_initial_state()
        s = kernel.encode(state)
        while not state.is_terminal():
            for seat in range(kernel.game.num_players):
                expected = state.heuristic(seat)
                value = evaluate(p, s, seat)
                assert abs(value - expected) <= 1e-9, (
                    f"{kernel.game!r} seed {seed} game {index} ply {state.ply} seat {seat}: "
                    f"compiled {value}, reference {expected} at {state.position_text()}"
                )
                seen.add(expected)
            action = rng.choice(sorted(state.legal_actions()))
            state.apply_action(action)
            kernel.apply(p, s, action)
    return seen
