"""The longer run of the rating-calibration test: coverage of the printed 95% intervals.

Draws ``--repetitions`` tournaments from known strengths and prints, per cell, the share of
printed intervals holding the true rating, its Wilson 95% interval over the repetitions
(counted conservatively as one verdict each), the mean interval width and the mean rating
error. Cells: 2, 3 and 5 seats; 0%, 30% and 60% of games with a shared first place; three
generators of games:

- ``davidson-luce``: the model the ratings fit (``tests/analysis/test_rating_calibration.py``);
- ``first-seat +100``: the same, with 100 points more for whoever sits first (the fit has no
  seat term; seats rotate);
- ``normal``: normal performances (a Thurstone model, not the fitted one), first place shared
  by everyone within a margin of the best. Its true ratings are what the fit converges to: the
  fit of one tournament of ``--truth-games`` games per table from the same generator.

Designs: ``round-robin`` is the test's (five players, 0 to 400, 300 games); ``levels`` is like
the lobby's level tournaments (six players spread like the levels, 0 to 900, 8 games per pair
at 2 seats, each table once per seating at 3 and 5 seats).

    PYTHONPATH=. python benchmarks/rating_calibration.py --repetitions 400
"""

from __future__ import annotations

import argparse
import random

from boardlab.analysis.ratings import fit, rate
from boardlab.analysis.stats import proportion
from tests.analysis.test_rating_calibration import LEVELS, TRUE, tournament

DESIGNS = {
    "round-robin": (TRUE, {2: 30, 3: 30, 5: 300}),
    "levels": (LEVELS, {2: 8, 3: 3, 4: 4, 5: 5}),
}
GENERATORS = {
    "davidson-luce": (0.0, False),
    "first-seat +100": (100.0, False),
    "normal": (0.0, True),
}
"""Per generator: the first seat's bonus, and whether performances are normal."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=400)
    parser.add_argument("--truth-games", type=int, default=3000)
    parser.add_argument("--design", choices=sorted(DESIGNS), action="append")
    parser.add_argument("--generator", choices=sorted(GENERATORS), action="append")
    parser.add_argument("--seats", type=int, action="append")
    parser.add_argument("--draws", type=float, action="append")
    args = parser.parse_args()
    print(
        "| design | generator | seats | shared first places | verdicts | coverage "
        "| 95% interval (per repetition) | mean width | mean error |"
    )
    print("|---|---|---:|---:|---:|---:|---|---:|---:|")
    for design in args.design or DESIGNS:
        true, games = DESIGNS[design]
        for name in args.generator or GENERATORS:
            generator = GENERATORS[name]
            for seats in args.seats or (2, 3, 5):
                for draws in args.draws or (0.0, 0.3, 0.6):
                    row(args, design, true, games[seats], name, generator, seats, draws)


def row(
    args: argparse.Namespace,
    design: str,
    true: dict[str, float],
    games: int,
    name: str,
    generator: tuple[float, bool],
    seats: int,
    draws: float,
) -> None:
    """One cell of the table."""
    rng = random.Random(1000 * seats + round(100 * draws))
    bonus, normal = generator
    target = dict(true)
    if normal:
        found = fit(tournament(rng, seats, draws, bonus, normal, true, args.truth_games))
        target = {p: float(r) for p, r in zip(found.players, found.ratings, strict=True)}
    hits = verdicts = 0
    widths = errors = 0.0
    for _ in range(args.repetitions):
        for rating in rate(tournament(rng, seats, draws, bonus, normal, true, games)):
            if rating.player != "random":
                hits += round(rating.low) <= target[rating.player] <= round(rating.high)
                verdicts += 1
                widths += rating.high - rating.low
                errors += rating.rating - target[rating.player]
    share = hits / verdicts
    band = proportion(round(share * args.repetitions), args.repetitions)
    print(
        f"| {design} | {name} | {seats} | {draws:.0%} | {verdicts} | {share:.1%} "
        f"| {band.low:.1%} to {band.high:.1%} | {widths / verdicts:.0f} "
        f"| {errors / verdicts:+.0f} |",
        flush=True,
    )


if __name__ == "__main__":
    main()
