"""The bots inside the batch (:mod:`boardlab.rl.opponents`) decide as Boardlab's bots decide.

A batch's bot draws its root order and noise (or its search's seed) from the game's xorshift64*
generator where a bot draws them from its Mersenne Twister. Each test reads those draws from
the same generator and hands them to the real bot (a ``random.Random`` that replays them), then
asks both for the decision in the same position: they must be the same, at every level below
``expert`` (whose clock cannot bound a decision inside the batch) and for every game.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence

import numpy as np
import pytest

pytest.importorskip("numba")

from boardlab.ai.levels import level_spec
from boardlab.ai.players import make_bot
from boardlab.core.engine import Kernel, kernel_for
from boardlab.core.errors import OptionError
from boardlab.core.game import Game
from boardlab.core.kernel_random import next_state, seeded
from boardlab.core.registry import make
from boardlab.core.state import State
from boardlab.rl import opponents_template
from boardlab.rl.opponents import KINDS, compiled_opponents, decide_function, opponent, scratch
from boardlab.rl.vector import VectorEnv, VectorError

GAMES = ["carnyx", "murus-gallicus", "colosseum-offcuts", "anacund", "cyvasse"]


class Replay(random.Random):
    """The batch's draws, handed to a bot: its shuffle gives the batch's root order, its
    uniform draws the batch's root noise, its 62 random bits the batch's search seed."""

    def __init__(self, order: Sequence[int], noise: Sequence[float], bits: int) -> None:
        super().__init__(0)
        self.order = list(order)
        self.noise: Iterator[float] = iter(noise)
        self.bits = bits

    def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
        assert sorted(x) == sorted(self.order)
        x[:] = self.order

    def uniform(self, a: float, b: float) -> float:
        return next(self.noise)

    def getrandbits(self, k: int) -> int:
        assert k == 62
        return self.bits


def _positions(game: Game, count: int) -> list[State]:
    """Positions of seeded random games where a bot searches (not over; no preset lineup)."""
    found: list[State] = []
    for seed in range(100):
        rng = random.Random(seed)
        state = game.new_initial_state()
        for ply in range(60):
            if state.is_terminal():
                break
            if ply % 7 == 3 and not state.presets() and len(state.legal_actions()) > 1:
                found.append(state.clone())
                if len(found) == count:
                    return found
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("too few positions")


def _untimed(spec: str) -> str:
    """``spec`` without its clock (the batch's bots have none)."""
    return re.sub(r",?time=[0-9.]+", "", spec).replace(":,", ":").rstrip(":")


def _batch_decision(kernel: Kernel, spec: str, state: State, x: int) -> tuple[int, Replay]:
    """The batch's decision with generator state ``x``, and the draws it made, for a bot."""
    game = kernel.game
    bot = opponent(spec, game)
    s = kernel.encode(state)
    moves = np.empty(kernel.max_legal, dtype=np.int64)
    n = kernel.legal(kernel.params, s, moves)
    work, fwork, work32 = scratch(kernel, bot, 1)
    rng = np.array([x], dtype=np.int64)
    decide = decide_function(kernel, bot)
    action = int(decide(kernel.params, s, rng, 0, moves.copy(), n, work[0], fwork[0], work32[0]))  # type: ignore[operator]
    # The same draws again, as the bot gets them.
    module = compiled_opponents(kernel)
    again = np.array([x], dtype=np.int64)
    order = moves[:n].copy()
    noise = np.zeros(n)
    if bot.kind in ("greedy", "alphabeta"):
        module._shuffle(again, 0, order, n)
        module._jitter(again, 0, bot.noise, noise, n)
    bits = int(next_state(x)) & opponents_template.SEED_BITS
    return action, Replay(order.tolist(), noise.tolist(), bits)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("level", ["easy", "medium"])
def test_the_batch_s_bot_decides_as_the_level_s_bot(game_id: str, level: str) -> None:
    game = make(game_id)
    kernel = kernel_for(game)
    assert kernel is not None
    spec = _untimed(level_spec(game, level))
    for k, state in enumerate(_positions(game, 6)):
        action, draws = _batch_decision(kernel, spec, state, int(seeded(k)))
        bot = make_bot(spec, game, seed=0)
        assert bot is not None
        bot._rng = draws  # type: ignore[attr-defined]
        assert action == bot.choose(state), (spec, state.position_text())


@pytest.mark.parametrize(
    ("game_id", "spec"),
    [
        ("murus-gallicus", "alphabeta:nodes=20000,noise=0.02"),  # level:hard
        ("cyvasse", "alphabeta:depth=2"),
        ("colosseum-offcuts", "mcts:iters=64,rollout=8,c=1.4"),
        ("anacund", "mcts:iters=200,rollout=40"),
    ],
)
def test_other_budgets_decide_as_the_bot(game_id: str, spec: str) -> None:
    game = make(game_id)
    kernel = kernel_for(game)
    assert kernel is not None
    for k, state in enumerate(_positions(game, 3)):
        action, draws = _batch_decision(kernel, spec, state, int(seeded(100 + k)))
        bot = make_bot(spec, game, seed=0)
        assert bot is not None
        bot._rng = draws  # type: ignore[attr-defined]
        assert action == bot.choose(state), (spec, state.position_text())


def test_a_bot_bounded_by_a_clock_only_is_refused() -> None:
    game = make("murus-gallicus")
    for spec in ("level:expert", "alphabeta:time=1", "mcts:time=1"):
        with pytest.raises(OptionError, match="clock"):
            opponent(spec, game)
    with pytest.raises(VectorError, match="clock"):
        VectorEnv("murus-gallicus", 2, opponent="level:expert")
    with pytest.raises(OptionError, match="cannot play inside the batch"):
        opponent("human", game)
    assert set(KINDS) == {"random", "greedy", "alphabeta", "mcts"}


def test_a_random_learner_loses_to_level_medium_in_the_batch() -> None:
    """Against ``level:medium`` a random learner loses most games; against ``random`` about
    half (so a batch whose bots played at random would fail here)."""
    wins = {}
    for spec in ("random", "level:medium"):
        env = VectorEnv("murus-gallicus", 64, seat=0, opponent=spec)
        _, info = env.reset(seed=3)
        rng = np.random.default_rng(0)
        won, ended = 0, 0
        while ended < 64:
            counts = info["legal_count"]
            pick = (rng.random(64) * counts).astype(np.int64)
            actions = info["legal_ids"][np.arange(64), pick]
            _, rewards, terminated, truncated, info = env.step(actions)
            ended += int((terminated | truncated).sum())
            won += int((rewards > 0).sum())
        wins[spec] = won / ended
    assert wins["random"] > 0.3
    assert wins["level:medium"] < 0.1
