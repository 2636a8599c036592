"""Benchmark of what a decision costs at each level of a game (or at any bot specs).

Each level's bot (or each ``--spec``) makes one decision, fresh, from each of a few positions,
and the medians of wall-clock and CPU seconds, of the nodes (alpha-beta) or simulations (MCTS)
searched and of the depth finished are printed, with the slowest wall-clock time. The
positions (``--positions``):

* ``walk`` (default): the opening and three positions after a seeded random walk of 8, 16 and
  24 decisions (counted as decisions, not plies: an Anacund game has 36 decisions in 12
  plies), each moved on past forced decisions;
* ``played``: from play: the middle of the searched decisions of each of ``--count`` seeded
  games of ``level:medium`` against itself (in Cyvasse random walks give searches that find a
  forced result within a few plies, which say little about a level's cost).

With ``--reference`` each alpha-beta spec is timed on the reference engine too
(``compiled=false``). Every search is run once before timing, so no figure counts the first
compile.

    python benchmarks/level_costs.py --game anacund
    python benchmarks/level_costs.py --game colosseum-offcuts --option players=4
    python benchmarks/level_costs.py --game anacund --spec mcts:iters=500,rollout=40
    python benchmarks/level_costs.py --game carnyx --positions played --reference
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import boardlab
from boardlab.ai import make_bot
from boardlab.ai.base import Bot
from boardlab.ai.levels import LEVELS, level_spec
from boardlab.core.game import Game
from boardlab.core.state import State


def walked_positions(game: Game) -> list[State]:
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


def played_positions(game: Game, count: int) -> list[State]:
    """The middle positions of ``count`` seeded games of ``level:medium`` against itself: the
    view of the seat to move at the middle of the decisions it searched (no preset, no single
    legal move)."""
    out = []
    for seed in range(count):
        bots = [bot_of(game, "level:medium", seed + seat) for seat in range(game.num_players)]
        state, searched = game.new_initial_state(), []
        while not state.is_terminal():
            view = state.view_state(state.current_player)
            bot = bots[state.current_player]
            state.apply_action(bot.choose(view))
            if "preset" not in bot.stats() and len(view.legal_actions()) > 1:
                searched.append(view)
        out.append(searched[len(searched) // 2])
    return out


def bot_of(game: Game, spec: str, seed: int = 0) -> Bot:
    """A bot of ``spec`` (never a human)."""
    bot = make_bot(spec, game, seed)
    assert bot is not None
    return bot


def runs(game: Game, specs: list[str], reference: bool) -> list[tuple[str, str, str]]:
    """(level name or "—", full spec, engine) of every row: each spec on the compiled engine
    and, with ``reference``, each alpha-beta spec on the reference engine too."""
    out = []
    for spec in specs:
        name = spec.removeprefix("level:")
        full = level_spec(game, name) if name in LEVELS else spec
        label = name if name in LEVELS else "—"
        out.append((label, full, "compiled"))
        if reference and full.startswith("alphabeta"):
            out.append((label, f"{full},compiled=false", "reference"))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="anacund")
    parser.add_argument("--option", action="append", default=[], help="KEY=VALUE game option")
    parser.add_argument("--spec", action="append", default=[], help="bot spec (default: levels)")
    parser.add_argument("--positions", choices=("walk", "played"), default="walk")
    parser.add_argument("--count", type=int, default=8, help="games for --positions played")
    parser.add_argument(
        "--reference", action="store_true", help="alpha-beta on the reference engine too"
    )
    args = parser.parse_args()
    options = dict(option.split("=", 1) for option in args.option)
    game = boardlab.make(args.game, **options)
    specs = args.spec or [f"level:{level}" for level in LEVELS if level != "easy"]
    rows = runs(game, specs, args.reference)
    if args.positions == "walk":
        states = [state.view_state(state.current_player) for state in walked_positions(game)]
        where = "the opening and three random-walk positions"
    else:
        states = played_positions(game, args.count)
        where = f"the middle positions of {args.count} games of `level:medium` against itself"
    for _, spec, _ in rows:  # compile (or load) every search first, from a searched position
        bot_of(game, spec).choose(states[0])
    shown = f"{args.game} {options}" if options else args.game
    print(f"## {shown}: one decision, medians over {where}\n")
    print(
        "| level | spec | engine | wall s | slowest wall s | CPU s "
        "| nodes or simulations | depth finished |"
    )
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for label, spec, engine in rows:
        walls, cpus, work, depths = [], [], [], []
        for state in states:
            bot = bot_of(game, spec)
            wall, cpu = time.perf_counter(), time.process_time()
            bot.choose(state)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
            stats = bot.stats()
            work.append(stats.get("simulations", stats.get("nodes", 0.0)))
            if "depth" in stats:  # alpha-beta only
                depths.append(stats["depth"])
        print(
            f"| {label} | `{spec}` | {engine} | {statistics.median(walls):.3f} "
            f"| {max(walls):.3f} | {statistics.median(cpus):.3f} "
            f"| {statistics.median(work):,.0f} "
            f"| {f'{statistics.median(depths):.0f}' if depths else '—'} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
