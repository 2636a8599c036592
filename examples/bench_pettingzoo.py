"""Env steps per second through PettingZoo: Boardlab's games beside PettingZoo's chess and
connect four, measured in the same run, and the adapter's overhead over the raw rules loop.

These loops play uniformly random legal actions, chosen the same way (``random.Random(0)
.choice`` over the legal ids), interleaved in ``--rounds`` rounds that together take about
``--seconds`` of CPU time per loop (the first four for every game, the last once):

* ``raw``: ``state.legal_actions()`` then ``state.apply_action`` (no adapter);
* ``step``: the PettingZoo environment's ``step`` with no observation built (bookkeeping only);
* ``aec``: the usual AEC loop, ``env.last()`` (observation and mask) then ``env.step``, the
  policy drawing from the mask's nonzero entries;
* ``ids``: the same AEC loop, the policy drawing from ``env.unwrapped.legal_actions()``, so
  that a scan of a large action mask (Colosseum's 10,601 to 237,161 ids) is left out;
* ``floor``: the ``aec`` loop over a trivial environment whose observation and rules cost
  nothing, wrapped as every PettingZoo environment is: PettingZoo's own cost per step.

Rates are steps per CPU second (``time.process_time``), as the machine may be shared. The
adapter's overhead is ``raw / ids - 1``; the floor overhead is what the trivial environment's
cost per step alone would add to a raw step. Needs ``boardlab[rl]`` plus PettingZoo's classic
games::

    pip install 'boardlab[rl]' 'pettingzoo[classic]'
    python examples/bench_pettingzoo.py --seconds 3
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from pettingzoo.classic import chess_v6, connect_four_v3
from pettingzoo.utils import wrappers

from boardlab.rl import BoardlabAECEnv, pettingzoo_env

# The trivial environment of PettingZoo's floor and the bare rules loop are the adapter
# benchmark's.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from rl_pettingzoo import Loop, TrivialEnv, game_loop

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("carnyx", {}),
    ("murus-gallicus", {}),
    ("colosseum-offcuts", {}),
    ("colosseum-offcuts", {"players": 4}),
    ("anacund", {}),
    ("cyvasse", {}),
]


def _rate(loop: Loop, seconds: float) -> tuple[int, float]:
    """Steps and CPU seconds of whole games of ``loop`` played for about ``seconds`` of CPU."""
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        steps += loop()
    return steps, time.process_time() - start


def interleaved(loops: dict[str, Loop], seconds: float, rounds: int) -> dict[str, float]:
    """Steps per CPU second of each loop, run in turn ``rounds`` times so load drifts hit all."""
    totals = dict.fromkeys(loops, (0, 0.0))
    for _ in range(rounds):
        for name, loop in loops.items():
            steps, spent = _rate(loop, seconds / rounds)
            totals[name] = (totals[name][0] + steps, totals[name][1] + spent)
    return {name: steps / spent for name, (steps, spent) in totals.items()}


def step_loop(game_id: str, options: dict[str, Any]) -> Loop:
    """Random games through ``BoardlabAECEnv.step`` with no observation asked for."""
    env = BoardlabAECEnv(game_id, **options)
    rng = random.Random(0)

    def one_game() -> int:
        env.reset()
        steps = 0
        # Not env.state_.is_terminal(): on the compiled engine reading the reference state
        # replays the actions played on the kernel. No legal ids: the game is over.
        while legal := env.legal_actions():
            env.step(rng.choice(legal))
            steps += 1
        return steps

    return one_game


def aec_loop(make_env: Callable[[], Any], from_mask: bool = True) -> Loop:
    """Random games through the standard AEC loop: ``last()`` then ``step``; the legal ids
    come from the observation's mask, or else from the environment's ``legal_actions()``."""
    env = make_env()
    rng = random.Random(0)

    def one_game() -> int:
        env.reset()
        steps = 0
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            if from_mask:
                legal = np.flatnonzero(observation["action_mask"]).tolist()
            else:
                legal = env.unwrapped.legal_actions()
            env.step(rng.choice(legal))
            steps += 1
        return steps

    return one_game


def main() -> None:
    """Print one Markdown table row per environment."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per loop")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds")
    args = parser.parse_args()
    seconds, rounds = args.seconds, args.rounds
    theirs = interleaved(
        {
            "PettingZoo chess_v6": aec_loop(chess_v6.env),
            "PettingZoo connect_four_v3": aec_loop(connect_four_v3.env),
            "trivial env (PettingZoo's floor)": aec_loop(
                lambda: wrappers.OrderEnforcingWrapper(TrivialEnv(2))
            ),
        },
        seconds,
        rounds,
    )
    chess = theirs["PettingZoo chess_v6"]
    floor = 1e6 / theirs["trivial env (PettingZoo's floor)"]
    print(
        "| environment | raw steps/s | step-only steps/s | AEC steps/s | AEC, ids steps/s "
        "| overhead | floor overhead | vs chess |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, rate in theirs.items():
        print(f"| {name} | | | {rate:,.0f} | | | | {rate / chess:.2f} |")
    for game_id, options in GAMES:
        rates = interleaved(
            {
                "raw": game_loop(game_id, options),
                "step": step_loop(game_id, options),
                "aec": aec_loop(lambda g=game_id, o=options: pettingzoo_env(g, **o)),
                "ids": aec_loop(lambda g=game_id, o=options: pettingzoo_env(g, **o), False),
            },
            seconds,
            rounds,
        )
        raw, full, ids = rates["raw"], rates["aec"], rates["ids"]
        label = game_id + "".join(f" {key}={value}" for key, value in options.items())
        print(
            f"| {label} | {raw:,.0f} | {rates['step']:,.0f} | {full:,.0f} | {ids:,.0f} "
            f"| {raw / ids - 1:+.0%} | {floor * raw / 1e6:+.0%} | {full / chess:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
