"""The batched environments: in lock-step with the reference rules and the fast encoders."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import pytest

from boardlab.core.engine import kernel_for
from boardlab.core.options import SEED
from boardlab.core.outcome import Termination
from boardlab.core.registry import make
from boardlab.core.state import State
from boardlab.games.anacund.kernel_rules import SQUARES, VALUES
from boardlab.games.cyvasse.board import NUM_HEXES
from boardlab.games.cyvasse.kernel_rules import S_DEPLOYING
from boardlab.rl import observation_encoder, vector
from boardlab.rl.fast import kernel_planes
from boardlab.rl.fast.base import FastEncoder
from boardlab.rl.vector import (
    COMPILED_OBSERVERS,
    SEEDED_STARTS,
    BatchedGame,
    VectorEnv,
    VectorError,
    seeded_generators,
)
from tests.rl.cases import ALL_CORES

pytest.importorskip("numba")

LOCKSTEP_CASES: list[tuple[str, dict[str, Any], int, int]] = [
    ("murus-gallicus", {}, 6, 400),
    ("murus-gallicus", {"board": "8x8_two_rows", "max_plies": 60}, 6, 400),
    ("murus-gallicus", {"board": "8x8", "max_plies": 12}, 6, 400),  # many truncations
    ("murus-gallicus", {}, ALL_CORES, 50),  # the batch stepped on all cores
    ("carnyx", {}, 4, 300),
    ("carnyx", {"max_plies": 14}, 4, 120),  # many truncations
    ("carnyx", {"conversion": "token", "single_exit": "reserve"}, 4, 300),
    ("anacund", {}, 4, 120),  # a layout drawn per game at every reset
    ("anacund", {"seed": 9, "track": "open", "bonus_points": 2, "tie": "b"}, 4, 80),
    ("cyvasse", {}, 3, 300),  # hidden deployment, then play
    ("cyvasse", {"hidden_setup": False, "max_plies": 60}, 3, 250),  # many truncations
    ("cyvasse", {"army": "K1H1L1M2", "max_plies": 30}, ALL_CORES, 60),
    ("colosseum-offcuts", {}, 4, 600),
    # A no-capture cap of a few rounds ends games of 3-5 seats often (and at 2, the default
    # setup: the games are long).
    ("colosseum-offcuts", {"no_capture_rounds": 3}, 4, 200),
    ("colosseum-offcuts", {"players": 3, "no_capture_rounds": 3}, 3, 200),
    ("colosseum-offcuts", {"players": 4, "no_capture_rounds": 3}, 3, 200),
    ("colosseum-offcuts", {"players": 5, "no_capture_rounds": 3}, 3, 250),
    ("colosseum-offcuts", {"players": 5}, 2, 2000),
]
"""``(game, options, batch size, steps)``: every game and seat count, the options that change
what the planes show, and each game's ply cap where it has one."""


class Reference:
    """The reference games a :class:`BatchedGame` plays: the initial state each game of the
    batch starts from (a game with chance at the start draws one per reset)."""

    def __init__(self, batched: BatchedGame, options: dict[str, Any], seed: int) -> None:
        made = batched.game
        if batched.game_id in SEEDED_STARTS and SEED not in options:
            games = [make(batched.game_id, **options, seed=seed + i) for i in range(batched.batch)]
            self.initial = [game.new_initial_state() for game in games]
        else:
            self.initial = [made.new_initial_state()]
        self.encoded = [batched.kernel.encode(state) for state in self.initial]

    def start(self, row: npt.NDArray[np.int64]) -> State:
        """A fresh reference game at the initial state the kernel state ``row`` holds."""
        for state, encoded in zip(self.initial, self.encoded, strict=True):
            if (encoded == row).all():
                return state.clone()
        raise AssertionError("the batch started a game from no initial state of its seeds")


def _check_game(batched: BatchedGame, batch: Any, i: int, state: State) -> None:
    """Row ``i`` of ``batch`` says what the reference ``state`` does (after a step)."""
    encoder = observation_encoder(batched.game)
    seat = state.current_player
    assert batch.current_player[i] == seat
    ids = batch.legal_ids[i, : batch.legal_count[i]]
    assert sorted(ids.tolist()) == sorted(state.legal_actions())
    if batched.dense_mask:
        assert np.flatnonzero(batch.action_mask[i]).tolist() == sorted(state.legal_actions())
    planes = encoder.encode(state, seat)
    assert batch.observation[i].tobytes() == planes.tobytes(), (state.position_text(), seat)


