"""The registry: making games by id, errors for unknown ids, and game identity."""

from __future__ import annotations

import pytest

import boardlab
from boardlab.core.errors import UnknownGameError


def test_make_resolves_options_with_defaults() -> None:
    game = boardlab.make("murus-gallicus", max_plies=200)
    assert game.options == {"board": "8x7", "repetition_draw": 3, "max_plies": 200}
    assert game.max_plies == 200
    assert game.player_names == ("Romans", "Gauls")


def test_games_compare_by_id_and_options_and_repr_evaluates_back() -> None:
    game = boardlab.make("murus-gallicus", board="8x8")
    assert game == boardlab.make("murus-gallicus", board="8x8")
    assert game != boardlab.make("murus-gallicus")
    assert eval(repr(game), {"boardlab": boardlab}) == game


def test_state_repr_evaluates_back() -> None:
    state = boardlab.make("murus-gallicus").new_initial_state()
    state.play("d1-d3")
    again = eval(repr(state), {"boardlab": boardlab})
    assert again == state
    assert hash(again) == hash(state)


def test_unknown_game_lists_the_known_ones() -> None:
    with pytest.raises(UnknownGameError, match="murus-gallicus"):
        boardlab.make("chess")


def test_registered_games_include_murus_gallicus() -> None:
    assert "murus-gallicus" in boardlab.game_ids()


def test_play_takes_one_turn_and_refuses_a_string_that_runs_past_it() -> None:
    anacund = boardlab.make("anacund", layout="l0").new_initial_state()
    actions = anacund.play("6@19+5@21")
    assert [anacund.action_to_str(a) for a in actions] == ["6@19", "5@21"]
    assert len(actions) == 2
    assert anacund.current_player == 0
    murus = boardlab.make("murus-gallicus").new_initial_state()
    with pytest.raises(boardlab.IllegalMoveError, match="the turn ends after d1-d3"):
        murus.play("d1-d3+a7-a5")
    assert murus.ply == 0
