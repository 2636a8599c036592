"""Benchmark of MCTS: simulations/s per game, and a match at equal time against the MCTS before it.

Three searches of the same algorithm (``MctsBot``, default ``c`` and ``rollout``):

* ``reference``: tree and rollouts on the reference engine (``BOARDLAB_ENGINE=python``);
* ``before``: the MCTS this session started from (commit ``ac39c81``: tree in Python,
  simulations applied to the kernel, rollouts in the compiled driver), loaded from git;
* ``compiled``: the tree in compiled code (``boardlab/ai/mcts_compiled.py``).

Speed: each search runs ``--seconds`` from the position of ``boardlab bench`` (a few random
decisions in), in ``--rounds`` interleaved rounds; the figure is the median of simulations per
second of search (``--rollout 100000``: rollouts to the end of the game, so no evaluation).
Match (``--match GAME``): ``compiled`` against ``before`` with the same time per decision,
colours alternated, with the win share of decided games and its 95% Wilson interval.

    PYTHONPATH=. python benchmarks/mcts.py --seconds 2 --rounds 3
    PYTHONPATH=. python benchmarks/mcts.py --match murus-gallicus --games 100 --time 0.1
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
import statistics
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path
from types import ModuleType

import boardlab
from boardlab.ai.base import Bot
from boardlab.ai.bench import bench_position
from boardlab.ai.mcts import MctsBot
from boardlab.analysis.match import wilson_interval
from boardlab.core.engine import ENGINE_VARIABLE
from boardlab.core.game import Game

BEFORE = "ac39c81"
SETUPS = [
    ("carnyx", {}),
    ("murus-gallicus", {}),
    ("colosseum-offcuts", {}),
    ("colosseum-offcuts", {"players": 5}),
    ("anacund", {}),
    ("cyvasse", {}),
]


@cache
def before_module() -> ModuleType:
    """``boardlab/ai/mcts.py`` as of commit BEFORE, imported under another name."""
    root = Path(__file__).resolve().parent.parent
    source = subprocess.run(
        ["git", "-C", str(root), "show", f"{BEFORE}:boardlab/ai/mcts.py"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    with tempfile.TemporaryDirectory(prefix="mcts-before-") as folder:
        path = Path(folder) / "mcts_before.py"
        path.write_text(source, encoding="utf-8")
        spec = importlib.util.spec_from_file_location("mcts_before", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["mcts_before"] = module
        spec.loader.exec_module(module)
    return module


def make_bot(kind: str, seed: int, time: float | None, iters: int | None, rollout: int = 4) -> Bot:
    """A bot of ``kind`` (``reference`` is ``compiled`` run under BOARDLAB_ENGINE=python)."""
    if kind == "before":
        bot: Bot = before_module().MctsBot(seed=seed, iters=iters, time=time, rollout=rollout)
        return bot
    return MctsBot(seed=seed, iters=iters, time=time, rollout=rollout)


def choose(kind: str, bot: Bot, view: boardlab.State) -> int:
    """``bot``'s decision, on the reference engine for ``reference``."""
    if kind == "reference":
        os.environ[ENGINE_VARIABLE] = "python"
    try:
        return bot.choose(view)
    finally:
        os.environ.pop(ENGINE_VARIABLE, None)


def speed(seconds: float, rounds: int, rollout: int) -> None:
    kinds = ["reference", "before", "compiled"]
    print("| game | " + " | ".join(f"{k} sims/s" for k in kinds) + " | compiled / reference |")
    print("|---|" + "---:|" * (len(kinds) + 1))
    for game_id, options in SETUPS:
        game = boardlab.make(game_id, **options)
        view = _view(game)
        for kind in kinds:  # compile and load everything before timing
            choose(kind, make_bot(kind, 0, None, 2, rollout), view)
        rates: dict[str, list[float]] = {kind: [] for kind in kinds}
        for round_ in range(rounds):
            for kind in kinds:
                bot = make_bot(kind, round_, seconds, None, rollout)
                choose(kind, bot, view)
                stats = bot.stats()
                rates[kind].append(stats["simulations"] / stats["seconds"])
        medians = [statistics.median(rates[kind]) for kind in kinds]
        name = game_id + (f" ({game.num_players} seats)" if game_id == "colosseum-offcuts" else "")
        cells = " | ".join(f"{m:,.0f}" for m in medians)
        print(f"| {name} | {cells} | {medians[2] / medians[0]:.1f}x |", flush=True)


def _view(game: Game) -> boardlab.State:
    state = bench_position(game)
    while len(state.legal_actions()) < 2:  # a forced decision is not searched
        state.apply_action(state.legal_actions()[0])
    return state.view_state(state.current_player)


def match(game_id: str, games: int, seconds: float, seed: int, rollout: int) -> None:
    """``compiled`` against ``before`` at ``seconds`` per decision, colours alternated."""
    wins = draws = losses = 0
    for index in range(games):
        game = boardlab.make(game_id, seed=seed + index) if game_id == "anacund" else None
        game = game or boardlab.make(game_id)
        compiled_seat = index % 2
        bots = {
            compiled_seat: ("compiled", make_bot("compiled", seed + index, seconds, None, rollout)),
            1 - compiled_seat: ("before", make_bot("before", seed + index, seconds, None, rollout)),
        }
        state = game.new_initial_state()
        while not state.is_terminal():
            seat = state.current_player
            kind, bot = bots[seat]
            state.apply_action(choose(kind, bot, state.view_state(seat)))
        result = state.returns()[compiled_seat]
        wins, draws, losses = wins + (result > 0), draws + (result == 0), losses + (result < 0)
        print(f"game {index + 1}: compiled seat {compiled_seat}, result {result:+.0f}", flush=True)
    decided = wins + losses
    share = wins / decided if decided else math.nan
    low, high = wilson_interval(share, decided) if decided else (0.0, 1.0)
    print(
        f"{game_id}: compiled vs before at {seconds} s/decision, rollout={rollout}, {games} games: "
        f"W {wins} D {draws} L {losses}, share of decided {share:.0%} "
        f"(95% CI {low:.0%} to {high:.0%})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--match", metavar="GAME")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--time", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rollout", type=int, default=4)
    args = parser.parse_args()
    if args.match:
        match(args.match, args.games, args.time, args.seed, args.rollout)
    else:
        speed(args.seconds, args.rounds, args.rollout)


if __name__ == "__main__":
    main()
