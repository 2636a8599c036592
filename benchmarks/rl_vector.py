"""Batched environments vs PettingZoo: steps per second with observations and masks.

For every game the batched API can run (a compiled kernel and a compiled observation
encoder; the others are listed as skipped with the reason), in ``--rounds`` interleaved rounds:

* ``batched N``: :class:`boardlab.rl.vector.BatchedGame` with ``N`` games (1, 64, 1024),
  stepping all of them with uniformly random legal actions (drawn by the compiled
  ``random_actions``), observations of the seat to move, dense and compact masks written
  (compact only for Colosseum Offcuts at five seats, also measured); ``N`` steps per call;
* ``pettingzoo``: the same game through the PettingZoo AEC loop (``last()`` then ``step``,
  the policy drawing from the observation's mask), one step at a time.

And, as anchors, Pgx's connect four and othello at batch 1024 on the CPU when ``pgx`` and
``jax`` import (benchmark only, never a dependency of Boardlab; skipped with a note
otherwise). Figures are steps per **wall** second (the batched API runs on every core) and
per CPU second of the process (all threads), with the load average printed before and after,
as the machine may be shared. Run::

    python benchmarks/rl_vector.py --seconds 2 --rounds 3

* ``vector env …``: :class:`boardlab.rl.vector.VectorEnv` at batch 1024, the learner's random
  actions against compiled bots (``random``, ``level:easy``, ``level:medium``), with its default
  copies of every array returned, and against ``random`` without them (``copy=False``); one
  learner step per game per call (the bots' decisions inside it).

The threading is what a user gets (:mod:`boardlab.rl.threads`: OpenMP's threads wait
passively unless ``OMP_WAIT_POLICY``, ``GOMP_SPINCOUNT`` or ``NUMBA_THREADING_LAYER`` is set)
and is printed. ``--busy N`` keeps N other processes spinning in a busy loop for the whole run
(at ``--busy-nice``), so that the figures are those of a machine whose other cores are taken.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from boardlab.core.registry import game_ids
from boardlab.rl import pettingzoo_env
from boardlab.rl.threads import described
from boardlab.rl.vector import BatchedGame, VectorEnv, VectorError, seeded_generators

VARIANTS: list[tuple[str, str, dict[str, Any], bool]] = [
    *((game_id, game_id, {}, True) for game_id in game_ids()),
    # 237,161 action ids at five seats: the batched API writes only the compact masks.
    ("colosseum-offcuts 5 seats", "colosseum-offcuts", {"players": 5}, False),
]
"""``(label, game, options, dense masks)`` of every figure."""

Measure = Callable[[float], tuple[int, float, float]]
"""Runs for about the given wall seconds; returns (steps, wall seconds, CPU seconds)."""


def batched(game: BatchedGame) -> Measure:
    """Random steps of every game of ``game``'s batch at once."""
    batch = game.init(seed=1)
    policy = seeded_generators(7, game.batch)
    game.step(batch, game.random_actions(batch, policy))  # compiled and loaded before timing

    def run(seconds: float) -> tuple[int, float, float]:
        steps = 0
        wall, cpu = time.perf_counter(), time.process_time()
        while time.perf_counter() - wall < seconds:
            for _ in range(16):
                game.step(batch, game.random_actions(batch, policy))
            steps += 16 * game.batch
        return steps, time.perf_counter() - wall, time.process_time() - cpu

    return run


def vector_env(game_id: str, batch: int, opponent: str, copy: bool) -> Measure:
    """The learner's uniformly random steps in every game of a :class:`VectorEnv`."""
    env = VectorEnv(game_id, batch, opponent=opponent, copy=copy)
    _, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    rows = np.arange(batch)

    def act(info: dict[str, Any]) -> Any:
        pick = (rng.random(batch) * info["legal_count"]).astype(np.int64)
        return info["legal_ids"][rows, pick]

    info = env.step(act(info))[4]  # compiled and loaded before timing

    def run(seconds: float) -> tuple[int, float, float]:
        nonlocal info
        steps = 0
        wall, cpu = time.perf_counter(), time.process_time()
        while time.perf_counter() - wall < seconds:
            info = env.step(act(info))[4]
            steps += batch
        return steps, time.perf_counter() - wall, time.process_time() - cpu

    return run


@contextmanager
def busy_loops(count: int, niceness: int) -> Iterator[None]:
    """``count`` other processes spinning in a busy loop (at ``niceness``) while in the block."""
    loops = [
        subprocess.Popen(
            [sys.executable, "-c", f"import os; os.nice({niceness})\nwhile True: pass"]
        )
        for _ in range(count)
    ]
    try:
        yield
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


