"""Benchmark of the greedy bot: decisions/s on the reference engine and on the compiled one.

Every game at its default options (Colosseum Offcuts at 2 and 5 seats). The positions are the
same for both engines: ``--positions`` positions reached by seeded random decisions (none over,
none in a preset deployment, where no bot searches). Each round times the reference bot, then
the compiled bot, choosing at every position over and over for at least ``--seconds`` of CPU
time; a figure is the median over the rounds, per CPU second (so it holds on a busy machine).
The compiled bot is warmed first: compile time (first use, then cached on disk) is not counted.
A game without a compiled evaluation shows "—" (its greedy bot runs on the reference).

    python benchmarks/greedy.py --seconds 1 --rounds 3
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
from collections.abc import Callable

from engine import setups, timed

from boardlab.ai.greedy import GreedyBot, compiled_scorer
from boardlab.core.engine import ENGINE_VARIABLE
from boardlab.core.game import Game
from boardlab.core.state import State


def positions(game: Game, count: int, seed: int) -> list[State]:
    """``count`` positions of seeded random games in which the bot would search (views of the
    seat to move)."""
    rng = random.Random(seed)
    found: list[State] = []
    state = game.new_initial_state()
    while len(found) < count:
        if state.is_terminal():
            state = game.new_initial_state()
        view = state.view_state(state.current_player)
        if not view.presets() and rng.random() < 0.3:
            found.append(view)
        state.apply_action(rng.choice(state.legal_actions()))
    return found


def warmed_bot(game: Game, views: list[State], engine: str) -> GreedyBot:
    """A greedy bot bound to ``engine`` ("python" or "fast") that has chosen once."""
    os.environ[ENGINE_VARIABLE] = engine
    bot = GreedyBot(seed=1)
    bot.choose(views[0])
    del os.environ[ENGINE_VARIABLE]
    return bot


def decide_all(bot: GreedyBot, views: list[State]) -> Callable[[], int]:
    """A run for :func:`timed`: ``bot`` decides at every view; the decisions made."""

    def run() -> int:
        for view in views:
            bot.choose(view)
        return len(views)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per figure")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--positions", type=int, default=20)
    args = parser.parse_args()
    print(f"{'game':28} {'reference/s':>12} {'compiled/s':>12} {'speed-up':>9}")
    for name, game in setups():
        views = positions(game, args.positions, seed=7)
        reference = warmed_bot(game, views, "python")
        compiled = warmed_bot(game, views, "fast") if compiled_scorer(game) else None
        rates: dict[str, list[float]] = {"reference": [], "compiled": []}
        for _ in range(args.rounds):
            for label, bot in (("reference", reference), ("compiled", compiled)):
                if bot is not None:
                    rates[label].append(timed(decide_all(bot, views), args.seconds))
        slow = statistics.median(rates["reference"])
        if rates["compiled"]:
            fast = statistics.median(rates["compiled"])
            print(f"{name:28} {slow:12.0f} {fast:12.0f} {fast / slow:8.1f}x")
        else:
            print(f"{name:28} {slow:12.0f} {'—':>12} {'—':>9}")


if __name__ == "__main__":
    main()
