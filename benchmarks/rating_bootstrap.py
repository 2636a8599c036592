"""Rating intervals of a stored tournament against a bootstrap over its games.

Reads a tournament's run directory (``boardlab tournament ... --out DIR``), rates its games,
then rates ``--resamples`` resamples of its games (drawn with replacement) and prints, per
player, the printed 95% interval beside the 2.5th and 97.5th percentiles of the resampled
ratings: on real games, where the model is only a model, the two should agree.

    python benchmarks/rating_bootstrap.py DIR --resamples 400
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import numpy as np

from boardlab.analysis.ratings import rate
from boardlab.analysis.tournament import TournamentConfig, finishes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--resamples", type=int, default=400)
    args = parser.parse_args()
    stored = json.loads((args.run / "config.json").read_text())
    config = TournamentConfig(stored["game"], tuple(stored["players"]), stored["seats"])
    rows = [json.loads(line) for line in (args.run / "games.jsonl").read_text().splitlines()]
    games = finishes(config, rows)
    printed = {r.player: r for r in rate(games)}
    rng = random.Random(0)
    samples: dict[str, list[float]] = {player: [] for player in printed}
    for _ in range(args.resamples):
        for r in rate(rng.choices(games, k=len(games))):
            samples[r.player].append(r.rating)
    print(f"{config.game}, {config.seats} seats, {len(games)} games, {args.resamples} resamples")
    print("| player | rating | printed 95% interval | bootstrap 2.5% to 97.5% |")
    print("|---|---:|---|---|")
    for player, r in printed.items():
        low, high = np.percentile(samples[player], [2.5, 97.5])
        print(
            f"| {player} | {r.rating:.0f} | {r.low:.0f} to {r.high:.0f} | {low:.0f} to {high:.0f} |"
        )


if __name__ == "__main__":
    main()
