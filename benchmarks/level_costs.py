"""Benchmark of what a decision costs at each level of a game (or at any bot specs).

From the opening and three positions after a seeded random walk of 8, 16 and 24 decisions
(counted as decisions, not plies: an Anacund game has 36 decisions in 12 plies), each moved on
past forced decisions, each level's bot (or each ``--spec``) makes one decision, fresh;
prints the medians of wall-clock and CPU seconds, of the nodes (alpha-beta) or simulations
(MCTS) searched and of the depth finished. Every search is run once before timing, so no
figure counts the first compile.

    python benchmarks/level_costs.py --game anacund
    python benchmarks/level_costs.py --game colosseum-offcuts --option players=4
    python benchmarks/level_costs.py --game anacund --spec mcts:iters=500,rollout=40
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import boardlab
from boardlab.ai import make_bot
from boardlab.ai.levels import LEVELS, level_spec
from boardlab.core.game import Game
from boardlab.core.state import State


def positions(game: Game) -> list[State]:
    """The opening and three positions a seeded random walk of decisions away from it, each
    moved on past forced decisions (which no bot searches)."""
    out = []
    for decisions in (0, 8, 16, 24):
        rng = random.Random(decisions)
        state = game.new_initial_state()
        for _ in range(decisions):
            state.apply_action(rng.choice(state.legal_actions()))
        while len(state.legal_actions()) < 2:
            state.apply_action(state.legal_actions()[0])
        out.append(state)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="anacund")
    parser.add_argument("--option", action="append", default=[], help="KEY=VALUE game option")
    parser.add_argument("--spec", action="append", default=[], help="bot spec (default: levels)")
    args = parser.parse_args()
    options = dict(option.split("=", 1) for option in args.option)
    game = boardlab.make(args.game, **options)
    specs = args.spec or [f"level:{level}" for level in LEVELS if level != "easy"]
    states = positions(game)
    for spec in specs:  # compile (or load) every search first
        warm = make_bot(spec, game, 0)
        assert warm is not None
        warm.choose(states[0].view_state(states[0].current_player))
    print(f"## {args.game} {options or ''}: one decision, medians over the four positions\n")
    print("| level | spec | wall s | CPU s | nodes or simulations | depth finished |")
    print("|---|---|---:|---:|---:|---:|")
    for spec in specs:
        name = spec.removeprefix("level:")
        full = level_spec(game, name) if name in LEVELS else spec
        walls, cpus, work, depths = [], [], [], []
        for state in states:
            bot = make_bot(spec, game, 0)
            assert bot is not None
            wall, cpu = time.perf_counter(), time.process_time()
            bot.choose(state.view_state(state.current_player))
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
            stats = bot.stats()
            work.append(stats.get("simulations", stats.get("nodes", 0.0)))
            if "depth" in stats:  # alpha-beta only
                depths.append(stats["depth"])
        print(
            f"| {name if name in LEVELS else '—'} | `{full}` | {statistics.median(walls):.3f} "
            f"| {statistics.median(cpus):.3f} | {statistics.median(work):,.0f} "
            f"| {f'{statistics.median(depths):.0f}' if depths else '—'} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