@pytest.mark.parametrize(("game", "options", "n", "steps"), LOCKSTEP_CASES)
def test_batched_games_step_as_the_reference_with_its_planes(
    game: str, options: dict[str, Any], n: int, steps: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vector, "PARALLEL_FROM", ALL_CORES)
    # The dense mask of Colosseum Offcuts at 4-5 seats is 100k-237k ids: compact masks only.
    dense = make(game, **options).num_actions < 100_000
    batched = BatchedGame(game, n, dense_mask=dense, **options)
    batch = batched.init(seed=3)
    reference = Reference(batched, options, seed=3)
    encoder = observation_encoder(batched.game)
    states = [reference.start(batch.states[i]) for i in range(n)]
    for i in range(n):
        _check_game(batched, batch, i, states[i])
    policy = seeded_generators(11, n)
    ended = truncations = 0
    for _ in range(steps):
        actions = batched.random_actions(batch, policy)
        acting = batch.current_player.copy()
        batched.step(batch, actions)
        for i, state in enumerate(states):
            state.apply_action(int(actions[i]))
            outcome = state.outcome
            if outcome is None:
                assert not batch.terminated[i] and not batch.truncated[i]
                assert not batch.rewards[i].any()
            else:
                ended += 1
                capped = outcome.termination is Termination.PLY_CAP
                truncations += capped
                assert (batch.truncated[i], batch.terminated[i]) == (capped, not capped)
                assert tuple(batch.rewards[i]) == state.returns()
                final = encoder.encode(state, int(acting[i]))
                assert batch.final_observation[i].tobytes() == final.tobytes()
                states[i] = state = reference.start(batch.states[i])  # the automatic reset
            _check_game(batched, batch, i, state)
    assert ended >= min(n, 4)  # the automatic reset is exercised
    if options.get("max_plies", 100) <= 60:
        assert truncations >= min(n, 4)


def test_the_parallel_step_gives_what_the_serial_step_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    n = ALL_CORES
    monkeypatch.setattr(vector, "PARALLEL_FROM", n)
    parallel = BatchedGame("murus-gallicus", n, max_plies=20)
    monkeypatch.setattr(vector, "PARALLEL_FROM", n + 1)
    serial = BatchedGame("murus-gallicus", n, max_plies=20)
    batches = [parallel.init(seed=4), serial.init(seed=4)]
    policy = seeded_generators(3, n)
    for _ in range(100):
        actions = parallel.random_actions(batches[0], policy)
        parallel.step(batches[0], actions)
        serial.step(batches[1], actions)
        for name in ("states", "observation", "action_mask", "rewards", "terminated"):
            assert (getattr(batches[0], name) == getattr(batches[1], name)).all(), name


@pytest.mark.parametrize("dense", [True, False])
@pytest.mark.parametrize("illegal", ["unlisted", -1, "num_actions"])
def test_an_illegal_action_ends_the_game_against_its_player(
    dense: bool, illegal: str | int
) -> None:
    # With dense masks the step reads legality from the mask row, else from the listed ids.
    batched = BatchedGame("murus-gallicus", 2, dense_mask=dense)
    batch = batched.init(seed=0)
    legal = int(batch.legal_ids[0, 0])
    listed = set(batch.legal_ids[1, : batch.legal_count[1]].tolist())
    if illegal == "unlisted":
        illegal = next(a for a in range(batched.num_actions) if a not in listed)
    elif illegal == "num_actions":
        illegal = batched.num_actions
    batched.step(batch, [legal, int(illegal)])
    assert batch.terminated.tolist() == [False, True]
    assert batch.rewards.tolist() == [[0.0, 0.0], [-1.0, 0.0]]
    fresh = make("murus-gallicus").new_initial_state()
    assert batch.current_player[1] == fresh.current_player == 0
    assert sorted(batch.legal_ids[1, : batch.legal_count[1]]) == sorted(fresh.legal_actions())


@pytest.mark.parametrize(("game", "options"), [("cyvasse", {}), ("colosseum-offcuts", {})])
def test_observations_are_read_only_and_a_copied_batch_replays_its_games(
    game: str, options: dict[str, Any]
) -> None:
    # A step rewrites only what changed in each observation row: the caller may not write the
    # rows, and a copy of a batch (a search's snapshot) carries what its rows hold with it.
    batched = BatchedGame(game, 3, **options)
    batch = batched.init(seed=1)
    with pytest.raises(ValueError, match="read-only"):
        batch.observation[0, 0, 0, 0] = 1.0
    policy = seeded_generators(5, 3)
    for _ in range(30):
        batched.step(batch, batched.random_actions(batch, policy))
    snapshot, replay = copy.deepcopy(batch), policy.copy()
    seen = []
    for _ in range(60):
        batched.step(batch, batched.random_actions(batch, policy))
        seen.append(batch.observation.copy())
    for planes in seen:  # the snapshot's rows, stepped again from the copy, show the same
        batched.step(snapshot, batched.random_actions(snapshot, replay))
        assert snapshot.observation.tobytes() == planes.tobytes()
    with pytest.raises(ValueError, match="read-only"):
        snapshot.observation[1] = 0.0


