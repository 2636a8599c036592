"""Benchmark of strength: the new alpha-beta against today's at the same time per decision.

Today's bot is ``boardlab/ai/alphabeta.py`` as it was at ``--baseline`` (read with ``git
show``), playing today's ``expert`` level spec of the game with its time budget replaced by
``--seconds``; the new bot plays the game's ``expert`` spec now, with the same budget. Colours
alternate from game to game; each game has its own seeds. Prints wins, draws and losses of the
new bot, its score share with a 95% Wilson interval, and the mean depth each side reached.

    python benchmarks/strength.py --game murus-gallicus --games 100 --seconds 0.1
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path

import boardlab
from boardlab.ai import make_bot
from boardlab.ai.base import Bot
from boardlab.ai.levels import level_spec
from boardlab.analysis.match import wilson_interval

sys.path.insert(0, str(Path(__file__).parent))
from search import baseline_bot_class

TODAY_EXPERT = {
    "murus-gallicus": {"depth": 4, "noise": 0.02},
    "carnyx": {"depth": 5, "noise": 0.02},
    "colosseum-offcuts": {"depth": 4, "noise": 0.02},
    "cyvasse": {"depth": 3, "noise": 0.02},
}
"""Today's ``expert`` levels (alpha-beta games) without their time budget."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="murus-gallicus", choices=sorted(TODAY_EXPERT))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=0.1, help="budget per decision")
    parser.add_argument("--baseline", default="ac39c81", help="commit of today's bot")
    args = parser.parse_args()
    game = boardlab.make(args.game)
    today_class = baseline_bot_class(args.baseline)
    new_spec = re.sub(r"time=[0-9.]+", f"time={args.seconds:g}", level_spec(game, "expert"))
    wins = draws = losses = 0
    depths: dict[str, list[float]] = {"new": [], "today": []}
    for index in range(args.games):
        new = make_bot(new_spec, game, 2 * index)
        assert new is not None
        today: Bot = today_class(seed=2 * index + 1, time=args.seconds, **TODAY_EXPERT[args.game])
        seats = [new, today] if index % 2 == 0 else [today, new]
        state = game.new_initial_state()
        while not state.is_terminal():
            bot = seats[state.current_player]
            state.apply_action(bot.choose(state.view_state(state.current_player)))
            depth = bot.stats().get("depth")
            if depth:
                depths["new" if bot is new else "today"].append(depth)
        reward = state.returns()[index % 2]
        wins, draws, losses = wins + (reward > 0), draws + (reward == 0), losses + (reward < 0)
        print(f"game {index + 1}: new {'won' if reward > 0 else 'drew' if reward == 0 else 'lost'}")
    score = wins + draws / 2
    low, high = wilson_interval(score / args.games, args.games)
    print(
        f"\n{args.game}, {args.seconds:g} s per decision: new `{new_spec}` against today's "
        f"expert {TODAY_EXPERT[args.game]}: {wins} W {draws} D {losses} L of {args.games}, "
        f"score {score / args.games:.0%} (95% {low:.0%} to {high:.0%}); mean depth new "
        f"{statistics.fmean(depths['new']):.1f}, today {statistics.fmean(depths['today']):.1f}"
    )


if __name__ == "__main__":
    main()
