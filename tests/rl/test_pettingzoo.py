"""The PettingZoo AEC environments: PettingZoo's own API and seed tests, and the game's end."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from boardlab.core.engine import ENGINE_VARIABLE
from boardlab.core.registry import make
from boardlab.games.cyvasse.board import RANK_OF
from boardlab.games.cyvasse.state import CyvasseState
from boardlab.games.cyvasse.units import KING, SIDE_BASE
from boardlab.rl import BoardlabAECEnv, pettingzoo_env
from tests.rl.cases import CASES, IDS, SMALL_ARMY


@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_pettingzoo_api_and_seed_tests_pass(game: str, options: dict[str, Any]) -> None:
    api_test(pettingzoo_env(game, **options), num_cycles=25)
    seed_test(lambda: pettingzoo_env(game, **options), num_cycles=10)


def _play_out(env: BoardlabAECEnv, seed: int) -> dict[str, float]:
    """Play random legal actions to the end; the rewards each agent saw when it was done."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final: dict[str, float] = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)  # a done agent steps out with None
            continue
        mask = observation["action_mask"]
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return final


def test_a_game_played_to_its_end_hands_out_its_returns() -> None:
    env = BoardlabAECEnv("murus-gallicus")
    final = _play_out(env, seed=3)
    returns = env.state_.returns()
    assert final == {f"player_{seat}": r for seat, r in enumerate(returns)}
    assert sorted(returns) == [-1.0, 1.0]
    assert env.agents == []


def test_the_ply_cap_is_a_truncation_and_a_draw() -> None:
    env = BoardlabAECEnv("carnyx", max_plies=6)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    while not any(env.truncations.values()):
        assert not any(env.terminations.values())
        env.step(int(rng.choice(np.flatnonzero(env.action_mask(env.agent_selection)))))
    assert all(env.truncations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}