def test_compact_masks_only() -> None:
    batched = BatchedGame("murus-gallicus", 3, dense_mask=False)
    batch = batched.init(seed=0)
    assert batch.action_mask.shape == (3, 0)
    fresh = sorted(make("murus-gallicus").new_initial_state().legal_actions())
    for i in range(3):
        assert sorted(batch.legal_ids[i, : batch.legal_count[i]]) == fresh


@pytest.mark.parametrize("seat", [0, 1])
def test_vector_env_plays_the_learner_against_random_bots(seat: int) -> None:
    env = VectorEnv("murus-gallicus", 4, seat=seat, max_plies=30)
    observation, info = env.reset(seed=5)
    assert observation.shape == (4, *env.batched.observation_shape)
    made = make("murus-gallicus", max_plies=30)
    encoder = observation_encoder(made)
    assert isinstance(encoder, FastEncoder)
    batch = env._batch
    assert batch is not None
    policy = seeded_generators(2, 4)
    rewards_seen: set[float] = set()
    ends = 0
    for _ in range(120):
        assert (batch.current_player == seat).all()
        for i in range(4):  # the learner's own view, on turn
            assert observation[i][encoder.channel("to move")].all()
            assert observation[i][encoder.channel(f"seat {seat}")].all()
        actions = env.batched.random_actions(batch, policy)
        observation, rewards, terminated, truncated, info = env.step(actions)
        done = terminated | truncated
        ends += int(done.sum())
        rewards_seen.update(rewards[done].tolist())
        assert not rewards[~done].any()
        if done.any():
            assert info["_final_obs"].tolist() == done.tolist()
    assert ends > 4
    assert rewards_seen <= {-1.0, 0.0, 1.0}
    assert {-1.0, 1.0} <= rewards_seen


def test_same_seed_same_games() -> None:
    runs = []
    for _ in range(2):
        env = VectorEnv("murus-gallicus", 3, seat=1)
        observation, _ = env.reset(seed=9)
        assert env._batch is not None
        policy = seeded_generators(4, 3)
        frames = [observation.copy()]
        for _ in range(30):
            observation, *_ = env.step(env.batched.random_actions(env._batch, policy))
            frames.append(observation.copy())
        runs.append(np.stack(frames))
    assert (runs[0] == runs[1]).all()


def test_without_kernel_or_compiled_encoder_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOARDLAB_ENGINE", "python")
    with pytest.raises(VectorError, match="need the compiled kernel of carnyx"):
        BatchedGame("carnyx", 2)
    monkeypatch.delenv("BOARDLAB_ENGINE")
    monkeypatch.delitem(COMPILED_OBSERVERS, "carnyx")
    with pytest.raises(VectorError, match="carnyx has no compiled observation encoder"):
        BatchedGame("carnyx", 2)


VECTOR_ENV_CASES = [
    ("carnyx", {}, 1),
    ("anacund", {}, 1),
    ("cyvasse", {"army": "K1H1L1M2", "max_plies": 40}, 1),
    ("colosseum-offcuts", {"no_capture_rounds": 2}, 0),
    ("colosseum-offcuts", {"players": 5, "no_capture_rounds": 2}, 3),
]
"""``(game, options, seat)``: a VectorEnv of every game and seat count but Murus Gallicus's
(tested above)."""


@pytest.mark.parametrize(("game", "options", "seat"), VECTOR_ENV_CASES)
def test_vector_env_of_every_game(game: str, options: dict[str, Any], seat: int) -> None:
    made = make(game, **options)
    dense = made.num_actions < 100_000
    env = VectorEnv(game, 3, seat=seat, dense_mask=dense, **options)
    observation, info = env.reset(seed=1)
    encoder = observation_encoder(env.batched.game)
    assert isinstance(encoder, FastEncoder)
    assert observation.shape == (3, *encoder.shape)
    batch = env._batch
    assert batch is not None
    policy = seeded_generators(6, 3)
    ends = 0
    for _ in range(150):
        assert (batch.current_player == seat).all()
        assert observation[:, encoder.channel(f"seat {seat}")].all()
        assert observation[:, encoder.channel("to move")].all()
        assert (info["legal_count"] > 0).all()
        if dense:
            assert (info["action_mask"].sum(axis=1) == info["legal_count"]).all()
        observation, rewards, terminated, truncated, info = env.step(
            env.batched.random_actions(batch, policy)
        )
        done = terminated | truncated
        ends += int(done.sum())
        assert not rewards[~done].any()
    assert ends >= 3


