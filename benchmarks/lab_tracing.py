"""What tracing costs: the lab's CPU per game against a bare loop with the same API.

For ``--games`` games of one game and bot (default: random Murus Gallicus), prints the CPU
milliseconds per game and the ratio to the bare loop of:

* **bare loop**: make the game and its bots from the task's seed, then ``choose`` and
  ``apply_action`` until the end on the reference engine (the same API calls a lab game makes,
  nothing traced): the yardstick of issue 24;
* **bare loop, compiled**: the same games played on the compiled engine
  (:func:`~boardlab.analysis.compiled.play_compiled`, the decisions only), when it is installed
  and the bots can play on it;
* **traced**: :func:`~boardlab.analysis.trace.play_traced` of the same task as the lab plays it
  (every seat's evaluation, decision counts and notation at every decision, a board snapshot
  every ``BOARD_EVERY`` decisions), and without snapshots (``--board-every 0``), on each engine
  (``BOARDLAB_ENGINE`` set for the block: the reference, and the compiled engine when installed);
* **lab run**: ``run_lab`` with one job and the lab's defaults (records of the first five
  games kept, snapshots every ``BOARD_EVERY``, no skill trace): its whole CPU time over its
  games, runner and store included, on each engine.

The per-game ways are measured in alternating blocks of 50 games, so a change in the machine's
load weighs on all of them alike. Each way is warmed up (kernels loaded) before it is timed.

    python benchmarks/lab_tracing.py --games 2000
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from collections.abc import Callable

from boardlab.ai import make_bot
from boardlab.analysis.compiled import Decisions
from boardlab.analysis.lab import LabConfig, run_lab
from boardlab.analysis.trace import BOARD_EVERY, GameTask, play_traced
from boardlab.core.engine import ENGINE_VARIABLE, kernel_for
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


def bare_compiled(task: GameTask) -> bool:
    """The same game's decisions chosen on the compiled engine (after any presets, which the
    bots play on the reference), nothing traced or replayed; False when these bots have no
    whole game in one compiled call (only ``random`` has)."""
    game = make(task.game_id, **dict(task.options))
    rng = random.Random(task.seed)
    bots = [make_bot(spec, game, rng.randrange(2**31)) for spec in task.players]
    ready = [bot for bot in bots if bot is not None]
    source = Decisions(game, ready, False)
    state = game.new_initial_state()
    while source.planned(state, 0) is None:
        if not state.presets_ahead():
            return False
        seat = state.current_player
        state.apply_action(ready[seat].choose(state.view_state(seat)))
    return True


def on(engine: str, play: Callable[[], object]) -> object:
    """``play()`` with ``BOARDLAB_ENGINE`` set to ``engine`` while it runs."""
    before = os.environ.get(ENGINE_VARIABLE)
    os.environ[ENGINE_VARIABLE] = engine
    try:
        return play()
    finally:
        if before is None:
            del os.environ[ENGINE_VARIABLE]
        else:
            os.environ[ENGINE_VARIABLE] = before


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

    engines = {"reference": "python"}
    if kernel_for(make(args.game)) is not None:
        engines["compiled"] = "fast"
    ways: dict[str, Callable[[int], object]] = {"bare loop": lambda i: bare(task(i, 0))}
    if "compiled" in engines and bare_compiled(task(0, 0)):
        ways["bare loop, compiled"] = lambda i: bare_compiled(task(i, 0))
    elif "compiled" in engines:
        print(f"bare loop, compiled: not measured ({args.player} has no compiled whole game)")

    def traced(engine: str, every: int) -> Callable[[int], object]:
        return lambda index: on(engine, lambda: play_traced(task(index, every)))

    for name, engine in engines.items():
        ways[f"traced, {name}, snapshots every {BOARD_EVERY}"] = traced(engine, BOARD_EVERY)
        ways[f"traced, {name}, no snapshots"] = traced(engine, 0)
    spent = dict.fromkeys(ways, 0.0)
    for way in ways.values():
        way(0)
    for start in range(0, args.games, BLOCK):
        for name, way in ways.items():
            cpu = time.process_time()
            for index in range(start, min(start + BLOCK, args.games)):
                way(index)
            spent[name] += time.process_time() - cpu
    config = LabConfig(args.game, 0, args.games, players=players, skill_games=0)
    for name, engine in engines.items():
        with tempfile.TemporaryDirectory() as out:
            cpu = time.process_time()
            on(engine, lambda: run_lab(config, out))
            spent[f"lab run, {name} (1 job, defaults)"] = time.process_time() - cpu
    base = spent["bare loop"]
    print(f"{args.game}, {args.player}, {args.games} games")
    print("| way | CPU ms per game | x bare loop |")
    print("|---|---:|---:|")
    for name, seconds in spent.items():
        print(f"| {name} | {1000 * seconds / args.games:.3f} | {seconds / base:.2f}x |")


if __name__ == "__main__":
    main()
