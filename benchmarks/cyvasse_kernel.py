"""Benchmark of the compiled Cyvasse kernel: load time and random playouts/s against the reference.

Uniformly random games from the initial position (deployment included, default options), in
CPU seconds of this process, interleaved in rounds so a busy machine slows both engines alike.
The kernel's playouts run in one compiled loop over its functions (``legal``, ``apply``).
The first line is the time to make the kernel and call it once: the compile time of its
functions on a cold cache (delete ``boardlab/games/cyvasse/__pycache__/*.nb*`` first), else
the cached load.

    python benchmarks/cyvasse_kernel.py --seconds 5
"""

from __future__ import annotations

import argparse
import random
import time

import numba
import numpy as np

import boardlab
from boardlab.core.engine import Kernel
from boardlab.games.cyvasse import kernel_rules as rules
from boardlab.games.cyvasse.kernel import make_kernel


@numba.njit  # not cached: Numba's cache would not see changes to the kernel's file
def _playouts(p: np.ndarray, start: np.ndarray, size: int, games: int, seed: int) -> int:
    """Play ``games`` random games from ``start``; returns the decisions played."""
    np.random.seed(seed)
    out = np.empty(size, dtype=np.int64)
    s = np.empty_like(start)
    decisions = 0
    for _ in range(games):
        s[:] = start
        while True:
            n = rules.legal(p, s, out)
            if n == 0:
                break
            rules.apply(p, s, out[np.random.randint(n)])
            decisions += 1
    return decisions


def _touch(kernel: Kernel, start: np.ndarray) -> None:
    """Call every kernel function once (each compiles, or loads from the cache, on first use)."""
    p = kernel.params
    s = start.copy()
    out = np.empty(kernel.max_legal, dtype=np.int64)
    kernel.apply(p, s, out[kernel.legal(p, s, out) - 1])
    kernel.returns(p, s, np.zeros(2))
    kernel.is_over(p, s), kernel.player(p, s), kernel.key(p, s)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per engine")
    args = parser.parse_args()
    started = time.process_time()
    game = boardlab.make("cyvasse", seed=0)
    kernel = make_kernel(game)
    start = kernel.encode(game.new_initial_state())
    _touch(kernel, start)
    print(f"kernel made and compiled or loaded: {time.process_time() - started:.2f} s CPU")
    _playouts(kernel.params, start, kernel.max_legal, 1, 0)
    totals = {"reference": [0, 0, 0.0], "kernel": [0, 0, 0.0]}
    rng = random.Random(1)
    for round_index in range(10):
        clock = time.process_time()
        while time.process_time() - clock < args.seconds / 10:
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
                totals["reference"][1] += 1
            totals["reference"][0] += 1
        totals["reference"][2] += time.process_time() - clock
        clock = time.process_time()
        batch = 50
        while time.process_time() - clock < args.seconds / 10:
            played = _playouts(kernel.params, start, kernel.max_legal, batch, round_index)
            totals["kernel"][0] += batch
            totals["kernel"][1] += played
        totals["kernel"][2] += time.process_time() - clock
    rates = {name: games / seconds for name, (games, _, seconds) in totals.items()}
    for name, (games, decisions, seconds) in totals.items():
        print(
            f"{name:9}: {games / seconds:9.1f} playouts/s, {decisions / seconds:11.0f} "
            f"decisions/s ({games} games, {seconds:.1f} s CPU)"
        )
    print(f"kernel / reference: {rates['kernel'] / rates['reference']:.0f}x")


if __name__ == "__main__":
    main()
