"""The null check of the first seat's edge across seat counts: how often fair variants differ.

Draws ``--repetitions`` pairs of variants in which no seat has an edge (each game has no single
winner with the given share, else a winner drawn uniformly among ``K`` seats), compares the
first seat's edge over its fair share (:func:`boardlab.analysis.seat_edge.compare_edges`) and
prints, per design, the share called "real" (p < 0.05; a calibrated test: 5%) and the share of
95% intervals holding 0 (calibrated: 95%).

    PYTHONPATH=. python benchmarks/lab_seat_edge.py --repetitions 2000
"""

from __future__ import annotations

import argparse

import numpy as np

from boardlab.analysis.seat_edge import compare_edges

DESIGNS = (
    # games per variant, seat counts of base and variant, share of games without a winner
    (100, (2, 3), 0.0),
    (400, (2, 3), 0.3),
    (60, (2, 5), 0.5),
    (400, (3, 5), 0.0),
    (1000, (2, 4), 0.6),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=2000)
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    print("| games per variant | seats | draws | called real | intervals holding 0 |")
    print("|---:|---|---:|---:|---:|")
    for games, (seats_a, seats_b), draws in DESIGNS:
        real = held = 0
        for _ in range(args.repetitions):
            decided_a, decided_b = rng.binomial(games, 1 - draws, size=2)
            wins_a = int(rng.binomial(decided_a, 1 / seats_a))
            wins_b = int(rng.binomial(decided_b, 1 / seats_b))
            found = compare_edges(
                (wins_a, int(decided_a), seats_a), (wins_b, int(decided_b), seats_b)
            )
            real += found.p < 0.05
            held += found.low <= 0 <= found.high
        print(
            f"| {games} | {seats_a} vs {seats_b} | {draws:.0%} | "
            f"{real / args.repetitions:.1%} | {held / args.repetitions:.1%} |"
        )


if __name__ == "__main__":
    main()
