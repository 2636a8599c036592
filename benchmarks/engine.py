"""Benchmark of the two engines: random playouts/s and perft leaves/s, reference vs compiled.

Every game at its default options (Colosseum Offcuts at 2 and 5 seats), measured in rounds
that interleave the engines (reference, compiled, and for Murus Gallicus the C program
``murus_gallicus_playouts.c``, compiled here twice, with ``gcc -O2`` and with ``gcc -O2
-march=native``: the physical-limit anchor). A figure is the median over the rounds; rates are
per CPU second of the measuring process, so they hold on a busy machine. Perft runs both
engines at the same depth: the deepest the reference counts within ``--seconds``. Games
without a kernel show "—". Then, with ``--startup``, the start-up cost: wall and CPU seconds of
``boardlab perft GAME 1`` with the reference, with the compiled engine from cold caches (first
use: compiling) and from warm ones.

With ``--anchor``, only the Murus Gallicus kernel against the two C builds: single-threaded
random playouts from the start at default options, in rounds that alternate the three (the
order rotating each round), every round printed with its ratios, then the medians.

    python benchmarks/engine.py --seconds 1 --rounds 3 --startup
    python benchmarks/engine.py --anchor --seconds 2 --rounds 7
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import boardlab
from boardlab.analysis.bench import bench_perft, bench_playouts
from boardlab.core.engine import Kernel, kernel_for
from boardlab.core.game import Game
from boardlab.core.perft import perft
from boardlab.core.registry import game_ids

C_SOURCE = Path(__file__).with_name("murus_gallicus_playouts.c")
C_BUILDS = {"gcc -O2": ["-O2"], "gcc -O2 -march=native": ["-O2", "-march=native"]}
"""The C anchor's builds: the plain one, and one for this CPU (as Numba compiles for it)."""
Rates = dict[str, list[float]]


def setups() -> list[tuple[str, Game]]:
    """Each game at its defaults; Colosseum Offcuts at 2 and 5 seats."""
    out = []
    for game_id in game_ids():
        if game_id == "colosseum-offcuts":
            for seats in (2, 5):
                out.append((f"{game_id} ({seats} seats)", boardlab.make(game_id, players=seats)))
        else:
            out.append((game_id, boardlab.make(game_id)))
    return out


def timed(run: Callable[[], int], seconds: float) -> float:
    """``run`` repeated for at least ``seconds`` of CPU time: its units per CPU second."""
    units = 0
    begin = time.process_time()
    while True:
        units += run()
        spent = time.process_time() - begin
        if spent >= seconds:
            return units / spent


def playout_rate(game: Game, kernel: Kernel | None, seconds: float, seed: int) -> float:
    result = bench_playouts(game, seconds, seed=seed, kernel=kernel, clock=time.process_time)
    return result.playouts_per_second


def perft_rate(game: Game, kernel: Kernel | None, depth: int, seconds: float) -> float:
    state = game.new_initial_state()
    if kernel is None:
        return timed(lambda: perft(state, depth), seconds)
    from boardlab.core import kernel_drivers

    s = kernel.encode(state)
    return timed(lambda: kernel_drivers.perft(kernel, s, depth), seconds)


def c_programs(folder: Path) -> dict[str, Path]:
    """The C anchor compiled by each of :data:`C_BUILDS` (label: binary)."""
    binaries = {}
    for number, (label, flags) in enumerate(C_BUILDS.items()):
        binary = folder / f"murus_gallicus_playouts_{number}"
        subprocess.run(["gcc", *flags, "-o", str(binary), str(C_SOURCE)], check=True)
        binaries[label] = binary
    return binaries


def c_rate(binary: Path, seconds: float, seed: int) -> tuple[float, float]:
    """(playouts per CPU second, mean plies) of the C program run for about ``seconds``."""
    games = 20_000
    while True:
        fields = subprocess.run(
            [str(binary), str(games), str(seed)], capture_output=True, text=True, check=True
        ).stdout.split()
        spent, rate, plies = float(fields[2]), float(fields[3]), float(fields[4])
        if spent >= seconds / 2:
            return rate, plies
        games = int(games * seconds / max(spent, 1e-3))


