"""Coverage of the report's interval of a mean of per-game shares (forced decisions).

Plays ``--population`` random games of each game, takes the mean of their forced-decision
shares as the truth, then draws ``--repetitions`` samples of 10, 40 and 100 of those games (with
replacement) and prints the share of the report's 95% intervals (``summary.estimate``) that hold
the truth. Games where nearly every game has no forced decision (random Murus Gallicus) are the
hard case: a sample of games that all show 0% printed "0% [0, 0]" before, and missed.

    PYTHONPATH=. python benchmarks/lab_share_intervals.py --game murus-gallicus --game anacund
"""

from __future__ import annotations

import argparse
import random
import tempfile
from statistics import fmean

from boardlab.analysis.lab import LabConfig, run_lab
from boardlab.analysis.summary import METRICS_BY_KEY, estimate, values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append")
    parser.add_argument("--population", type=int, default=2000)
    parser.add_argument("--repetitions", type=int, default=400)
    args = parser.parse_args()
    metric = METRICS_BY_KEY["forced"]
    print("| game | games without a forced decision | games per sample | coverage |")
    print("|---|---:|---:|---:|")
    for game in args.game or ["murus-gallicus", "anacund"]:
        config = LabConfig(game, 5, args.population, players=("random",), skill_games=0)
        with tempfile.TemporaryDirectory() as out:
            traces = run_lab(config, out)
        found = values(metric, traces)
        truth = fmean(found)
        none = sum(share == 0 for share in found) / len(found)
        rng = random.Random(1)
        for size in (10, 40, 100):
            hits = 0
            for _ in range(args.repetitions):
                interval = estimate(metric, rng.choices(traces, k=size))
                assert interval is not None
                hits += interval.low <= truth <= interval.high
            print(f"| {game} | {none:.1%} | {size} | {hits / args.repetitions:.1%} |", flush=True)


if __name__ == "__main__":
    main()
