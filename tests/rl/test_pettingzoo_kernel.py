"""The PettingZoo environment stepped on the kernel alone shows what the reference shows.

On the compiled engine the environment plays every action on its kernel state only and keeps
the reference state behind, replaying the actions when something reads it. These tests play
the same random games through the environment on both engines and against the reference rules
played alongside, and compare everything an agent sees.
"""

from __future__ import annotations

import pickle
import weakref
from typing import Any

import numpy as np
import pytest

from boardlab.core.engine import ENGINE_VARIABLE, kernel_for
from boardlab.core.options import SEED
from boardlab.core.registry import make
from boardlab.core.state import State
from boardlab.rl import BoardlabAECEnv
from boardlab.rl.compiled import KernelGame
from tests.rl.cases import CASES, IDS, SMALL_ARMY

pytest.importorskip("numba")

Trace = list[tuple[Any, ...]]


def _env(game: str, options: dict[str, Any], engine: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv(ENGINE_VARIABLE, engine)
    env = BoardlabAECEnv(game, **options)
    monkeypatch.delenv(ENGINE_VARIABLE)
    assert (env.compiled is not None) is (engine == "fast")
    return env


def _drawn(seed: int) -> int:
    """The ``seed`` option of the first game after ``reset(seed=seed)`` (as documented)."""
    return int(np.random.default_rng(seed).integers(2**31))


def _reference(game: str, options: dict[str, Any], seed: int) -> State:
    """The first position of the game the environment plays after ``reset(seed=seed)``."""
    made = make(game, **options)
    if SEED in made.options:
        made = make(game, **{**options, SEED: _drawn(seed)})
    return made.new_initial_state()


def _seen(env: Any) -> tuple[Any, ...]:
    """Everything the agents may see now: each agent's planes and mask, and ``last()``."""
    agent = env.agent_selection
    _, reward, terminated, truncated, info = env.last()
    views = []
    for other in env.agents:
        seen = env.observe(other)
        planes, mask = seen["observation"], seen["action_mask"]
        assert planes.dtype == np.float32 and mask.dtype == np.int8
        views.append((other, planes.tobytes(), np.flatnonzero(mask).tolist()))
    return (
        agent, reward, terminated, truncated, dict(info), tuple(views), env.legal_actions(),
        dict(env.rewards), dict(env.terminations), dict(env.truncations), list(env.agents),
    )  # fmt: skip


def _play(
    env: Any, seed: int, state: State | None, pickle_at: int = -1, read_every: int = 0
) -> Trace:
    """A random game through the AEC loop from ``reset(seed=seed)``; the trace of what the
    agents saw. With ``state`` (the reference game's first position), the rules are played
    alongside: every mask is its legal ids and every planes its reference encoding, and the
    environment's reference state (read every ``read_every`` steps) is the same position.
    At step ``pickle_at`` the environment is pickled and the game goes on with the copy."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace: Trace = []
    steps = 0
    final: dict[str, float] = {}
    while env.agents:  # agent_iter(), which would hold on to the environment pickled
        if steps == pickle_at:
            env = pickle.loads(pickle.dumps(env))
        agent = env.agent_selection
        trace.append(_seen(env))
        if state is not None:
            seat = env.possible_agents.index(agent)
            for other, planes, mask in trace[-1][5]:
                on_turn = other == agent and not state.is_terminal()
                assert mask == (sorted(state.legal_actions()) if on_turn else [])
                expected = env.encoder.reference(state, env.possible_agents.index(other))
                assert planes == expected.tobytes()
            if not state.is_terminal():
                assert state.current_player == seat
                assert env.legal_actions() == sorted(state.legal_actions())
            if read_every and steps % read_every == 0:
                assert env.state_.position_text() == state.position_text()
        _, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        action = int(rng.choice(env.legal_actions()))
        env.step(action)
        if state is not None:
            state.apply_action(action)
        steps += 1
    if state is not None:
        assert env.state_.position_text() == state.position_text()
        assert state.is_terminal()
        assert final == dict(zip(env.possible_agents, state.returns(), strict=True))
    return trace


@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_both_engines_show_the_same_games_as_the_reference_rules(
    game: str, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two games each (the second reset draws Anacund's layout and Cyvasse's coin again). The
    # compiled environment's reference state is read at different times (or not until the end),
    # so the actions kept for it are replayed in bunches of every size.
    fast = _env(game, options, "fast", monkeypatch)
    python = _env(game, options, "python", monkeypatch)
    for seed, read_every in ((11, 1), (12, 7), (13, 0)):
        on_fast = _play(fast, seed, _reference(game, options, seed), read_every=read_every)
        on_python = _play(python, seed, _reference(game, options, seed), read_every=1)
        assert on_fast == on_python


@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_an_environment_pickled_mid_game_shows_the_same_game(
    game: str, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    for engine in ("fast", "python"):
        env = _env(game, options, engine, monkeypatch)
        whole = _play(env, 5, _reference(game, options, 5))
        for pickle_at, read_every in ((0, 0), (9, 0), (9, 4), (len(whole) // 2, 3)):
            again = _play(env, 5, _reference(game, options, 5), pickle_at, read_every)
            assert again == whole


@pytest.mark.parametrize("engine", ["fast", "python"])
@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_an_illegal_action_ends_the_game_the_same_on_both_engines(
    game: str, options: dict[str, Any], engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for illegal in ("unlisted", -1, "num_actions", 2**70):
        env = _env(game, options, engine, monkeypatch)
        env.reset(seed=3)
        state = _reference(game, options, 3)
        rng = np.random.default_rng(3)
        for _ in range(5):
            action = int(rng.choice(env.legal_actions()))
            env.step(action)
            state.apply_action(action)
        agent = env.agent_selection
        legal = env.legal_actions()
        if illegal == "unlisted":
            illegal = next(a for a in range(env.game.num_actions) if a not in legal)
        elif illegal == "num_actions":
            illegal = env.game.num_actions
        env.step(illegal)
        assert env.rewards == {other: -1.0 if other == agent else 0.0 for other in env.agents}
        assert all(env.terminations.values()) and not any(env.truncations.values())
        assert all(info == {"illegal_action": agent} for info in env.infos.values())
        assert env.legal_actions() == []
        for other in env.agents:
            seen = env.observe(other)
            assert not seen["action_mask"].any()
            seat = env.possible_agents.index(other)
            assert np.array_equal(seen["observation"], env.encoder.reference(state, seat))
        assert env.state_.position_text() == state.position_text()  # nothing was played
        for _ in env.agent_iter():  # every agent steps out with None
            env.step(None)
        assert env.agents == []


@pytest.mark.parametrize("engine", ["fast", "python"])
def test_render_hides_the_other_sides_deployment_on_both_engines(
    engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENGINE_VARIABLE, engine)
    env = BoardlabAECEnv("cyvasse", render_mode="ansi", army=SMALL_ARMY)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    reference = _reference("cyvasse", {"army": SMALL_ARMY}, 0)
    first = env.agent_selection
    while env.agent_selection == first:  # the first seat deploys its whole army
        action = int(rng.choice(env.legal_actions()))
        env.step(action)
        reference.apply_action(action)
    seat = env.possible_agents.index(env.agent_selection)
    drawn = env.render()
    assert drawn == reference.view_state(seat).render() != reference.render()
    assert isinstance(drawn, str) and "?" in drawn


@pytest.mark.parametrize("game", ["anacund", "cyvasse"])
def test_a_game_started_from_a_seed_on_the_kernel_is_the_game_that_seed_makes(game: str) -> None:
    # The compiled environment starts each seeded game without making it: Anacund's layout
    # from the seed's values, Cyvasse's coin for a King tie in the parameters.
    base = make(game, seed=1)
    kernel = kernel_for(base)
    assert kernel is not None
    started = KernelGame(base, kernel, BoardlabAECEnv(game).encoder)
    ties = set()
    for seed in range(0, 3000, 7):
        started.start(seed)
        made = make(game, seed=seed)
        made_kernel = kernel_for(made)
        assert made_kernel is not None
        assert np.array_equal(started.state, made_kernel.encode(made.new_initial_state()))
        assert np.array_equal(started.params, made_kernel.params)
        ties.add(started.params.tobytes())
    assert game == "anacund" or len(ties) == 2  # both coins were tossed


def _keep(way: int, seen: dict[str, Any], last: tuple[Any, ...]) -> Any:
    """One of the ways a caller may hold on to an observation (0: not at all)."""
    planes, mask = seen["observation"], seen["action_mask"]
    if way == 1:
        return seen
    if way == 2:
        return planes
    if way == 3:
        return mask
    if way == 4:
        return mask[::1]  # a view: holds the mask through its base
    if way == 5:
        return planes[0]
    if way == 6:
        return last
    if way == 7:
        return memoryview(planes)
    if way == 8:  # the dict changed in place, then let go
        seen["action_mask"] = mask.astype(bool)
        return None
    return None


@pytest.mark.parametrize("engine", ["fast", "python"])
@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_kept_observations_never_change_and_the_others_arrays_are_reused(
    game: str, options: dict[str, Any], engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # On the compiled engine a step makes the next observation in the arrays of the one
    # before last when nothing else holds them; anything a caller keeps, in whatever form,
    # must stay as it was, and every observation must still be right.
    env = _env(game, options, engine, monkeypatch)
    rng = np.random.default_rng(8)
    kept: list[tuple[Any, bytes]] = []
    handed: list[weakref.ref[Any]] = []
    reused = 0
    for seed in (8, 9):
        env.reset(seed=seed)
        state = _reference(game, options, seed)
        while not state.is_terminal():
            agent = env.agent_selection
            last = env.last()
            seen = last[0]
            planes, mask = seen["observation"], seen["action_mask"]
            assert mask.dtype == np.int8 and planes.dtype == np.float32
            assert np.flatnonzero(mask).tolist() == sorted(state.legal_actions())
            seat = env.possible_agents.index(agent)
            assert np.array_equal(planes, env.encoder.reference(state, seat))
            reused += any(ref() is planes for ref in handed)
            handed.append(weakref.ref(planes))
            way = int(rng.integers(9))
            held = _keep(way, seen, last)
            if held is not None:
                kept.append((held, _contents(held)))
            del last, seen, planes, mask, held
            action = int(rng.choice(env.legal_actions()))
            env.step(action)
            state.apply_action(action)
    for held, contents in kept:
        assert _contents(held) == contents
    assert (reused > 0) is (engine == "fast")


def _contents(held: Any) -> bytes:
    """The bytes of what ``held`` shows of an observation."""
    if isinstance(held, tuple):
        held = held[0]
    if isinstance(held, dict):
        return bytes(held["observation"].tobytes() + held["action_mask"].tobytes())
    return bytes(held.tobytes())


def test_the_compiled_step_called_past_numbas_dispatch_refuses_arrays_of_another_type() -> None:
    # The environment calls the compiled step's code directly, which no longer picks code by
    # the arguments' types: an array of another type must be refused, never read as raw memory.
    compiled = BoardlabAECEnv("murus-gallicus").compiled
    assert compiled is not None
    count = compiled.start() >> 3
    action = int(compiled.ids[0])
    mask = np.zeros(compiled.game.num_actions, np.int8)
    for planes in (
        np.zeros(compiled.encoder.shape, np.float64),
        np.zeros(compiled.encoder.shape, np.float32).tolist(),
    ):
        with pytest.raises(TypeError):
            compiled.advance(compiled.work, count, action, planes, mask, False)
    planes = np.empty(compiled.encoder.shape, np.float32)
    assert compiled.advance(compiled.work, count, action, planes, mask, False) >= 0
    assert mask.sum() > 0