def pettingzoo(game_id: str, options: dict[str, Any]) -> Measure:
    """Random games through the usual AEC loop, the policy reading the mask."""
    env = pettingzoo_env(game_id, **options)
    rng = random.Random(0)

    def run(seconds: float) -> tuple[int, float, float]:
        steps = 0
        wall, cpu = time.perf_counter(), time.process_time()
        while time.perf_counter() - wall < seconds:
            env.reset()
            for _ in env.agent_iter():
                observation, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
                steps += 1
        return steps, time.perf_counter() - wall, time.process_time() - cpu

    return run


def pgx_anchor(env_id: str, batch: int) -> Measure | None:
    """Pgx's ``env_id`` at ``batch`` on the CPU (jit of vmapped step), or None without Pgx."""
    try:
        import jax
        import jax.numpy as jnp
        import pgx  # type: ignore[import-untyped]
    except ImportError:
        return None
    env = pgx.make(env_id)
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(env.step))

    @jax.jit
    def act(key: Any, state: Any) -> Any:
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        return jax.random.categorical(key, logits, axis=-1)

    key = jax.random.PRNGKey(0)
    state = init(jax.random.split(key, batch))
    state = step(state, act(key, state))
    jax.block_until_ready(state)  # type: ignore[no-untyped-call]

    def run(seconds: float) -> tuple[int, float, float]:
        nonlocal state, key
        steps = 0
        wall, cpu = time.perf_counter(), time.process_time()
        while time.perf_counter() - wall < seconds:
            for _ in range(16):
                key, sub = jax.random.split(key)
                state = step(state, act(sub, state))
            jax.block_until_ready(state.observation)  # type: ignore[no-untyped-call]
            steps += 16 * batch
        return steps, time.perf_counter() - wall, time.process_time() - cpu

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="wall seconds per figure")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--batches", default="1,64,1024")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument(
        "--opponents", default="random,level:easy,level:medium",
        help="the VectorEnv loops' bots (comma-separated specs; empty: none)",
    )  # fmt: skip
    parser.add_argument("--busy", type=int, default=0, help="busy-loop processes alongside")
    parser.add_argument("--busy-nice", type=int, default=0, help="their niceness")
    args = parser.parse_args()
    sizes = [int(size) for size in args.batches.split(",")]
    opponents = [spec for spec in args.opponents.split(",") if spec]
    print(f"load average before: {os.getloadavg()}, cores: {os.cpu_count()}")
    loops: dict[tuple[str, str], Measure] = {}
    for label, game_id, options, dense in VARIANTS:
        if args.game and game_id not in args.game:
            continue
        mask = "" if dense else " (compact mask)"
        try:
            for size in sizes:
                game = BatchedGame(game_id, size, dense_mask=dense, **options)
                loops[label, f"batched {size}{mask}"] = batched(game)
        except VectorError as error:
            print(f"{label}: batched API skipped: {error}")
            continue
        if dense and not options:
            for spec in opponents:
                loops[label, f"vector env 1024 vs {spec}"] = vector_env(game_id, 1024, spec, True)
            if "random" in opponents:
                loops[label, "vector env 1024 vs random, copy=False"] = vector_env(
                    game_id, 1024, "random", False
                )
        loops[label, "pettingzoo"] = pettingzoo(game_id, options)
    for env_id in ("connect_four", "othello"):
        anchor = pgx_anchor(env_id, 1024)
        if anchor is None:
            print("pgx: not installed here (pgx and jax do not import): no Pgx anchors")
            break
        loops[f"pgx {env_id}", "batched 1024"] = anchor
    print(f"threading: {described()}")
    print(f"busy loops alongside: {args.busy} (nice {args.busy_nice})")
    wall_rates: dict[tuple[str, str], list[float]] = {name: [] for name in loops}
    cpu_rates: dict[tuple[str, str], list[float]] = {name: [] for name in loops}
    with busy_loops(args.busy, args.busy_nice):
        print(f"load average at the start: {os.getloadavg()}")
        for _ in range(args.rounds):
            for name, measure in loops.items():
                steps, wall, cpu = measure(args.seconds)
                wall_rates[name].append(steps / wall)
                cpu_rates[name].append(steps / cpu)
        print(f"load average after: {os.getloadavg()}")
    print("| game | loop | steps/s wall | steps/s CPU | vs PettingZoo (wall) | (CPU) |")
    print("|---|---|---:|---:|---:|---:|")
    for (game_id, loop), rates in wall_rates.items():
        wall = statistics.median(rates)
        cpu = statistics.median(cpu_rates[game_id, loop])
        base, base_cpu = (
            wall_rates.get((game_id, "pettingzoo")),
            cpu_rates.get((game_id, "pettingzoo")),
        )
        ratio = f"{wall / statistics.median(base):.1f}x" if base else ""
        ratio_cpu = f"{cpu / statistics.median(base_cpu):.1f}x" if base_cpu else ""
        print(f"| {game_id} | {loop} | {wall:,.0f} | {cpu:,.0f} | {ratio} | {ratio_cpu} |")


if __name__ == "__main__":
    main()
