"""The OpenSpiel games: OpenSpiel's random-simulation test, and its MCTS playing each game."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, mcts

from boardlab.rl.openspiel_game import register_openspiel_games, short_name
from tests.rl.cases import CASES, IDS

register_openspiel_games()


def _shorter(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """Games shorter still: OpenSpiel's checks and MCTS's rollouts are costly per decision."""
    if "max_plies" in options:
        return {**options, "max_plies": 16}
    if game == "colosseum-offcuts":
        return {**options, "no_capture_rounds": 1}
    return options


@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_openspiel_random_simulation_test_passes_with_serialization(
    game: str, options: dict[str, Any]
) -> None:
    loaded = pyspiel.load_game(short_name(game), _shorter(game, options))
    pyspiel.random_sim_test(loaded, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_games_and_states_pickle(game: str, options: dict[str, Any]) -> None:
    loaded = pyspiel.load_game(short_name(game), _shorter(game, options))
    again = pickle.loads(pickle.dumps(loaded))
    assert str(again) == str(loaded)
    state = loaded.new_initial_state()
    for _ in range(3):
        state.apply_action(state.legal_actions()[-1])
    copy = pickle.loads(pickle.dumps(state))
    assert copy.history() == state.history()
    assert str(copy) == str(state)
    assert copy.legal_actions() == state.legal_actions()


def test_information_state_tensor_is_declared_absent_and_is_absent() -> None:
    game = pyspiel.load_game("boardlab_murus_gallicus")
    assert not game.get_type().provides_information_state_tensor
    state = game.new_initial_state()
    with pytest.raises(NotImplementedError, match="no information-state tensor"):
        state.information_state_tensor(0)
    assert game.get_type().provides_observation_tensor
    assert len(state.observation_tensor(0)) == int(np.prod(game.observation_tensor_shape()))


@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_openspiel_mcts_plays_a_whole_game(game: str, options: dict[str, Any]) -> None:
    loaded = pyspiel.load_game(short_name(game), _shorter(game, options))
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(loaded, 1.4, 4, evaluator, random_state=rng)]
    bots += [pyspiel.make_uniform_random_bot(p, p) for p in range(1, loaded.num_players())]
    state = loaded.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, bots, rng)
    assert state.is_terminal()
    assert len(returns) == loaded.num_players()
    assert set(returns) <= {-1.0, 0.0, 1.0}


def test_game_types_say_what_each_game_is() -> None:
    cyvasse = pyspiel.load_game("boardlab_cyvasse")
    assert cyvasse.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    open_setup = pyspiel.load_game("boardlab_cyvasse", {"hidden_setup": False})
    assert open_setup.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert pyspiel.load_game("boardlab_carnyx").get_type().utility == (
        pyspiel.GameType.Utility.ZERO_SUM
    )
    four = pyspiel.load_game("boardlab_colosseum_offcuts", {"players": 4})
    assert four.num_players() == 4
    assert four.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert four.num_distinct_actions() == 18 * 18 * (6 + 18 * 18) + 1


def test_cyvasse_information_state_hides_the_other_deployment() -> None:
    game = pyspiel.load_game("boardlab_cyvasse", {"army": "K1H1R2M1", "seed": 3})
    state = game.new_initial_state()
    mover = state.current_player()
    state.apply_action(state.legal_actions()[0])
    other = 1 - mover
    seen = state.information_state_string(other)
    assert state.information_state_string(mover) != seen
    twin = game.new_initial_state()
    twin.apply_action(twin.legal_actions()[-1])
    assert twin.information_state_string(other) == seen
    assert twin.observation_string(other) == state.observation_string(other)
