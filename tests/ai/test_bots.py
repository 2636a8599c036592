"""Bots on the toy games: legal decisions, budgets, determinism, tactics, compound turns."""

from __future__ import annotations

import random
import time

import pytest

from boardlab.ai import Bot, make_bot
from boardlab.ai.mcts import MctsBot
from boardlab.core.game import Game
from boardlab.core.state import State
from tests.toy_games import Nim, TicTacToe, WideNim

TWO_PLAYER_SPECS = [
    "random",
    "greedy:noise=0.2",
    "alphabeta:depth=3",
    "alphabeta:depth=2,noise=0.1",
    "mcts:iters=60",
    "mcts:iters=60,rollout=0",
    "level:easy",
    "level:medium",
]


def _bot(spec: str, game: Game, seed: int = 1) -> Bot:
    bot = make_bot(spec, game, seed)
    assert bot is not None
    return bot


def _self_play(spec: str, game: Game, seed: int) -> list[int]:
    bots = [_bot(spec, game, seed + p) for p in range(game.num_players)]
    state = game.new_initial_state()
    played = []
    while not state.is_terminal():
        action = bots[state.current_player].choose(state.view_state(state.current_player))
        assert action in state.legal_actions()
        played.append(action)
        state.apply_action(action)
    return played


@pytest.mark.parametrize("spec", TWO_PLAYER_SPECS)
def test_two_player_bots_play_legal_games(spec: str) -> None:
    for seed in range(3):
        _self_play(spec, TicTacToe(), seed)
        _self_play(spec, Nim(pile=12, steps=2), seed)


@pytest.mark.parametrize(
    "spec", ["random", "greedy", "alphabeta:depth=3", "mcts:iters=40", "level:medium"]
)
def test_multi_player_bots_play_legal_games(spec: str) -> None:
    for players in (3, 5):
        _self_play(spec, WideNim(players=players, pile=20, steps=2), 7)


@pytest.mark.parametrize(
    "spec",
    ["greedy:noise=0.3", "alphabeta:depth=4,noise=0.1", "mcts:iters=200", "level:hard"],
)
def test_same_seed_same_game(spec: str) -> None:
    game = TicTacToe()
    assert _self_play(spec, game, 5) == _self_play(spec, game, 5)


def test_seeds_vary_play() -> None:
    game = TicTacToe()
    games = {tuple(_self_play("mcts:iters=50", game, seed)) for seed in range(6)}
    assert len(games) > 1


@pytest.mark.parametrize("spec", ["mcts:time=0.2", "alphabeta:time=0.2"])
def test_time_budget_respected(spec: str) -> None:
    # Big Nim: alpha-beta cannot finish, MCTS has no iteration cap.
    state = Nim(pile=400, steps=2).new_initial_state()
    bot = _bot(spec, state.game)
    start = time.perf_counter()
    action = bot.choose(state)
    # It searches for its whole budget (a bot that gave up early would play worse than asked),
    # and stops soon after: the upper bound leaves room for a loaded machine.
    assert 0.2 <= time.perf_counter() - start < 1.0
    assert action in state.legal_actions()


WIN_IN_ONE = "xx.oo.... x"  # x completes the top row with c1
MUST_BLOCK = "xx..o.... o"  # o must take c1 or lose next turn


@pytest.mark.parametrize(
    "spec", ["greedy", "alphabeta:depth=1", "alphabeta:depth=4", "mcts:iters=20", "level:easy"]
)
def test_takes_win_in_one(spec: str) -> None:
    state = TicTacToe().state_from_text(WIN_IN_ONE)
    for seed in range(5):
        assert _bot(spec, state.game, seed).choose(state) == 2


@pytest.mark.parametrize(
    "spec", ["alphabeta:depth=2", "alphabeta:depth=5", "mcts:iters=300", "level:hard"]
)
def test_avoids_immediate_loss(spec: str) -> None:
    state = TicTacToe().state_from_text(MUST_BLOCK)
    for seed in range(5):
        assert _bot(spec, state.game, seed).choose(state) == 2


def _nim_wins(state: State, memo: dict[str, bool]) -> bool:
    """True when the player to move wins with perfect play (two players)."""
    key = state.position_text()
    if key not in memo:
        player = state.current_player
        memo[key] = False
        for action in state.legal_actions():
            child = state.child(action)
            if child.is_terminal():
                won = child.returns()[player] > 0
            elif child.current_player == player:
                won = _nim_wins(child, memo)
            else:
                won = not _nim_wins(child, memo)
            if won:
                memo[key] = True
    return memo[key]


# A turn takes 2 to 4 stones (1 when one is left), so the side to move loses exactly when the
# pile is 0 or 5 modulo 6; these are the winning starts from 4 to 12 stones.
WINNING_STARTS = [4, 7, 8, 9, 10]
LOSING_STARTS = [5, 6, 11, 12]


def test_nim_starts_are_classified_by_brute_force() -> None:
    memo: dict[str, bool] = {}
    for stones in WINNING_STARTS + LOSING_STARTS:
        state = Nim(pile=stones, steps=2).new_initial_state()
        assert _nim_wins(state, memo) == (stones in WINNING_STARTS), stones


@pytest.mark.parametrize("stones", WINNING_STARTS)
def test_alphabeta_solves_compound_turn_nim(stones: int) -> None:
    # Each turn is two decisions by the same player: the search must not flip sides inside it.
    game = Nim(pile=stones, steps=2)
    state = game.new_initial_state()
    memo: dict[str, bool] = {}
    action = _bot("alphabeta:depth=12", game).choose(state)
    child = state.child(action)
    assert child.current_player == 0  # still inside the first turn
    assert _nim_wins(child, memo)


@pytest.mark.parametrize("stones", LOSING_STARTS)
def test_alphabeta_plays_on_from_a_losing_start(stones: int) -> None:
    state = Nim(pile=stones, steps=2).new_initial_state()
    assert _bot("alphabeta:depth=12", state.game).choose(state) in state.legal_actions()


def test_mcts_three_players_takes_the_last_stones() -> None:
    game = Nim(players=3, pile=10, steps=2)
    state = game.state_from_text("2 1 1 0")
    assert _bot("mcts:iters=10", game).choose(state) == 1


def test_mcts_reuses_its_tree() -> None:
    game = TicTacToe()
    bot = MctsBot(seed=3, iters=300)
    state = game.new_initial_state()
    state.apply_action(bot.choose(state))
    state.apply_action(random.Random(0).choice(state.legal_actions()))
    bot.choose(state)
    assert bot.stats()["reused"] > 0
    assert bot.stats()["simulations"] == 300


def test_mcts_without_reuse_starts_fresh() -> None:
    game = TicTacToe()
    bot = MctsBot(seed=3, iters=100, reuse=False)
    state = game.new_initial_state()
    state.apply_action(bot.choose(state))
    state.apply_action(state.legal_actions()[0])
    bot.choose(state)
    assert bot.stats()["reused"] == 0
