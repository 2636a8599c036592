"""The observation planes: shape and channel names, every game's vocabulary, hidden deployment."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from boardlab.core.game import Game
from boardlab.core.registry import make
from boardlab.core.state import State
from boardlab.rl import observation_encoder
from boardlab.rl.observation import ObservationEncoder
from boardlab.rl.vocabulary import VOCABULARIES
from tests.rl.cases import CASES, IDS, SMALL_ARMY

ENCODERS: list[Callable[[Game], ObservationEncoder]] = [ObservationEncoder, observation_encoder]
"""The reference encoder (render model) and each game's fast encoder."""
ENCODER_IDS = ["reference", "fast"]


@pytest.mark.parametrize("encoding", ENCODERS, ids=ENCODER_IDS)
@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_random_games_encode_for_every_seat_in_the_declared_shape(
    game: str, options: dict[str, Any], encoding: Callable[[Game], ObservationEncoder]
) -> None:
    made = make(game, **({"seed": 2} if game in ("anacund", "cyvasse") else {}), **options)
    encoder = encoding(made)
    assert len(encoder.channel_names()) == encoder.shape[0]
    rng = random.Random(0)
    state = made.new_initial_state()
    while True:
        for seat in range(made.num_players):
            planes = encoder.encode(state, seat)
            assert planes.shape == encoder.shape
            assert planes.dtype == np.float32
            assert (planes >= 0).all()
            assert planes[encoder.channel_names().index(f"seat {seat}")].all()
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("encoding", ENCODERS, ids=ENCODER_IDS)
def test_owners_are_seat_relative(encoding: Callable[[Game], ObservationEncoder]) -> None:
    """Murus Gallicus: each seat sees its own 16 stones (eight towers) in channel ``seat+0``."""
    encoder = encoding(make("murus-gallicus"))
    state = make("murus-gallicus").new_initial_state()
    names = encoder.channel_names()
    own, other = names.index("piece stone seat+0"), names.index("piece stone seat+1")
    romans, gauls = encoder.encode(state, 0), encoder.encode(state, 1)
    assert romans[own].sum() == gauls[own].sum() == 16
    assert (romans[own] == gauls[other]).all()
    assert not (romans[own] == gauls[own]).all()


@pytest.mark.parametrize("encoding", ENCODERS, ids=ENCODER_IDS)
def test_colosseum_window_places_cells_at_their_action_indices(
    encoding: Callable[[Game], ObservationEncoder],
) -> None:
    """A placement's action id is its window index: the placed counter shows there."""
    game = make("colosseum-offcuts", players=3)
    encoder = encoding(game)
    state = game.new_initial_state()
    (action,) = state.legal_actions()  # the first placement goes on 0,0
    state.apply_action(action)
    size = encoder.rows
    height = encoder.encode(state, 0)[encoder.channel_names().index("height")]
    assert height.reshape(-1)[action] == 1 and height.sum() == 1
    assert (size, encoder.columns) == (14, 14)
    assert action == 1 * size + 1


@pytest.mark.parametrize("encoding", ENCODERS, ids=ENCODER_IDS)
def test_colosseum_window_matches_the_action_ids_through_a_game(
    encoding: Callable[[Game], ObservationEncoder],
) -> None:
    """Flips, attacks and Mobile moves start on an occupied cell: their window index has height."""
    game = make("colosseum-offcuts", players=3)
    encoder = encoding(game)
    cells = encoder.rows * encoder.columns
    height_channel = encoder.channel_names().index("height")
    rng = random.Random(5)
    state = game.new_initial_state()
    checked = 0
    for _ in range(120):
        if state.is_terminal():
            break
        seat = state.current_player
        height = encoder.encode(state, seat)[height_channel].reshape(-1)
        for action in state.legal_actions():
            if cells <= action < 2 * cells:
                origin = action - cells
            elif 2 * cells <= action < 6 * cells:
                origin = (action - 2 * cells) // 4
            elif 6 * cells <= action < 6 * cells + cells * cells:
                origin = (action - 6 * cells) // cells
            else:
                continue
            assert height[origin] > 0
            checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 100


def _deployment_pair(observer: int, seed: int) -> list[tuple[State, State]]:
    """Two Cyvasse games whose ``observer`` plays the same, the other seat differently.

    Returns the pairs of positions after each decision while deployment lasts.
    """
    game = make("cyvasse", army=SMALL_ARMY, seed=7)
    runs = []
    for other_seed in (seed, seed + 1):
        own, other = random.Random(seed), random.Random(other_seed)
        state = game.new_initial_state()
        states = []
        while state.render_model().phase == "deployment":
            rng = own if state.current_player == observer else other
            state.apply_action(rng.choice(sorted(state.legal_actions())))
            states.append(state.clone())
        runs.append(states)
    return list(zip(runs[0], runs[1], strict=True))


@pytest.mark.parametrize("encoding", ENCODERS, ids=ENCODER_IDS)
@pytest.mark.parametrize("observer", [0, 1])
def test_cyvasse_observations_never_show_the_other_seats_hidden_deployment(
    observer: int, encoding: Callable[[Game], ObservationEncoder]
) -> None:
    encoder = encoding(make("cyvasse", army=SMALL_ARMY, seed=7))
    differing = 0
    for first, second in _deployment_pair(observer, seed=observer):
        if first.render_model().phase != "deployment":
            continue
        if first.position_text() != second.position_text():
            differing += 1
        assert (encoder.encode(first, observer) == encoder.encode(second, observer)).all()
    assert differing >= 3  # the other seat's deployments really differed


def test_a_piece_kind_missing_from_the_vocabulary_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    vocabulary = replace(VOCABULARIES["carnyx"], pieces=(), pooled=("disc",))
    monkeypatch.setitem(VOCABULARIES, "carnyx", vocabulary)
    encoder = ObservationEncoder(make("carnyx"))
    state = make("carnyx").new_initial_state()
    encoder.encode(state, 0)  # nothing on the board yet
    state.apply_action(state.legal_actions()[0])
    with pytest.raises(ValueError, match="'disc' is not in its vocabulary"):
        encoder.encode(state, 0)
