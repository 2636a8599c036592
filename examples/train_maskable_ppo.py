"""Train MaskablePPO on one seat of a Boardlab game and measure its win rate as it learns.

The learner plays ``--seat`` of ``--game`` against the ``random`` bot through
:func:`boardlab.rl.gymnasium_env`; every ``--eval-every`` steps it plays ``--games`` games
(its most likely legal action each turn) against ``random`` and against ``level:easy``, and the
script prints one row per checkpoint: steps, then win/draw/loss rates against each.

Needs more than ``boardlab[rl]``: PyTorch and the trainer, e.g.::

    pip install 'boardlab[rl]' torch==2.13.0 stable-baselines3 sb3-contrib
    python examples/train_maskable_ppo.py --game murus-gallicus --steps 60000
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from sb3_contrib import MaskablePPO

from boardlab.rl import gymnasium_env

OPPONENTS = ("random", "level:easy")


def evaluate(
    model: MaskablePPO, game: str, opponent: str, seat: int, games: int
) -> tuple[float, float, float]:
    """Win, draw and loss rates of the model's greedy play against ``opponent``."""
    env = gymnasium_env(game, opponent, seat=seat)
    tally = np.zeros(3)
    for index in range(games):
        observation, _ = env.reset(seed=10_000 + index)
        done = False
        reward = 0.0
        while not done:
            action, _ = model.predict(
                observation, action_masks=env.action_masks(), deterministic=True
            )
            observation, reward, terminated, truncated, _ = env.step(int(action))
            done = terminated or truncated
        tally[0 if reward > 0 else 1 if reward == 0 else 2] += 1
    win, draw, loss = tally / games
    return float(win), float(draw), float(loss)


def main() -> None:
    """Train, evaluating before the first step and at every checkpoint."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="murus-gallicus")
    parser.add_argument("--seat", type=int, default=0)
    parser.add_argument("--steps", type=int, default=60_000)
    parser.add_argument("--eval-every", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(1)
    env = gymnasium_env(args.game, "random", seat=args.seat)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=1024,
        batch_size=256,
        learning_rate=3e-4,
        gamma=0.99,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [128, 128]},
        seed=args.seed,
        verbose=0,
    )
    header = " | ".join(f"{name} win/draw/loss" for name in OPPONENTS)
    print(f"| steps | {header} | minutes |")
    print("|---:|" + "---|" * len(OPPONENTS) + "---:|")
    start = time.perf_counter()
    done = 0
    while True:
        cells = []
        for opponent in OPPONENTS:
            win, draw, loss = evaluate(model, args.game, opponent, args.seat, args.games)
            cells.append(f"{win:.2f} / {draw:.2f} / {loss:.2f}")
        minutes = (time.perf_counter() - start) / 60
        print(f"| {done} | {' | '.join(cells)} | {minutes:.1f} |", flush=True)
        if done >= args.steps:
            break
        model.learn(args.eval_every, reset_num_timesteps=False)
        done += args.eval_every


if __name__ == "__main__":
    main()
