"""Env steps per second through PettingZoo: Boardlab's games beside PettingZoo's chess and
connect four, measured in the same run, and the adapter's overhead over the raw rules loop.

For every game, three loops play uniformly random legal actions for ``--seconds`` of CPU time:

* ``raw``: ``state.legal_actions()`` then ``state.apply_action`` (no adapter);
* ``step``: the PettingZoo environment's ``step`` with no observation built (bookkeeping only);
* ``aec``: the usual AEC loop, ``env.last()`` (observation and mask) then ``env.step``.

The overhead is ``raw / aec - 1``. Needs ``boardlab[rl]`` plus PettingZoo's classic games::

    pip install 'boardlab[rl]' 'pettingzoo[classic]'
    python examples/bench_pettingzoo.py --seconds 3
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from pettingzoo.classic import chess_v6, connect_four_v3

from boardlab.core.registry import make
from boardlab.rl import BoardlabAECEnv, pettingzoo_env

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("carnyx", {}),
    ("murus-gallicus", {}),
    ("colosseum-offcuts", {}),
    ("colosseum-offcuts", {"players": 4}),
    ("anacund", {}),
    ("cyvasse", {}),
]


def _timed(loop: Callable[[], int], seconds: float) -> float:
    """Steps per CPU second of ``loop`` (one game per call) run for ``seconds`` of CPU."""
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        steps += loop()
    return steps / (time.process_time() - start)


def raw_rate(game_id: str, options: dict[str, Any], seconds: float) -> float:
    """Random games through the rules alone."""
    game = make(game_id, **options)
    rng = random.Random(0)

    def one_game() -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps

    return _timed(one_game, seconds)


def step_rate(game_id: str, options: dict[str, Any], seconds: float) -> float:
    """Random games through ``BoardlabAECEnv.step`` with no observation asked for."""
    env = BoardlabAECEnv(game_id, **options)
    rng = random.Random(0)

    def one_game() -> int:
        env.reset()
        steps = 0
        while not env.state_.is_terminal():
            env.step(rng.choice(env.legal_actions()))
            steps += 1
        return steps

    return _timed(one_game, seconds)


def aec_rate(make_env: Callable[[], Any], seconds: float) -> float:
    """Random games through the standard AEC loop: ``last()`` then ``step``."""
    env = make_env()
    rng = np.random.default_rng(0)

    def one_game() -> int:
        env.reset()
        steps = 0
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        return steps

    return _timed(one_game, seconds)


def main() -> None:
    """Print one Markdown table row per environment."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    seconds = args.seconds
    chess = aec_rate(chess_v6.env, seconds)
    connect_four = aec_rate(connect_four_v3.env, seconds)
    print("| environment | raw steps/s | step-only steps/s | AEC steps/s | overhead | vs chess |")
    print("|---|---:|---:|---:|---:|---:|")
    theirs = (("PettingZoo chess_v6", chess), ("PettingZoo connect_four_v3", connect_four))
    for name, rate in theirs:
        print(f"| {name} | | | {rate:,.0f} | | {rate / chess:.2f} |")
    for game_id, options in GAMES:
        raw = raw_rate(game_id, options, seconds)
        bare = step_rate(game_id, options, seconds)
        full = aec_rate(lambda g=game_id, o=options: pettingzoo_env(g, **o), seconds)
        label = game_id + "".join(f" {key}={value}" for key, value in options.items())
        print(
            f"| {label} | {raw:,.0f} | {bare:,.0f} | {full:,.0f} | {raw / full - 1:+.0%} | "
            f"{full / chess:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
