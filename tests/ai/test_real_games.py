"""Bots on the registered games: legal decisions from several positions of every installed game,
and Murus Gallicus tactics in positions from its spec (rules §8, Test facts 8)."""

from __future__ import annotations

import random

import pytest

from boardlab.ai import Bot, make_bot
from boardlab.ai.bench import bench_position, bot_speed
from boardlab.core.game import Game
from boardlab.core.registry import game_ids, make
from boardlab.core.state import State

GAMES = [make(game_id) for game_id in game_ids()]


def _bot(spec: str, game: Game, seed: int = 1) -> Bot:
    bot = make_bot(spec, game, seed)
    assert bot is not None
    return bot


def _positions(game: Game, count: int = 3, seed: int = 0) -> list[State]:
    """The initial position and a few reached by random decisions, none over."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    found = [state.clone()]
    while len(found) < count and not state.is_terminal():
        for _ in range(rng.randrange(1, 12)):
            actions = state.legal_actions()
            if not actions:
                break
            state.apply_action(rng.choice(actions))
        if not state.is_terminal():
            found.append(state.clone())
    return found


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_bot_decides_legally(game: Game) -> None:
    specs = ["random", "greedy", "mcts:iters=25", "level:easy"]
    if game.num_players == 2:
        specs.append("alphabeta:depth=1")
    for state in _positions(game):
        player = state.current_player
        view = state.view_state(player)
        for spec in specs:
            assert _bot(spec, game).choose(view) in state.legal_actions(), spec


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_heuristic_in_range(game: Game) -> None:
    for state in _positions(game, 4, seed=3):
        for player in range(game.num_players):
            assert -1.0 <= state.heuristic(player) <= 1.0


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_bot_speed_reports_positive_rates(game: Game) -> None:
    speed = bot_speed(game, seconds=0.05)
    assert speed["mcts_sims_per_s"] > 0
    assert ("alphabeta_nodes_per_s" in speed) == (game.num_players == 2)
    assert not bench_position(game).is_terminal()


def _murus() -> Game:
    return make("murus-gallicus")


# Test fact 8: c5-c7 lands on the Gauls' home row.
BREAKTHROUGH = "GG1GGGGG/8/2R5/8/8/8/RR1RRRRR R 20"
# A Gaul tower on c3 threatens c3-c1; the Romans must put a stone on c2 or c1.
THREAT = "GG1GGGGG/8/8/8/2G5/8/RR1RRRRR R 20"


@pytest.mark.parametrize(
    "spec", ["greedy", "alphabeta:depth=1", "alphabeta:depth=3", "mcts:iters=30", "level:expert"]
)
def test_murus_takes_breakthrough(spec: str) -> None:
    game = _murus()
    state = game.state_from_text(BREAKTHROUGH)
    action = _bot(spec, game).choose(state)
    assert state.action_to_str(action) == "c5-c7"


@pytest.mark.parametrize(
    "spec", ["alphabeta:depth=2", "alphabeta:depth=4", "mcts:iters=400", "level:hard"]
)
def test_murus_blocks_breakthrough(spec: str) -> None:
    game = _murus()
    state = game.state_from_text(THREAT)
    for seed in range(3):
        child = state.child(_bot(spec, game, seed).choose(state))
        for reply in child.legal_actions():
            assert child.child(reply).returns()[0] >= 0, state.action_to_str(reply)
