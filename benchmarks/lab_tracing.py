"""What tracing costs: the lab's CPU per game against a bare loop with the same API.

For ``--games`` games of one game and bot (default: random Murus Gallicus), prints the CPU
milliseconds per game and the ratio to the bare loop of:

* **bare**: make the game and its bots from the task's seed, then ``choose`` and
  ``apply_action`` until the end (the same API calls a lab game makes, nothing traced);
* **traced**: :func:`~boardlab.analysis.trace.play_traced` of the same task as the lab plays
  it (every seat's evaluation, decision counts and notation at every decision, a board
  snapshot every ``BOARD_EVERY`` decisions), and without snapshots (``--board-every 0``);
* **lab run**: ``run_lab`` with one job and the lab's defaults (records of the first five
  games kept, snapshots every ``BOARD_EVERY``): its whole CPU time over its games, runner and
  store included.

The first three are measured in alternating blocks of 50 games, so a change in the machine's
load weighs on all of them alike.

    python benchmarks/lab_tracing.py --games 2000
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from collections.abc import Callable

from boardlab.ai import make_bot
from boardlab.analysis.lab import LabConfig, run_lab
from boardlab.analysis.trace import BOARD_EVERY, GameTask, play_traced
from boardlab.core.registry import make

BLOCK = 50


def bare(task: GameTask) -> None:
    """The game and its bots as the lab makes them, played with no tracing."""
    game = make(task.game_id, **dict(task.options))
    rng = random.Random(task.seed)
    bots = [make_bot(spec, game, rng.randrange(2**31)) for spec in task.players]
    state = game.new_initial_state()
    while not state.is_terminal():
        seat = state.current_player
        bot = bots[seat]
        assert bot is not None
        state.apply_action(bot.choose(state.view_state(seat)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--game", default="murus-gallicus")
    parser.add_argument("--player", default="random")
    args = parser.parse_args()
    seats = make(args.game).num_players
    players = (args.player,) * seats

    def task(index: int, every: int) -> GameTask:
        return GameTask(
            "bench", index, args.game, (), players, tuple(range(seats)), index, board_every=every
        )

    ways: dict[str, Callable[[int], object]] = {
        "bare loop": lambda i: bare(task(i, 0)),
        f"traced, snapshots every {BOARD_EVERY}": lambda i: play_traced(task(i, BOARD_EVERY)),
        "traced, no snapshots": lambda i: play_traced(task(i, 0)),
    }
    spent = dict.fromkeys(ways, 0.0)
    for start in range(0, args.games, BLOCK):
        for name, way in ways.items():
            cpu = time.process_time()
            for index in range(start, min(start + BLOCK, args.games)):
                way(index)
            spent[name] += time.process_time() - cpu
    with tempfile.TemporaryDirectory() as out:
        config = LabConfig(args.game, 0, args.games, players=players, skill_games=0)
        cpu = time.process_time()
        run_lab(config, out)
        spent["lab run (1 job, defaults)"] = time.process_time() - cpu
    base = spent["bare loop"]
    print(f"{args.game}, {args.player}, {args.games} games")
    print("| way | CPU ms per game | x bare loop |")
    print("|---|---:|---:|")
    for name, seconds in spent.items():
        print(f"| {name} | {1000 * seconds / args.games:.3f} | {seconds / base:.2f}x |")


if __name__ == "__main__":
    main()
