"""The power line between seat counts: is a difference of the first seat's edge of the printed
size seen about 80% of the time?

For each design (decided games and seat count of two variants) it sets the true difference of
the first seat's edge over its fair share to the one the power line prints
(:func:`boardlab.analysis.stats.detectable_edge_difference`), draws ``--repetitions`` pairs of
variants (the base seat at its fair share, the other at ``(1 + difference) / K``), compares
them as the report does (:func:`boardlab.analysis.seat_edge.compare_edges`, p < 0.05) and
prints the share seen (calibrated: about 80%).

    PYTHONPATH=. python benchmarks/lab_mixed_power.py --repetitions 1000
"""

from __future__ import annotations

import argparse

import numpy as np

from boardlab.analysis.seat_edge import compare_edges
from boardlab.analysis.stats import detectable_edge_difference

DESIGNS = (
    # decided games and seats of the base, then of the variant
    (100, 2, 90, 3),
    (400, 2, 400, 3),
    (200, 3, 200, 5),
    (60, 2, 60, 5),
)


def main() -> None:
    """Print one row per design: the printed difference and the share of comparisons seeing it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    print(
        "| base: decided games, seats | variant: decided games, seats | printed difference | seen |"
    )
    print("|---|---|---:|---:|")
    for n_a, k_a, n_b, k_b in DESIGNS:
        reach = detectable_edge_difference(n_a, k_a, n_b, k_b)
        wins_a = rng.binomial(n_a, 1 / k_a, args.repetitions)
        wins_b = rng.binomial(n_b, (1 + reach) / k_b, args.repetitions)
        seen = sum(
            compare_edges((int(a), n_a, k_a), (int(b), n_b, k_b)).p < 0.05
            for a, b in zip(wins_a, wins_b, strict=True)
        )
        share = seen / args.repetitions
        print(f"| {n_a}, {k_a} | {n_b}, {k_b} | {reach:.2f} | {100 * share:.1f}% |", flush=True)


if __name__ == "__main__":
    main()
