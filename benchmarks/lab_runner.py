"""Benchmark of the playtest lab's runner: games/s per core, scaling to 2 jobs, overhead.

For each game and bot, plays ``--games`` traced games with one job and with two, and prints
a markdown table:

* games per CPU second: games over the CPU time the games took (each game measures its own
  process's CPU time), so the figure holds on a busy machine too;
* the wall-clock speed-up of two jobs over one (meaningful only on an otherwise idle machine);
* the runner's own overhead with one job: the run's CPU time beyond its games' CPU time
  (storing each game, handing out the tasks), over the games' CPU time, from the first game
  on (planning the run and opening its store is a fixed cost of a fraction of a second).

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


def measure(game: str, bot: str, games: int, jobs: int, folder: Path) -> tuple[float, float, float]:
    """Wall seconds and this process's CPU seconds from the first game on; the games' CPU."""
    config = LabConfig(game, 1, games, players=(bot,), records=0)
    start: list[float] = []

    def progress(done: int, total: int) -> None:
        if not start:
            start.extend((time.perf_counter(), time.process_time()))

    traces = run_lab(config, folder / f"{game}-{bot}-{jobs}", jobs=jobs, progress=progress)
    wall, cpu = time.perf_counter() - start[0], time.process_time() - start[1]
    return wall, cpu, sum(t.cpu_seconds for t in traces)


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--game", action="append", help="only these games")
    args = parser.parse_args()
    print("| game | bot | games per CPU second | 2 jobs speed-up (wall) | runner overhead |")
    print("|---|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        for game in args.game or game_ids():
            for bot in BOTS:
                wall_one, cpu_one, games_cpu = measure(game, bot, args.games, 1, folder)
                wall_two, _, _ = measure(game, bot, args.games, 2, folder)
                print(
                    f"| {game} | {bot} | {args.games / games_cpu:.1f} "
                    f"| {wall_one / wall_two:.2f}x "
                    f"| {100 * (cpu_one - games_cpu) / games_cpu:.1f}% |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
