"""Benchmark of strength: the new ``expert`` against today's at the same time per decision.

Today's bot is the search module of the game's ``expert`` (``boardlab/ai/alphabeta.py``, or
``boardlab/ai/mcts.py`` for Anacund) as it was at ``--baseline`` (read with ``git show``),
playing today's ``expert`` level spec of the game with its time budget replaced by
``--seconds``; the new bot plays the game's ``expert`` spec now, with the same budget. Colours
alternate from game to game; each game has its own seeds, and a game with chance (Anacund's
layout) gives both games of a pair of colourings the same layout. Prints wins, draws and losses
of the new bot (also as the first and as the second seat), its score share with a 95% Wilson
interval, and the mean depth (alpha-beta) or simulations per decision (MCTS) each side reached.

Today's bot evaluates with the game's ``heuristic`` of this tree, so a better evaluation helps
both sides. With ``--baseline-evaluation`` it evaluates as at ``--baseline`` instead (the game's
``evaluation.py`` read with ``git show``; Carnyx and Colosseum Offcuts have one): the whole of
today's bot, search and evaluation, against the whole new one.

    python benchmarks/strength.py --game murus-gallicus --games 100 --seconds 0.1
    python benchmarks/strength.py --game anacund --games 100 --seconds 0.1
    python benchmarks/strength.py --game colosseum-offcuts --games 100 --baseline-evaluation
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import boardlab
from boardlab.ai import make_bot
from boardlab.ai.base import Bot
from boardlab.ai.levels import level_spec
from boardlab.analysis.match import wilson_interval
from boardlab.core.registry import game_class
from boardlab.core.state import State

ROOT = Path(__file__).resolve().parent.parent

TODAY_EXPERT: dict[str, tuple[str, dict[str, Any]]] = {
    "murus-gallicus": ("alphabeta", {"depth": 4, "noise": 0.02}),
    "carnyx": ("alphabeta", {"depth": 5, "noise": 0.02}),
    "colosseum-offcuts": ("alphabeta", {"depth": 4, "noise": 0.02}),
    "cyvasse": ("alphabeta", {"depth": 3, "noise": 0.02}),
    "anacund": ("mcts", {"iters": 4000, "rollout": 40}),
}
"""Today's ``expert`` levels: the search module and its settings without the time budget."""

CLASSES = {"alphabeta": "AlphaBetaBot", "mcts": "MctsBot"}
"""The bot class of each search module."""


def baseline_module(commit: str, source_path: str, name: str) -> ModuleType:
    """The module ``source_path`` (relative to the repository) as it was at ``commit``."""
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{commit}:{source_path}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    path = Path(tempfile.mkdtemp(prefix="boardlab-baseline-")) / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[name] = loaded  # its dataclasses and annotations look the module up by name
    spec.loader.exec_module(loaded)
    return loaded


def baseline_class(commit: str, module: str) -> type[Bot]:
    """The bot class of ``boardlab/ai/<module>.py`` as it was at ``commit``."""
    loaded = baseline_module(commit, f"boardlab/ai/{module}.py", f"{module}_baseline")
    bot_class: type[Bot] = getattr(loaded, CLASSES[module])
    return bot_class


def baseline_view(commit: str, game_id: str) -> Callable[[State], State]:
    """A function giving a copy of a state whose ``heuristic`` is the game's ``evaluate`` of
    ``boardlab/games/<package>/evaluation.py`` as it was at ``commit`` (and so its children's)."""
    package = game_id.replace("-", "_")
    loaded = baseline_module(
        commit, f"boardlab/games/{package}/evaluation.py", f"{package}_evaluation_baseline"
    )
    evaluate = loaded.evaluate
    classes: dict[type[State], type[State]] = {}

    def view(state: State) -> State:
        base = type(state)
        if base not in classes:
            classes[base] = type(
                f"Baseline{base.__name__}",
                (base,),
                {"heuristic": lambda self, player: evaluate(self, player)},
            )
        copy = state.clone()
        copy.__class__ = classes[base]  # clone() and child() keep the class
        return copy

    return view


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="murus-gallicus", choices=sorted(TODAY_EXPERT))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=0.1, help="budget per decision")
    parser.add_argument("--baseline", default="ac39c81", help="commit of today's bot")
    parser.add_argument(
        "--baseline-evaluation",
        action="store_true",
        help="today's bot evaluates as at --baseline (the game's evaluation.py)",
    )
    args = parser.parse_args()
    module, today_settings = TODAY_EXPERT[args.game]
    today_class = baseline_class(args.baseline, module)
    today_view: Callable[[State], State] = (
        baseline_view(args.baseline, args.game)
        if args.baseline_evaluation
        else (lambda state: state)
    )
    seeded = any(option.key == "seed" for option in game_class(args.game).OPTIONS)
    new_spec = re.sub(
        r"time=[0-9.]+", f"time={args.seconds:g}", level_spec(boardlab.make(args.game), "expert")
    )
    measure = "depth" if module == "alphabeta" else "simulations"
    wins = draws = losses = 0
    by_seat = [[0, 0, 0], [0, 0, 0]]  # the new bot's W, D, L as the first and second seat
    depths: dict[str, list[float]] = {"new": [], "today": []}
    for index in range(args.games):
        game = boardlab.make(args.game, **({"seed": index // 2} if seeded else {}))
        new = make_bot(new_spec, game, 2 * index)
        assert new is not None
        today: Bot = today_class(  # type: ignore[call-arg]
            seed=2 * index + 1, time=args.seconds, **today_settings
        )
        seats = [new, today] if index % 2 == 0 else [today, new]
        state = game.new_initial_state()
        while not state.is_terminal():
            bot = seats[state.current_player]
            view = state.view_state(state.current_player)
            state.apply_action(bot.choose(today_view(view) if bot is today else view))
            depth = bot.stats().get(measure)
            if depth:
                depths["new" if bot is new else "today"].append(depth)
        reward = state.returns()[index % 2]
        wins, draws, losses = wins + (reward > 0), draws + (reward == 0), losses + (reward < 0)
        by_seat[index % 2][0 if reward > 0 else 1 if reward == 0 else 2] += 1
        print(f"game {index + 1}: new {'won' if reward > 0 else 'drew' if reward == 0 else 'lost'}")
    score = wins + draws / 2
    low, high = wilson_interval(score / args.games, args.games)
    print(
        f"\n{args.game}, {args.seconds:g} s per decision: new `{new_spec}` against today's "
        f"expert {module} {today_settings}"
        f"{' with its evaluation' if args.baseline_evaluation else ''}: "
        f"{wins} W {draws} D {losses} L of {args.games}, "
        f"score {score / args.games:.0%} (95% {low:.0%} to {high:.0%}); mean {measure} new "
        f"{statistics.fmean(depths['new']):.1f}, today {statistics.fmean(depths['today']):.1f}; "
        f"new as the first seat {'-'.join(map(str, by_seat[0]))}, as the second "
        f"{'-'.join(map(str, by_seat[1]))} (W-D-L)"
    )


if __name__ == "__main__":
    main()
