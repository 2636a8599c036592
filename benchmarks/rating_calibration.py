"""The longer run of the rating-calibration test: coverage of the printed 95% intervals.

Draws ``--repetitions`` tournaments from known strengths at 2, 3 and 5 seats (as
``tests/analysis/test_rating_calibration.py`` does with fewer) and prints, per seat count, the
share of printed intervals holding the true rating, its Wilson 95% interval over the
repetitions (counted conservatively as one verdict each), and the mean interval width.

    PYTHONPATH=. python benchmarks/rating_calibration.py --repetitions 1000
"""

from __future__ import annotations

import argparse
import random

from boardlab.analysis.ratings import rate
from boardlab.analysis.stats import proportion
from tests.analysis.test_rating_calibration import TRUE, tournament


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=1000)
    args = parser.parse_args()
    print("| seats | verdicts | coverage | 95% interval (per repetition) | mean width |")
    print("|---:|---:|---:|---|---:|")
    for seats in (2, 3, 5):
        rng = random.Random(1000 + seats)
        hits = verdicts = 0
        widths = 0.0
        for _ in range(args.repetitions):
            for rating in rate(tournament(rng, seats)):
                if rating.player != "random":
                    hits += round(rating.low) <= TRUE[rating.player] <= round(rating.high)
                    verdicts += 1
                    widths += rating.high - rating.low
        share = hits / verdicts
        # One verdict per repetition: the conservative count of independent verdicts.
        band = proportion(round(share * args.repetitions), args.repetitions)
        print(
            f"| {seats} | {verdicts} | {share:.1%} | {band.low:.1%} to {band.high:.1%} "
            f"| {widths / verdicts:.0f} points |"
        )


if __name__ == "__main__":
    main()
