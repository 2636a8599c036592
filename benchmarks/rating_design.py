"""How many games the level tournaments need: coverage and separation of neighbouring levels.

Draws ``--repetitions`` round-robins of six players spread like the levels
(``benchmarks/rating_calibration.py``'s ``levels`` design, Davidson-Luce games with
``--draws`` shared first places) at each seat count and number of games per table, and prints
the coverage of the printed 95% rating intervals, the coverage of the intervals of each level's
gap to the level below (what the lobby's rule reads), and the share of those gaps told apart
(the interval leaves out 0): what a design of that size lets the lobby show.

    PYTHONPATH=. python benchmarks/rating_design.py --repetitions 200
"""

from __future__ import annotations

import argparse
import itertools
import random

from boardlab.analysis.ratings import fit
from tests.analysis.test_rating_calibration import LEVELS, tournament

DESIGNS = {2: (8, 16, 24, 40), 3: (3, 12, 24), 4: (4, 12, 24), 5: (5, 15, 30)}
"""Games per table to try at each seat count (the first: today's level tournaments)."""
LADDER = ("random", "easy", "medium", "hard", "expert")
"""The lobby's order; greedy is rated but not a rung."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=200)
    parser.add_argument("--draws", type=float, default=0.0)
    parser.add_argument("--seats", type=int, action="append")
    args = parser.parse_args()
    print(
        "| seats | games per table | games | rating coverage | gap coverage "
        "| gaps told apart (easy, medium, hard, expert) |"
    )
    print("|---:|---:|---:|---:|---:|---|")
    for seats in args.seats or sorted(DESIGNS):
        for per_table in DESIGNS[seats]:
            rng = random.Random(seats * 100 + per_table)
            hits = verdicts = gap_hits = 0
            apart = dict.fromkeys(LADDER[1:], 0)
            played = 0
            for _ in range(args.repetitions):
                games = tournament(rng, seats, args.draws, true=LEVELS, games=per_table)
                played = len(games)
                found = fit(games)
                for player, rating in zip(found.players, found.ratings, strict=True):
                    if player != "random":
                        index = found.players.index(player)
                        half = 1.96 * found.covariance[index, index] ** 0.5
                        hits += abs(rating - LEVELS[player]) <= half
                        verdicts += 1
                for lower, upper in itertools.pairwise(LADDER):
                    _diff, low, high = found.gap(upper, lower)
                    gap_hits += low <= LEVELS[upper] - LEVELS[lower] <= high
                    apart[upper] += low > 0
            told = ", ".join(f"{apart[p] / args.repetitions:.0%}" for p in LADDER[1:])
            print(
                f"| {seats} | {per_table} | {played} | {hits / verdicts:.1%} "
                f"| {gap_hits / (4 * args.repetitions):.1%} | {told} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
