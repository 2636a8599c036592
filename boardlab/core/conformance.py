"""The conformance harness every game passes: seeded random playouts with invariants checked.

At every decision it checks that legal actions are valid ids with a matching mask, that
notation and action ids round-trip, that position text round-trips, that copies are
independent, that compound turns keep the same player, and at the end that the terminal state
has no moves and a consistent outcome.
"""

from __future__ import annotations

import random
from collections import Counter

from boardlab.core.game import Game
from boardlab.core.outcome import Result, Termination
from boardlab.core.state import State


class ConformanceError(AssertionError):
    """An invariant of the protocol failed; the message names the position and the check."""


def _fail(state: State, what: str) -> ConformanceError:
    return ConformanceError(f"{state.game.id}: {what} at {state.position_text()!r}")


def check_state(state: State, rng: random.Random) -> None:
    """Check the invariants of one state (see the module docstring)."""
    game = state.game
    actions = state.legal_actions()
    if len(set(actions)) != len(actions):
        raise _fail(state, "duplicate legal actions")
    if any(not 0 <= a < game.num_actions for a in actions):
        raise _fail(state, "action id outside the action space")
    mask = state.legal_mask()
    if sum(mask) != len(actions) or not all(mask[a] for a in actions):
        raise _fail(state, "legal mask disagrees with legal actions")
    names = [state.action_to_str(a) for a in actions]
    if len(set(names)) != len(names):
        raise _fail(state, "two actions share a notation string")
    for name in names:
        if not name.isascii() or not state.NOTATION.fullmatch(name) or "+" in name:
            raise _fail(state, f"non-canonical notation {name!r}")
    for index in rng.sample(range(len(actions)), min(3, len(actions))):
        if state.parse_action(names[index]) != actions[index]:
            raise _fail(state, f"notation {names[index]!r} does not parse back to its id")
    text = state.position_text()
    again = game.state_from_text(text)
    if again.position_text() != text:
        raise _fail(state, "position text does not round-trip")
    by_repetition = state.outcome and state.outcome.termination is Termination.REPETITION
    if not by_repetition and again.legal_moves() != sorted(names):
        raise _fail(state, "reparsed position has different legal moves")
    if state.is_terminal():
        _check_outcome(state)
    elif not actions:
        raise _fail(state, "a state that is not over has no legal action")


def _check_outcome(state: State) -> None:
    outcome = state.outcome
    if outcome is None or state.legal_actions():
        raise _fail(state, "terminal state with legal actions or without outcome")
    if len(outcome.results) != state.game.num_players:
        raise _fail(state, "outcome does not give every player a result")
    wins = outcome.results.count(Result.WIN)
    draws = outcome.results.count(Result.DRAW)
    if wins and draws:
        raise _fail(state, "outcome mixes wins and draws")
    if not wins and not draws:
        raise _fail(state, "every player lost")


def random_playout(game: Game, rng: random.Random, max_decisions: int = 100_000) -> State:
    """Play uniformly random decisions from the initial position, checking every state."""
    state = game.new_initial_state()
    for _ in range(max_decisions):
        check_state(state, rng)
        if state.is_terminal():
            return state
        before = state.position_text()
        player = state.current_player
        action = rng.choice(state.legal_actions())
        copy = state.clone()
        copy.apply_action(action)
        if state.position_text() != before:
            raise _fail(state, "applying an action to a copy changed the original")
        state.apply_action(action)
        if state.position_text() != copy.position_text():
            raise _fail(state, "the same action gave different positions")
        if not state.is_terminal() and not state.turn_start and state.current_player != player:
            raise _fail(state, "the player changed inside a compound turn")
    raise ConformanceError(f"{game.id}: no end after {max_decisions} decisions")


def run_conformance(game: Game, playouts: int, seed: int) -> Counter[Termination]:
    """Run ``playouts`` checked random games; returns how often each termination occurred."""
    rng = random.Random(seed)
    endings: Counter[Termination] = Counter()
    for _ in range(playouts):
        final = random_playout(game, rng)
        assert final.outcome is not None
        endings[final.outcome.termination] += 1
    return endings