def _north_decisions(hidden_setup: bool) -> list[tuple[bytes, bytes]]:
    """Two Cyvasse games in which South deploys differently and North the same: at every
    decision North takes in its deployment, the two observations."""
    batched = BatchedGame("cyvasse", 2, hidden_setup=hidden_setup)
    batch = batched.init(seed=0)
    seen = []
    while batch.states[:, S_DEPLOYING].all():
        first = [int(batch.legal_ids[i, : batch.legal_count[i]].min()) for i in range(2)]
        if (batch.current_player == 0).all():
            last = int(batch.legal_ids[1, : batch.legal_count[1]].max())
            batched.step(batch, [first[0], last])  # South places differently
        else:
            assert (batch.current_player == 1).all()
            assert (batch.states[0, :NUM_HEXES] != batch.states[1, :NUM_HEXES]).any()
            seen.append((batch.observation[0].tobytes(), batch.observation[1].tobytes()))
            assert first[0] == first[1]
            batched.step(batch, first)
    return seen


def test_cyvasse_north_never_sees_south_s_hidden_deployment() -> None:
    seen = _north_decisions(hidden_setup=True)
    assert len(seen) > 10  # North's whole deployment
    assert all(first == second for first, second in seen)
    # The check can fail: with the deployment open, North sees South's placements.
    shown = _north_decisions(hidden_setup=False)
    assert len(shown) == len(seen)
    assert all(first != second for first, second in shown)


def test_gymnasium_episode_statistics_wrapper_counts_the_episodes() -> None:
    env = gymnasium.wrappers.vector.RecordEpisodeStatistics(VectorEnv("murus-gallicus", 8))
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    episodes = 0
    ended = 0
    for _ in range(150):
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in info["action_mask"]])
        _, _, terminated, truncated, info = env.step(actions)
        ended += int((terminated | truncated).sum())
        if "episode" in info:
            episodes += int(info["_episode"].sum())
    assert episodes == ended > 8


def test_anacund_games_start_from_the_layouts_of_the_seeds() -> None:
    batched = BatchedGame("anacund", 6)
    values = slice(VALUES, VALUES + SQUARES)  # the layout's values in the kernel state
    first = batched.init(seed=5).states[:, values].copy()
    assert len({row.tobytes() for row in first}) > 1  # the games' layouts differ
    layouts = [make("anacund", seed=5 + i).new_initial_state() for i in range(6)]
    drawn = {tuple(state.layout.value_of) for state in layouts}  # type: ignore[attr-defined]
    assert {tuple(row.tolist()) for row in first} <= drawn
    assert (batched.init(seed=5).states[:, values] == first).all()  # the same seed, again


@pytest.mark.parametrize("game", sorted(COMPILED_OBSERVERS))
def test_every_encoder_says_whether_it_writes_through_its_record(game: str) -> None:
    # The batch gives a logging record only to an encoder that reads it: one that settles
    # its planes through the record (kernel_planes.settle).
    module = vector.observer_module(game)
    settles = "settle(" in Path(str(module.__file__)).read_text()
    assert module.USES_RECORD is settles


def test_cyvasse_cells_are_written_anew_through_a_record_too_small_for_their_keys() -> None:
    # The encoder keys its cells in the record's log space; a record with no room for the keys
    # must not claim to know its array, or a second position would keep the first one's cells.
    game = make("cyvasse")
    kernel = kernel_for(game)
    assert kernel is not None
    encoder = observation_encoder(game)
    module = vector.observer_module("cyvasse")
    ints, floats = module.observer_tables(kernel, encoder)
    record = kernel_planes.new_record(encoder.shape[0], 1)  # room for one cell, not 182 keys
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    planes = np.zeros(encoder.shape, dtype=np.float32)
    played = 0
    while played < 120 and not state.is_terminal():
        seat = state.current_player
        module.observe(
            kernel.params, ints, floats, kernel.encode(state), seat, planes.reshape(-1), record
        )
        assert np.array_equal(planes, encoder.reference(state, seat)), played
        state.apply_action(int(rng.choice(state.legal_actions())))
        played += 1
