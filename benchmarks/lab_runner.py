"""Benchmark of the playtest lab's runner: games/s per core, scaling to 2 jobs, overhead.

For each game and bot, plays ``--games`` traced games with one job and with two, and prints
a markdown table: games per second per core (one job), the speed-up of two jobs, and the
runner's own overhead: wall time minus the games' own time (as each game measured it), over
the games' time, for one job (storing, scheduling, the process pool's start and pickling).

    python benchmarks/lab_runner.py --games 40
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from boardlab.analysis.lab import LabConfig, run_lab
from boardlab.core.registry import game_ids

BOTS = ("random", "level:easy")


def measure(game: str, bot: str, games: int, jobs: int, folder: Path) -> tuple[float, float]:
    """Wall seconds from the first game to the last stored one, and the games' own seconds.

    The clock starts at the run's first progress call, after the run is planned and its store
    opened (a fixed cost of well under a second, whatever the number of games).
    """
    config = LabConfig(game, 1, games, players=(bot,), records=0)
    start: list[float] = []

    def progress(done: int, total: int) -> None:
        if not start:
            start.append(time.perf_counter())

    traces = run_lab(config, folder / f"{game}-{bot}-{jobs}", jobs=jobs, progress=progress)
    return time.perf_counter() - start[0], sum(t.seconds for t in traces)


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--game", action="append", help="only these games")
    args = parser.parse_args()
    print("| game | bot | games/s per core (1 job) | 2 jobs speed-up | runner overhead |")
    print("|---|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        for game in args.game or game_ids():
            for bot in BOTS:
                one, played = measure(game, bot, args.games, 1, folder)
                two, _ = measure(game, bot, args.games, 2, folder)
                print(
                    f"| {game} | {bot} | {args.games / one:.1f} | {one / two:.2f}x "
                    f"| {100 * (one - played) / played:.1f}% |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
