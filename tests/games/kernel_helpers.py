"""Checks shared by the tests of the compiled kernels: perft over the kernel's own functions,
and a game played move by move in both engines with a comparison after every decision."""

from __future__ import annotations

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
