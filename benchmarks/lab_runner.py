"""Benchmark of the playtest lab's runner: games/s per core, scaling to 2 jobs, overhead.

For each game and bot, plays ``--games`` traced games with one job and with two, and prints
a markdown table:

* games per CPU second: games over the CPU time the games took (each game measures its own
  process's CPU time), so the figure holds on a busy machine too;
* the wall-clock speed-up of two jobs over one (meaningful only on an otherwise idle machine);
* the runner's own overhead with one job: the run's CPU time beyond its games' CPU time
  (deriving each game's seeds and making its task, storing it), over the games' CPU time,
  from the first game to the last one stored. A game's time is what ``play_traced`` measures
  of itself: making the game and its bots, playing it, and building its trace (evaluations,
  decision counts, board snapshots), which is what the lab measures; everything else is the
  runner's;
* the run's fixed cost with one job: the CPU time before the first game (planning the run,
  opening its store) and after the last one (the final fsync, sorting the traces).

    python benchmarks/lab_runner.py --games 60
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from boardlab.analysis.lab import LabConfig, run_lab
from boardlab.core.registry import game_ids

BOTS = ("random", "level:easy")


def measure(game: str, bot: str, games: int, jobs: int, folder: Path) -> dict[str, float]:
    """Wall and this process's CPU seconds from the first game to the last one stored, the
    games' CPU seconds, and the CPU seconds of the run outside that span."""
    config = LabConfig(game, 1, games, players=(bot,), records=0)
    stamps: list[tuple[float, float]] = []

    def progress(done: int, total: int) -> None:
        stamps.append((time.perf_counter(), time.process_time()))

    cpu = time.process_time()
    traces = run_lab(config, folder / f"{game}-{bot}-{jobs}", jobs=jobs, progress=progress)
    cpu = time.process_time() - cpu
    (wall_first, cpu_first), (wall_last, cpu_last) = stamps[0], stamps[-1]
    return {
        "wall": wall_last - wall_first,
        "cpu": cpu_last - cpu_first,
        "games_cpu": sum(t.cpu_seconds for t in traces),
        "fixed_cpu": cpu - (cpu_last - cpu_first),
    }


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--game", action="append", help="only these games")
    args = parser.parse_args()
    print(
        "| game | bot | games per CPU second | 2 jobs speed-up (wall) | runner overhead "
        "| runner per game | fixed cost per run |"
    )
    print("|---|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        for game in args.game or game_ids():
            for bot in BOTS:
                one = measure(game, bot, args.games, 1, folder)
                two = measure(game, bot, args.games, 2, folder)
                runner = one["cpu"] - one["games_cpu"]
                print(
                    f"| {game} | {bot} | {args.games / one['games_cpu']:.1f} "
                    f"| {one['wall'] / two['wall']:.2f}x "
                    f"| {100 * runner / one['games_cpu']:.1f}% "
                    f"| {1e6 * runner / args.games:.0f} µs "
                    f"| {1e3 * one['fixed_cpu']:.0f} ms |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
