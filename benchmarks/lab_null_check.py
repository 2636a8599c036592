"""The null check: how often a run comparing a variant with itself calls a difference real.

Runs ``--runs`` lab runs of random Murus Gallicus, each with the same variant named twice
(which then plays with seeds of its own) and ``--games`` games per variant, and prints how many
runs call any metric's difference "real" (Benjamini-Hochberg controls this at 5% when nothing
differs) and how many rows in all.

    PYTHONPATH=. python benchmarks/lab_null_check.py --runs 40 --games 200
"""

from __future__ import annotations

import argparse
import tempfile

from boardlab.analysis.lab import LabConfig, plan_series, run_lab
from boardlab.analysis.summary import summarize_run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--game", default="murus-gallicus")
    args = parser.parse_args()
    flagged = rows = real = 0
    for seed in range(args.runs):
        config = LabConfig(
            args.game,
            seed,
            args.games,
            players=("random",),
            variants=(("a", {}), ("b", {})),
            skill_games=0,
            records=0,
            board_every=0,
        )
        with tempfile.TemporaryDirectory() as out:
            traces = run_lab(config, out)
        found = summarize_run(config, plan_series(config), traces)["comparisons"][0]["rows"]
        rows += len(found)
        real += sum(row["real"] for row in found)
        flagged += any(row["real"] for row in found)
    print(
        f"{args.runs} runs comparing {args.game} with itself, {args.games} games per variant: "
        f"{flagged} ({flagged / args.runs:.1%}) call some difference real; {real} of {rows} rows"
    )


if __name__ == "__main__":
    main()
