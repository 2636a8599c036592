"""The PettingZoo adapter's own cost per step: full path minus the game's step minus the floor.

For every game (and Colosseum at 2 to 5 seats), six loops run interleaved in ``--rounds``
rounds, each playing whole random games for a slice of CPU time. The policy is the same in
every loop that has one: it gets the legal ids as a list of Python ints and picks
``ids[int(random() * len(ids))]``:

* ``game``: the step of the engine the environment uses, the least any adapter over it pays.
  On the compiled engine (the environment steps the kernel alone) a Python loop driving the
  kernel: ``kernel.legal`` into a buffer, the ids listed (``memoryview.tolist``), the pick,
  ``kernel.apply``, ``kernel.is_over``, each game from a copy of the first position. On the
  reference engine (``BOARDLAB_ENGINE=python``, or no numba) the reference rules:
  ``state.legal_actions()``, the pick, ``state.apply_action`` until ``state.is_terminal()``;
* ``unlisted``: the kernel loop picking from its buffer without listing the ids
  (``ids[int(random() * n)]``), to show what listing costs (``game - unlisted``): a policy
  that reads the ids as Python ints pays it on any engine, one reading the mask pays its scan
  instead;
* ``reference``: the reference rules' step (as above), shown beside the kernel's;
* ``floor``: PettingZoo's wrapper floor: a trivial AEC environment with the same number of
  agents (constant observation, no rules) wrapped by ``OrderEnforcingWrapper`` as
  :func:`boardlab.rl.pettingzoo_env` wraps, driven by the same AEC loop (``agent_iter``,
  ``last()``, ``step``) with a constant action, so the policy is counted once (in ``game``);
* ``bookkeeping``: the full loop with ``last(observe=False)``: no observation asked for;
* ``pettingzoo``: the full path: :func:`boardlab.rl.pettingzoo_env`, the AEC loop with
  ``last()`` handing out the observation and the mask of the agent on turn, the policy picking
  from ``env.unwrapped.legal_actions()``.

Every figure is microseconds of CPU (``time.process_time``) per step: for each loop the
**minimum over the rounds** (the round least disturbed by the other jobs of a shared
machine), and ``own = pettingzoo - game - floor``, the adapter's own cost per step, split
into ``bookkeeping - game - floor`` and the observation with its mask (``pettingzoo -
bookkeeping``; on the compiled engine the environment makes the observation of the agent on
turn within ``step`` once one has been asked for, so the bookkeeping loop, which asks for none,
makes none). A step is one decision (one ``apply``); a reset is counted in the loop's time, not
as a step. Run::

    python benchmarks/rl_pettingzoo.py --seconds 2 --rounds 5
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from boardlab.core.engine import engine_name, kernel_for
from boardlab.core.registry import make
from boardlab.rl import pettingzoo_env

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("carnyx", {}),
    ("murus-gallicus", {}),
    ("colosseum-offcuts", {}),
    ("colosseum-offcuts", {"players": 3}),
    ("colosseum-offcuts", {"players": 4}),
    ("colosseum-offcuts", {"players": 5}),
    ("anacund", {}),
    ("cyvasse", {}),
]

Loop = Callable[[], int]
"""Plays one game, returns its number of steps."""


def kernel_loop(game_id: str, options: dict[str, Any], listed: bool = True) -> Loop:
    """Random games through the compiled kernel alone, driven from Python; the policy picks
    from the legal ids listed as Python ints (or, not ``listed``, from the kernel's buffer)."""
    kernel = kernel_for(make(game_id, **options))
    assert kernel is not None
    p, first = kernel.params, kernel.encode(kernel.game.new_initial_state())
    legal, apply, is_over = kernel.legal, kernel.apply, kernel.is_over
    ids = np.empty(kernel.max_legal, dtype=np.int64)
    view = memoryview(ids)
    random_ = random.Random(0).random

    def one_game() -> int:
        s = first.copy()
        steps = 0
        while True:
            n = legal(p, s, ids)
            if listed:
                found = view[:n].tolist()
                apply(p, s, found[int(random_() * len(found))])
            else:
                apply(p, s, ids[int(random_() * n)])
            steps += 1
            if is_over(p, s):
                return steps

    return one_game


def game_loop(game_id: str, options: dict[str, Any]) -> Loop:
    """Random games through the reference rules alone."""
    game = make(game_id, **options)
    random_ = random.Random(0).random

    def one_game() -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            ids = state.legal_actions()
            state.apply_action(ids[int(random_() * len(ids))])
            steps += 1
        return steps

    return one_game


class TrivialEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """``players`` agents take turns for ``length`` steps with a constant observation."""

    metadata: dict[str, Any] = {"name": "trivial_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, players: int, length: int = 100) -> None:
        super().__init__()
        self.length = length
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.observation = {
            "observation": np.zeros((2, 3, 3), np.float32),
            "action_mask": np.ones(4, np.int8),
        }
        space = gymnasium.spaces.Box(0.0, 1.0, (2, 3, 3), np.float32)
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, gymnasium.spaces.Discrete(4))
        self.played = 0

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game of ``length`` steps."""
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]
        self.played = 0

    def observe(self, agent: str) -> dict[str, Any]:
        """The same observation every time."""
        return self.observation

    def step(self, action: int | None) -> None:
        """Pass the turn; end the game after ``length`` steps."""
        if self.terminations[self.agent_selection]:
            self._was_dead_step(action)
            return
        self.played += 1
        if self.played == self.length:
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.agents[self.played % len(self.agents)]


def floor_loop(players: int, length: int) -> Loop:
    """The AEC loop over the wrapped trivial environment, always playing action 0, in games
    of ``length`` steps (those of the game measured: each game ends with a dead step per
    agent and starts with a reset, PettingZoo's protocol, whose cost per step the length
    sets)."""
    env = wrappers.OrderEnforcingWrapper(TrivialEnv(players, length))

    def one_game() -> int:
        env.reset()
        steps = 0
        for _ in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(0)
            steps += 1
        return steps

    return one_game


def pettingzoo_loop(game_id: str, options: dict[str, Any], observe: bool = True) -> Loop:
    """The AEC loop over the game's PettingZoo environment, observations and masks built
    (or, with ``observe`` false, ``last(observe=False)``: the bookkeeping alone)."""
    env = pettingzoo_env(game_id, **options)
    legal_actions = env.unwrapped.legal_actions
    random_ = random.Random(0).random

    def one_game() -> int:
        env.reset()
        steps = 0
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last(observe)
            if terminated or truncated:
                env.step(None)
                continue
            assert observe is (observation is not None)
            ids = legal_actions()
            env.step(ids[int(random_() * len(ids))])
            steps += 1
        return steps

    return one_game


def per_step(loop: Loop, seconds: float) -> float:
    """CPU microseconds per step of whole games of ``loop`` played for about ``seconds``."""
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        steps += loop()
    return (time.process_time() - start) * 1e6 / steps


def measure(loops: dict[str, Loop], seconds: float, rounds: int) -> dict[str, list[float]]:
    """Microseconds per step of each loop in each of ``rounds`` interleaved rounds."""
    found: dict[str, list[float]] = {name: [] for name in loops}
    for _ in range(rounds):
        for name, loop in loops.items():
            found[name].append(per_step(loop, seconds / rounds))
    return found


def mean_length(loop: Loop, games: int = 200) -> int:
    """The mean number of steps of ``games`` games of ``loop``, rounded."""
    return round(sum(loop() for _ in range(games)) / games)


def main() -> None:
    """Print one Markdown table row per game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per loop")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    args = parser.parse_args()
    print(
        "| game | engine | reference step µs | game step µs | of which listing the ids | floor µs "
        "| PettingZoo µs | own µs | of which bookkeeping | of which observation and mask "
        "| own µs, median of rounds |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for game_id, options in GAMES:
        if args.game and game_id not in args.game:
            continue
        game = make(game_id, **options)
        engine = engine_name(game)
        reference = game_loop(game_id, options)
        compiled = engine == "compiled"
        engine_loop = kernel_loop(game_id, options) if compiled else reference
        found = measure(
            {
                "reference": reference,
                "game": engine_loop,
                "unlisted": kernel_loop(game_id, options, listed=False) if compiled else reference,
                "floor": floor_loop(game.num_players, mean_length(engine_loop)),
                "bookkeeping": pettingzoo_loop(game_id, options, observe=False),
                "pettingzoo": pettingzoo_loop(game_id, options),
            },
            args.seconds,
            args.rounds,
        )
        best = {name: min(values) for name, values in found.items()}
        own = best["pettingzoo"] - best["game"] - best["floor"]
        bookkeeping = best["bookkeeping"] - best["game"] - best["floor"]
        paired = statistics.median(
            full - step - floor
            for full, step, floor in zip(
                found["pettingzoo"], found["game"], found["floor"], strict=True
            )
        )
        listing = f"{best['game'] - best['unlisted']:.1f}" if compiled else "—"
        label = game_id + "".join(f" {key}={value}" for key, value in options.items())
        print(
            f"| {label} | {engine} | {best['reference']:.1f} | {best['game']:.1f} "
            f"| {listing} | {best['floor']:.1f} | {best['pettingzoo']:.1f} | {own:+.1f} "
            f"| {bookkeeping:+.1f} "
            f"| {best['pettingzoo'] - best['bookkeeping']:+.1f} | {paired:+.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
