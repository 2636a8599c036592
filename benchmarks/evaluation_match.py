"""Benchmark of an evaluation: one bot spec with this tree's ``heuristic`` against the same spec
with the game's evaluation as it was at ``--baseline``, on the reference engine.

Both sides search the same way (``compiled=false`` is added to an ``alphabeta`` spec, since the
compiled search reads the compiled evaluation, which exists only for this tree); only the
evaluation differs (the baseline's ``evaluation.py`` read with ``git show``, as
``strength.py --baseline-evaluation`` does). Colours alternate from game to game. Prints the
new evaluation's wins, draws and losses, also as the first and as the second seat, and its
score share with a 95% Wilson interval.

    python benchmarks/evaluation_match.py --spec alphabeta:depth=2,noise=0.02 --games 40
"""

from __future__ import annotations

import argparse

from strength import baseline_view

import boardlab
from boardlab.ai import make_bot
from boardlab.analysis.match import wilson_interval


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="colosseum-offcuts")
    parser.add_argument("--spec", default="alphabeta:depth=2,noise=0.02")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--baseline", default="ac39c81", help="commit of the old evaluation")
    args = parser.parse_args()
    spec = args.spec
    if spec.startswith("alphabeta") and "compiled=" not in spec:
        spec += ",compiled=false" if ":" in spec else ":compiled=false"
    old_view = baseline_view(args.baseline, args.game)
    by_seat = [[0, 0, 0], [0, 0, 0]]  # the new evaluation's W, D, L as the first, second seat
    for index in range(args.games):
        game = boardlab.make(args.game)
        new, old = make_bot(spec, game, 2 * index), make_bot(spec, game, 2 * index + 1)
        assert new is not None and old is not None
        seats = [new, old] if index % 2 == 0 else [old, new]
        state = game.new_initial_state()
        while not state.is_terminal():
            bot = seats[state.current_player]
            view = state.view_state(state.current_player)
            state.apply_action(bot.choose(old_view(view) if bot is old else view))
        reward = state.returns()[index % 2]
        by_seat[index % 2][0 if reward > 0 else 1 if reward == 0 else 2] += 1
        print(f"game {index + 1}: new {'won' if reward > 0 else 'drew' if reward == 0 else 'lost'}")
    wins, draws, losses = (by_seat[0][i] + by_seat[1][i] for i in range(3))
    score = (wins + draws / 2) / args.games
    low, high = wilson_interval(score, args.games)
    print(
        f"\n{args.game}, `{spec}`, this tree's evaluation against {args.baseline}'s: {wins} W "
        f"{draws} D {losses} L of {args.games}, score {score:.1%} (95% {low:.0%} to {high:.0%}); "
        f"as the first seat {'-'.join(map(str, by_seat[0]))}, as the second "
        f"{'-'.join(map(str, by_seat[1]))} (W-D-L)"
    )


if __name__ == "__main__":
    main()