def test_an_illegal_action_ends_the_game_against_its_player() -> None:
    env = BoardlabAECEnv("murus-gallicus")
    env.reset(seed=0)
    illegal = int(np.flatnonzero(env.action_mask("player_0") == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0}


def test_reset_seed_fixes_a_chance_game_and_changes_with_the_seed() -> None:
    env = BoardlabAECEnv("anacund")
    texts = []
    for seed in (5, 5, 6):
        env.reset(seed=seed)
        texts.append(env.state_.position_text())
    assert texts[0] == texts[1] != texts[2]


@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_pettingzoo_render_test_passes(game: str, options: dict[str, Any]) -> None:
    render_test(lambda render_mode: pettingzoo_env(game, render_mode=render_mode, **options))


def test_human_mode_prints_the_drawing(capsys: pytest.CaptureFixture[str]) -> None:
    env = pettingzoo_env("murus-gallicus", render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    assert capsys.readouterr().out == make("murus-gallicus").new_initial_state().render() + "\n"


def test_render_shows_the_agent_on_turn_only_its_view() -> None:
    env = pettingzoo_env("cyvasse", render_mode="ansi", army=SMALL_ARMY, seed=0)
    env.reset(seed=0)
    first = env.agent_selection
    rng = np.random.default_rng(0)
    while env.agent_selection == first:  # the first seat deploys its whole army
        env.step(int(rng.choice(np.flatnonzero(env.observe(first)["action_mask"]))))
    state = env.unwrapped.state_
    seat = env.unwrapped.possible_agents.index(env.agent_selection)
    assert env.render() == state.view_state(seat).render() != state.render()


def test_render_modes_draw_the_position() -> None:
    text = pettingzoo_env("cyvasse", render_mode="ansi")
    text.reset(seed=0)
    assert (
        text.render() == make("cyvasse", seed=text.unwrapped.game.seed).new_initial_state().render()
    )
    svg = pettingzoo_env("anacund", render_mode="svg")
    svg.reset(seed=0)
    picture = svg.render()
    assert isinstance(picture, str)
    assert picture.startswith("<svg")
    with pytest.raises(ValueError, match="render_mode"):
        pettingzoo_env("carnyx", render_mode="rgb_array")


def test_observations_handed_out_stay_as_they_were_after_later_steps() -> None:
    # Callers may keep an observation (replay buffers): later steps must not rewrite it. The
    # mask of an agent off turn is one shared all-zeros array, read-only so no caller can
    # change what the others see.
    env = BoardlabAECEnv("murus-gallicus")
    env.reset(seed=2)
    kept = env.observe("player_0")
    planes, mask = kept["observation"].copy(), kept["action_mask"].copy()
    off_turn = env.observe("player_1")["action_mask"]
    assert not off_turn.any()
    with pytest.raises(ValueError, match="read-only"):
        off_turn[0] = 1
    rng = np.random.default_rng(2)
    for _ in range(6):
        env.step(int(rng.choice(env.legal_actions())))
        env.observe(env.agent_selection)
    assert np.array_equal(kept["observation"], planes)
    assert np.array_equal(kept["action_mask"], mask)


@pytest.mark.parametrize("engine", ["fast", "python"])
@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_observations_are_the_reference_planes_and_the_legal_mask(
    game: str, options: dict[str, Any], engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # On the compiled engine the planes and the mask come from a kernel state played beside
    # the reference state; on the reference engine from the fast NumPy encoder.
    if engine == "fast":
        pytest.importorskip("numba")
    monkeypatch.setenv(ENGINE_VARIABLE, engine)
    env = BoardlabAECEnv(game, **options)
    assert (env.compiled is not None) is (engine == "fast")
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    while env.agents and not env.terminations[env.agent_selection]:
        state, agent = env.state_, env.agent_selection
        for other in env.agents:
            seat = int(other.removeprefix("player_"))
            seen = env.observe(other)
            assert np.array_equal(seen["observation"], env.encoder.reference(state, seat))
            legal = sorted(state.legal_actions()) if other == agent else []
            assert np.flatnonzero(seen["action_mask"]).tolist() == legal
        if any(env.truncations.values()):
            break
        env.step(int(rng.choice(env.legal_actions())))


def test_cyvasse_king_tie_follows_the_coin_of_each_reset_s_seed() -> None:
    # Each reset's seed tosses the coin for a King tie; the compiled engine's kernel state
    # must follow the same toss as the reference, or the seat to move after the deployment
    # (its planes' "to move" and its mask) would differ.
    pytest.importorskip("numba")
    env = BoardlabAECEnv("cyvasse", army=SMALL_ARMY)
    assert env.compiled is not None
    rng = np.random.default_rng(0)
    first_on_tie = set()
    for seed in range(80):
        env.reset(seed=seed)
        while env.state_.deploying:  # type: ignore[attr-defined]
            env.step(int(rng.choice(env.legal_actions())))
        state = env.state_
        assert isinstance(state, CyvasseState)
        board = state.board
        south, north = (abs(RANK_OF[board.index(base + KING)] - 6) for base in SIDE_BASE)
        if south == north:
            first_on_tie.add(state.current_player)
            for seat in range(2):
                agent = f"player_{seat}"
                seen = env.observe(agent)
                assert np.array_equal(seen["observation"], env.encoder.reference(state, seat))
                legal = sorted(state.legal_actions()) if agent == env.agent_selection else []
                assert np.flatnonzero(seen["action_mask"]).tolist() == legal
    assert first_on_tie == {0, 1}


def test_an_environment_pickled_mid_game_goes_on_with_the_same_observations() -> None:
    # Trainers copy environments to worker processes; the compiled observer travels as its
    # game and kernel state and finds its compiled code again where it is loaded.
    env = BoardlabAECEnv("cyvasse", army=SMALL_ARMY)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(14):  # through the deployment into play
        env.step(int(rng.choice(env.legal_actions())))
    loaded = pickle.loads(pickle.dumps(env))
    assert (loaded.compiled is None) is (env.compiled is None)
    for _ in range(6):
        action = int(rng.choice(env.legal_actions()))
        for copy in (env, loaded):
            copy.step(action)
        for agent in env.agents:
            seen, again = env.observe(agent), loaded.observe(agent)
            assert np.array_equal(seen["observation"], again["observation"])
            assert np.array_equal(seen["action_mask"], again["action_mask"])
            seat = int(agent.removeprefix("player_"))
            expected = env.encoder.reference(loaded.state_, seat)
            assert np.array_equal(again["observation"], expected)