def speed_table(seconds: float, rounds: int) -> str:
    games = setups()
    kernels = {name: kernel_for(game) for name, game in games}
    depths = {name: bench_perft(game, seconds).depth for name, game in games}
    rates: Rates = {}
    with tempfile.TemporaryDirectory() as folder:
        binaries = c_programs(Path(folder))
        for round_ in range(rounds):
            for name, game in games:
                kernel = kernels[name]
                for label, engine in (("ref", None), ("fast", kernel)):
                    if label == "fast" and engine is None:
                        continue
                    rates.setdefault(f"{name} {label} playouts", []).append(
                        playout_rate(game, engine, seconds, round_)
                    )
                    rates.setdefault(f"{name} {label} perft", []).append(
                        perft_rate(game, engine, depths[name], seconds)
                    )
                if name == "murus-gallicus":
                    for label, binary in binaries.items():
                        rate, plies = c_rate(binary, seconds, round_)
                        rates.setdefault(f"{label} playouts", []).append(rate)
                        rates.setdefault(f"{label} plies", []).append(plies)
    median = {key: statistics.median(values) for key, values in rates.items()}
    lines = [
        f"Median of {rounds} interleaved rounds, {seconds:g} CPU s per figure "
        f"(load average {os.getloadavg()[0]:.1f}).",
        "",
        "| game | playouts/s reference | playouts/s compiled | speed-up | perft depth "
        "| leaves/s reference | leaves/s compiled | speed-up |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, _ in games:
        ref_p, ref_l = median[f"{name} ref playouts"], median[f"{name} ref perft"]
        fast_p, fast_l = median.get(f"{name} fast playouts"), median.get(f"{name} fast perft")
        lines.append(
            f"| {name} | {ref_p:,.0f} | {_or_dash(fast_p)} | {_ratio(fast_p, ref_p)} "
            f"| {depths[name]} | {ref_l:,.0f} | {_or_dash(fast_l)} | {_ratio(fast_l, ref_l)} |"
        )
    fast_mg = median.get("murus-gallicus fast playouts")
    lines.append("")
    for label in C_BUILDS:
        c_playouts = median[f"{label} playouts"]
        lines.append(
            f"C program ({label}), Murus Gallicus: {c_playouts:,.0f} playouts/s, "
            f"{median[f'{label} plies']:.2f} plies per game; compiled engine / C = "
            f"{_ratio(fast_mg, c_playouts)}."
        )
    return "\n".join(lines)


def anchor_table(seconds: float, rounds: int) -> str:
    """The Murus Gallicus kernel against the C builds, single-threaded, in alternating rounds.

    Each round measures the kernel's random playouts and each C build's for about ``seconds``
    of CPU time, in an order that rotates from round to round; its ratios compare figures taken
    seconds apart, so they hold on a machine whose load changes, where the figures themselves
    do not. Plies per game show that both play the same games (uniformly random decisions to
    the end under the same rules).
    """
    game = boardlab.make("murus-gallicus")
    kernel = kernel_for(game)
    assert kernel is not None, "the compiled engine needs the fast extra (NumPy and Numba)"
    kernel_label = "kernel"
    rates: Rates = {}
    plies: Rates = {}
    lines = [
        f"Murus Gallicus random playouts/s, {rounds} rounds of {seconds:g} CPU s per figure, "
        f"load average {_load()} at the start.",
        "",
        "| round | kernel | "
        + " | ".join(C_BUILDS)
        + " | "
        + " | ".join(f"kernel / {label}" for label in C_BUILDS)
        + " |",
        "|---:" * (2 + 2 * len(C_BUILDS)) + "|",
    ]
    with tempfile.TemporaryDirectory() as folder:
        binaries = c_programs(Path(folder))
        runners: list[tuple[str, Callable[[int], tuple[float, float]]]] = [
            (kernel_label, partial(_kernel_playouts, game, kernel, seconds))
        ]
        for label, binary in binaries.items():
            runners.append((label, partial(c_rate, binary, seconds)))
        for round_ in range(rounds):
            shift = round_ % len(runners)
            for label, run in runners[shift:] + runners[:shift]:
                rate, mean = run(round_)
                rates.setdefault(label, []).append(rate)
                plies.setdefault(label, []).append(mean)
            ratios = [rates[kernel_label][-1] / rates[label][-1] for label in C_BUILDS]
            figures = [rates[label][-1] for label in (kernel_label, *C_BUILDS)]
            lines.append(
                f"| {round_ + 1} | "
                + " | ".join(f"{rate:,.0f}" for rate in figures)
                + " | "
                + " | ".join(f"{ratio:.2f}" for ratio in ratios)
                + " |"
            )
    median_ratios = [
        statistics.median(k / c for k, c in zip(rates[kernel_label], rates[label], strict=True))
        for label in C_BUILDS
    ]
    lines.append(
        "| median | "
        + " | ".join(
            f"{statistics.median(rates[label]):,.0f}" for label in (kernel_label, *C_BUILDS)
        )
        + " | "
        + " | ".join(f"**{ratio:.2f}**" for ratio in median_ratios)
        + " |"
    )
    lines += [
        "",
        "Plies per game: "
        + ", ".join(
            f"{label} {statistics.mean(plies[label]):.3f}" for label in (kernel_label, *C_BUILDS)
        )
        + f". Load average {_load()} at the end.",
    ]
    return "\n".join(lines)


def _kernel_playouts(game: Game, kernel: Kernel, seconds: float, seed: int) -> tuple[float, float]:
    """(playouts per CPU second, mean plies) of the kernel's compiled random playouts."""
    result = bench_playouts(game, seconds, seed=seed, kernel=kernel, clock=time.process_time)
    return result.playouts_per_second, result.mean_decisions


def _load() -> str:
    return "/".join(f"{value:.1f}" for value in os.getloadavg())


def _or_dash(value: float | None) -> str:
    return "—" if value is None else f"{value:,.0f}"


def _ratio(value: float | None, base: float) -> str:
    return (
        "—"
        if value is None
        else f"{value / base:.2f}"
        if value < 10 * base
        else (f"{value / base:.0f}")
    )


def startup_table() -> str:
    """Seconds of ``boardlab perft GAME 1``: reference, compiled cold, compiled warm.

    Each cell is wall / CPU seconds of the whole process (CPU: user + system, children
    included), so a busy machine shows in the wall figure only.
    """
    lines = [
        "| game | reference wall / CPU s | compiled, first use | compiled, cached |",
        "|---|---:|---:|---:|",
    ]
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "NUMBA_CACHE_DIR": folder, "XDG_CACHE_HOME": folder}
        for game_id in game_ids():
            reference = _run(game_id, env, "python")
            if kernel_for(boardlab.make(game_id)) is None:
                lines.append(f"| {game_id} | {_pair(reference)} | — | — |")
                continue
            cold = _run(game_id, env, "fast")
            warm = min((_run(game_id, env, "fast") for _ in range(3)), key=lambda p: p[1])
            lines.append(f"| {game_id} | {_pair(reference)} | {_pair(cold)} | {_pair(warm)} |")
    return "\n".join(lines)


def _run(game_id: str, env: dict[str, str], engine: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one ``boardlab perft GAME 1`` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    begin = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "boardlab", "perft", game_id, "1"],
        env={**env, "BOARDLAB_ENGINE": engine},
        check=True,
        capture_output=True,
    )
    wall = time.perf_counter() - begin
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu


def _pair(seconds: tuple[float, float]) -> str:
    return f"{seconds[0]:.2f} / {seconds[1]:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per figure")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--startup", action="store_true", help="also time start-up")
    parser.add_argument(
        "--anchor", action="store_true", help="only the Murus Gallicus kernel against C"
    )
    args = parser.parse_args()
    if args.anchor:
        print(anchor_table(args.seconds, args.rounds), flush=True)
        return
    print(speed_table(args.seconds, args.rounds), flush=True)
    if args.startup:
        print()
        print(startup_table())


if __name__ == "__main__":
    main()
