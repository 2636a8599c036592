"""Long lock-step differential run of a game's compiled kernel against the reference engine.

Plays ``--games`` seeded random games in both engines, spread round-robin over every option set
of the game's ``kernel_cases.py`` (the sets its tests use), comparing at every decision the
legal action ids, position text, end, returns, seat to move and Zobrist key
(:func:`boardlab.core.engine_check.lockstep`). Stops at the first mismatch, printing its option
set, seed and decision, with exit status 1. Prints progress every ``--report`` seconds. With
``--first`` a run starts later in the same sequence of games: runs over disjoint ranges (in
parallel processes, or one after another) add up to one long run.

    nice python benchmarks/engine_diff.py --game murus-gallicus --games 100000 --seed 1
    nice python benchmarks/engine_diff.py --game cyvasse --first 50000 --games 100000 --seed 7
"""

from __future__ import annotations

import argparse
import sys
import time

import boardlab
from boardlab.core.engine import kernel_for
from boardlab.core.engine_check import EngineMismatch, lockstep, option_sets
from boardlab.core.registry import game_ids


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", required=True, choices=game_ids())
    parser.add_argument(
        "--games", type=int, default=1000, help="play the sequence up to this game (default 1000)"
    )
    parser.add_argument(
        "--first",
        type=int,
        default=0,
        help="start at this game of the sequence: to extend a run or split it over processes",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long")
    parser.add_argument("--report", type=float, default=60.0, help="progress every N seconds")
    args = parser.parse_args()
    setups = []
    # A game with a seed option (random setups) is made with seed 0 unless a set gives one, as
    # in the tests, so that a run repeats exactly.
    seeded = "seed" in boardlab.make(args.game).options
    for options in option_sets(args.game):
        if seeded:
            options = {"seed": 0, **options}
        game = boardlab.make(args.game, **options)
        kernel = kernel_for(game)
        if kernel is None:
            parser.error(f"{args.game} has no compiled kernel here (is numba installed?)")
        setups.append((options, game, kernel))
    start = last = time.perf_counter()
    played, decisions = args.first, 0
    # Option set k plays the games of seed ``seed * 1000 + k`` in order, so a longer run with
    # the same seed extends a shorter one, and runs over disjoint ranges add up.
    while played < args.games:
        index, case = divmod(played, len(setups))
        options, game, kernel = setups[case]
        try:
            decisions += lockstep(game, kernel, 1, args.seed * 1000 + case, first=index)
        except EngineMismatch as error:
            print(f"MISMATCH with options {options}: {error}", flush=True)
            return 1
        played += 1
        now = time.perf_counter()
        if now - last >= args.report:
            last = now
            seconds = now - start
            print(f"up to game {played - 1}: {decisions} decisions, {seconds:.0f} s", flush=True)
        if args.seconds is not None and now - start >= args.seconds:
            break
    print(
        f"{args.game}: games {args.first} to {played - 1} ({played - args.first} games) over "
        f"{len(setups)} option sets, {decisions} decisions compared, no mismatch, "
        f"{time.perf_counter() - start:.0f} s (seed {args.seed})",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
