"""The batched step over many games per row (``rl/vector_template.py``): each row of a
:class:`VectorEnv` plays game after game against its random bots, and at every step its flags,
rewards, final observation and the observation of the next game's first decision are what the
rules say, worked out step by step from the kernel's own moves and the row's generator.

``test_vector.py`` steps the batch against the reference rules with no learner; here the bots
play in the step too, ends come from the learner's move or from a bot's, and the new game's
first observation follows the bots' opening moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

pytest.importorskip("numba")

from boardlab.core.engine import Kernel, KernelArray
from boardlab.core.kernel_random import below, next_state
from boardlab.rl.vector import BatchedGame, VectorEnv, seeded_generators

ROWS = 5
STEPS = 100


@dataclass
class Expected:
    """What one step of one row should leave: the state, generator, and the game that ended."""

    state: KernelArray
    rng: int
    final: KernelArray | None
    returns: npt.NDArray[np.float64] | None
    truncated: bool


def _int64(x: int) -> int:
    """``x`` wrapped to a signed 64-bit integer (as the batch's generators are)."""
    return (x + 2**63) % 2**64 - 2**63


def _bots(kernel: Kernel, s: KernelArray, rng: int, learner: int) -> int:
    """The random bots' moves up to the learner's turn or the end (the row's generator, an
    int64 that wraps, as in the batch)."""
    ids = np.zeros(kernel.max_legal, dtype=np.int64)
    while True:
        n = kernel.legal(kernel.params, s, ids)
        if n == 0 or kernel.player(kernel.params, s) == learner:
            return rng
        rng = _int64(next_state(rng))
        kernel.apply(kernel.params, s, int(ids[below(rng, n)]))


def expected_step(
    kernel: Kernel, s: KernelArray, rng: int, action: int, learner: int, initial: KernelArray
) -> Expected:
    """The learner plays ``action``, the bots answer; an ended game starts again and the bots
    open it up to the learner's first decision (games ending first start again too)."""
    s = s.copy()
    kernel.apply(kernel.params, s, action)
    rng = _bots(kernel, s, rng, learner)
    final = returns = None
    truncated = False
    if kernel.is_over(kernel.params, s):
        final, returns = s, np.zeros(kernel.game.num_players)
        kernel.returns(kernel.params, s, returns)
        truncated = bool(kernel.truncated(kernel.params, s)) if kernel.truncated else False
        s = initial.copy()
    while True:
        rng = _bots(kernel, s, rng, learner)
        if not kernel.is_over(kernel.params, s):
            return Expected(s, rng, final, returns, truncated)
        s = initial.copy()


@pytest.mark.parametrize(
    ("game", "options", "seat"),
    [
        ("murus-gallicus", {"max_plies": 12, "dense": True}, 0),  # by the cap, learner's move
        ("murus-gallicus", {"max_plies": 13}, 1),  # ... and after a bot's
        ("murus-gallicus", {"board": "8x8"}, 1),  # wins, losses and stalemates
        ("carnyx", {"max_plies": 15}, 0),
        ("colosseum-offcuts", {"players": 3, "no_capture_rounds": 2}, 2),
    ],
)
def test_every_game_of_every_row_flags_its_end_and_opens_the_next(
    game: str, options: dict[str, Any], seat: int
) -> None:
    options = dict(options)
    dense = bool(options.pop("dense", False))
    env = VectorEnv(game, ROWS, seat=seat, dense_mask=dense, **options)
    observation, _ = env.reset(seed=38)
    batched, batch = env.batched, env._batch
    assert batch is not None
    kernel, encoder = batched.kernel, batched.encoder
    initial = kernel.encode(batched.game.new_initial_state())
    for i in range(ROWS):  # each first game opened by the bots up to the learner's turn
        assert batch.current_player[i] == seat
        opened = encoder.encode(kernel.decode(batch.states[i]), seat)
        assert observation[i].tobytes() == opened.tobytes()
    policy = seeded_generators(9, ROWS)
    games = np.zeros(ROWS, dtype=np.int64)
    endings: set[tuple[bool, bool]] = set()
    for _ in range(STEPS):
        actions = batched.random_actions(batch, policy)
        before = [
            expected_step(
                kernel, batch.states[i], int(batch.rng[i]), int(actions[i]), seat, initial
            )
            for i in range(ROWS)
        ]
        observation, rewards, terminated, truncated, info = env.step(actions)
        for i, expected in enumerate(before):
            assert (batch.states[i] == expected.state).all()
            assert int(batch.rng[i]) == expected.rng
            assert batch.current_player[i] == seat
            # The learner's view of its decision, in a game going on or just begun.
            now = encoder.encode(kernel.decode(batch.states[i]), seat)
            assert observation[i].tobytes() == now.tobytes(), (i, games[i])
            ids = np.zeros(kernel.max_legal, dtype=np.int64)
            count = kernel.legal(kernel.params, batch.states[i], ids)
            assert batch.legal_count[i] == count
            assert sorted(batch.legal_ids[i, :count]) == sorted(ids[:count])
            if dense:
                assert np.flatnonzero(batch.action_mask[i]).tolist() == sorted(ids[:count])
            if expected.final is None:
                assert not terminated[i] and not truncated[i] and rewards[i] == 0
                continue
            games[i] += 1
            assert expected.returns is not None
            assert (terminated[i], truncated[i]) == (not expected.truncated, expected.truncated)
            endings.add((expected.truncated, bool(expected.returns.any())))
            assert rewards[i] == expected.returns[seat]
            assert (batch.rewards[i] == expected.returns).all()
            last = encoder.encode(kernel.decode(expected.final), seat)
            assert info["final_obs"][i].tobytes() == last.tobytes()
            assert info["_final_obs"][i]
    assert games.min() >= 3, games  # every row plays game after game
    if game == "murus-gallicus" and "max_plies" in options:
        assert (True, False) in endings  # truncated by the cap
    if options.get("board") == "8x8":
        assert (False, True) in endings  # won and lost


@pytest.mark.parametrize("dense", [False, True])
def test_an_illegal_action_ends_the_murus_gallicus_game_against_the_learner(dense: bool) -> None:
    env = VectorEnv("murus-gallicus", 3, seat=0, dense_mask=dense)
    env.reset(seed=3)
    batch = env._batch
    assert batch is not None
    legal = batch.legal_ids[1, : batch.legal_count[1]]
    illegal = next(a for a in range(env.batched.num_actions) if a not in legal)
    # An id that is not legal here, and one past the last id of the game.
    actions = [int(batch.legal_ids[0, 0]), illegal, env.batched.num_actions]
    _, rewards, terminated, truncated, _ = env.step(actions)
    assert terminated.tolist() == [False, True, True] and not truncated.any()
    assert rewards.tolist() == [0.0, -1.0, -1.0]


def test_with_no_learner_a_step_plays_only_the_murus_gallicus_moves_given() -> None:
    batched = BatchedGame("murus-gallicus", 3)
    batch = batched.init(seed=4)
    kernel = batched.kernel
    policy = seeded_generators(4, 3)
    for _ in range(30):
        actions = batched.random_actions(batch, policy)
        expected = []
        for i in range(3):
            s = batch.states[i].copy()
            kernel.apply(kernel.params, s, int(actions[i]))
            over = kernel.is_over(kernel.params, s)
            expected.append(kernel.encode(batched.game.new_initial_state()) if over else s)
        batched.step(batch, actions)
        for i in range(3):
            assert (batch.states[i] == expected[i]).all()
