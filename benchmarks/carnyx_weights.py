"""Match of two Carnyx evaluations: the current weights against changed ones, same search.

Each game starts from a random setup (the six placements drawn from a seeded generator); the
two games of a pair share it with colours swapped. Both sides are the reference alpha-beta
given by ``--bot`` (with a little root noise); the candidate side plays with the weights of
``boardlab.games.carnyx.evaluation`` set from ``NAME=VALUE`` arguments for the length of its own
decisions. Prints the candidate's score (win 1, draw 1/2) with its 95% Wilson interval.

    BOARDLAB_ENGINE=python python benchmarks/carnyx_weights.py --games 60 HEIGHT_WEIGHT=0.2
"""

from __future__ import annotations

import argparse
import random
import time

import boardlab.games.carnyx.evaluation as evaluation
from boardlab.ai import make_bot
from boardlab.ai.base import Bot
from boardlab.analysis.match import wilson_interval
from boardlab.core.registry import make
from boardlab.core.state import State

WEIGHTS = ("STACK_WEIGHT", "HEIGHT_WEIGHT", "RESERVE_WEIGHT", "ADVANCE_WEIGHT", "SCALE")


class Weighted:
    """A bot that decides with the evaluation's weights set to ``weights``."""

    def __init__(self, bot: Bot, weights: dict[str, float]) -> None:
        self.bot, self.weights = bot, weights

    def choose(self, view: State) -> int:
        current = {name: getattr(evaluation, name) for name in WEIGHTS}
        for name, value in self.weights.items():
            setattr(evaluation, name, value)
        try:
            return self.bot.choose(view)
        finally:
            for name, value in current.items():
                setattr(evaluation, name, value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=60, help="an even number: pairs of games")
    parser.add_argument("--bot", default="alphabeta:depth=2,noise=0.02")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("weights", nargs="+", help="NAME=VALUE, NAME one of " + ", ".join(WEIGHTS))
    args = parser.parse_args()
    candidate = {}
    for item in args.weights:
        name, _, value = item.partition("=")
        if name not in WEIGHTS:
            parser.error(f"unknown weight {name!r}")
        candidate[name] = float(value)
    game = make("carnyx")

    def searcher(seed: int) -> Bot:
        bot = make_bot(args.bot, game, seed)
        if bot is None:
            parser.error(f"{args.bot!r} is not a bot")
        return bot

    score = 0.0
    begin = time.process_time()
    for index in range(args.games):
        seed = args.seed * 100_000 + index
        new = Weighted(searcher(2 * seed), candidate)
        old = Weighted(searcher(2 * seed + 1), {})
        seats = (new, old) if index % 2 == 0 else (old, new)
        state = game.new_initial_state()
        setup = random.Random(args.seed * 100_000 + index // 2)
        for _ in range(6):
            state.apply_action(setup.choice(sorted(state.legal_actions())))
        while not state.is_terminal():
            seat = state.current_player
            state.apply_action(seats[seat].choose(state.view_state(seat)))
        score += (state.returns()[index % 2] + 1) / 2
    low, high = wilson_interval(score / args.games, args.games)
    print(
        f"{args.bot} {candidate}: candidate scores {score / args.games:.3f} "
        f"[{low:.3f}, {high:.3f}] over {args.games} games ({time.process_time() - begin:.0f} s CPU)"
    )


if __name__ == "__main__":
    main()
