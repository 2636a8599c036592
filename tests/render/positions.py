"""Positions of every game for picture tests: the start and seeded random playouts."""

from __future__ import annotations

import random
from collections.abc import Iterator

from boardlab.core.game import Game
from boardlab.core.registry import game_ids, make
from boardlab.core.render_model import ClickPath, RenderModel
from boardlab.core.state import State

GAMES = [*game_ids(), "colosseum-offcuts:5"]
"""Every installed game, and Colosseum Offcuts at five seats (its widest palette)."""


def make_game(name: str) -> Game:
    """The game ``id`` or ``id:seats``."""
    game_id, _, seats = name.partition(":")
    return make(game_id, players=seats) if seats else make(game_id)


def playout(game: Game, seed: int) -> Iterator[tuple[State, tuple[ClickPath, ...]]]:
    """Each position of a seeded random game with the click paths of the turn that led there."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    turn: list[ClickPath] = []
    last: tuple[ClickPath, ...] = ()
    yield state, last
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        turn.append(state.click_path(action))
        state = state.child(action)
        if state.is_terminal() or state.turn_start:
            last, turn = tuple(turn), []
        yield state, last


def mid_game(game: Game, plies: int, seed: int) -> RenderModel:
    """The model after ``plies`` random decisions (or the end), its last turn marked."""
    for index, (state, last) in enumerate(playout(game, seed)):
        if index == plies or state.is_terminal():
            return state.render_model(last_turn=last)
    raise AssertionError("a playout ends in a terminal state")
