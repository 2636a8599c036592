"""Tactics on every two-player game: take a win in one, and avoid a move that loses at once.

Positions are written in each game's position text (docs/rules/<game>.md, §Position text); each
test first checks its position by brute force, so it cannot pass on a position that does not
hold the tactic it claims.
"""

from __future__ import annotations

import pytest

from boardlab.ai import Bot, make_bot
from boardlab.core.game import Game
from boardlab.core.registry import make
from boardlab.core.state import State


def _game(game_id: str) -> Game:
    # Seeded where the game draws something (Anacund's layout, Cyvasse's first mover).
    seeded = {"anacund", "cyvasse"}
    return make(game_id, seed=7) if game_id in seeded else make(game_id)


def _bot(spec: str, game: Game, seed: int) -> Bot:
    bot = make_bot(spec, game, seed)
    assert bot is not None
    return bot


def _wins_at_once(state: State, action: int, player: int) -> bool:
    child = state.child(action)
    return child.is_terminal() and child.returns()[player] > 0


def _loses_at_once(state: State, action: int, player: int) -> bool:
    """True when, after ``action``, the opponent has a decision that wins at once."""
    child = state.child(action)
    if child.is_terminal():
        return child.returns()[player] < 0
    opponent = child.current_player
    assert opponent != player, "the position must be at the last decision of a turn"
    return any(_wins_at_once(child, reply, opponent) for reply in child.legal_actions())


WIN_IN_ONE = {
    # Carnyx: Dark's a3xa4 is the only one of 9 decisions that wins.
    "carnyx": "3(DLLD)1/L4/D4/5/D2D1 D 0,8,0/0,10,0 D a5-a4 - 42",
    # Colosseum Offcuts: a-3,0:-2,0x is the only winning decision of 22.
    "colosseum-offcuts": "2 -3,0=2F/-2,0=2b1F/-2,1=1B/-2,2=2f/-1,1=2b/-1,2=1B 2 m0,1:-2,2 13 0 71",
    # Cyvasse: South's h7xh8 is the only winning decision of 169.
    "cyvasse": "1cr1se/1Mrr3/3bhe2/1b2dM1k1/shllt2L2/2S8/1TL2H1D2/RC2M2S1/5EB1/1RKH3/BM1RE1"
    " S - - 5 7",
}

AVOID_LOSS = {
    # Carnyx: 2 of Dark's 5 decisions let Light win at once.
    "carnyx": "2L2/4L/(DLL)4/5/3L1 D 0,10,2/0,8,0 - c1-d1 - 48",
    # Colosseum Offcuts: 2 of Black's 5 decisions let the opponent win at once.
    "colosseum-offcuts": "2 -3,1=2b/-2,1=1B/-1,0=2F/-1,1=2b/-1,2=1B1F/-1,3=2F 1 a-2,2:-1,2 4 0 62",
    # Cyvasse: North's e6-e4 is the only one of 26 decisions that does not lose at once.
    "cyvasse": "3H1t/4b2/3M1M2/1EE6/10/4k2K2s/3D6/3M5/6M1/7/6 N - - 89 302",
}


@pytest.mark.parametrize("spec", ["greedy", "alphabeta:depth=2", "mcts:iters=200"])
@pytest.mark.parametrize("game_id", sorted(WIN_IN_ONE))
def test_takes_win_in_one(game_id: str, spec: str) -> None:
    game = _game(game_id)
    state = game.state_from_text(WIN_IN_ONE[game_id])
    player = state.current_player
    actions = state.legal_actions()
    winning = {a for a in actions if _wins_at_once(state, a, player)}
    assert winning and len(winning) < len(actions)  # the position holds the tactic
    for seed in (1, 2):
        assert _bot(spec, game, seed).choose(state.view_state(player)) in winning


# UCT with 200 simulations cannot cover Cyvasse's 26 decisions and their replies well enough
# to find the single safe one, so Cyvasse's avoid-loss test runs alpha-beta only.
@pytest.mark.parametrize(
    ("game_id", "spec"),
    [
        (g, s)
        for g in sorted(AVOID_LOSS)
        for s in ("alphabeta:depth=2", "mcts:iters=200")
        if (g, s) != ("cyvasse", "mcts:iters=200")
    ],
)
def test_avoids_immediate_loss(game_id: str, spec: str) -> None:
    game = _game(game_id)
    state = game.state_from_text(AVOID_LOSS[game_id])
    player = state.current_player
    actions = state.legal_actions()
    assert not any(_wins_at_once(state, a, player) for a in actions)
    safe = {a for a in actions if not _loses_at_once(state, a, player)}
    assert safe and len(safe) < len(actions)  # the position holds the tactic
    for seed in (1, 2):
        assert _bot(spec, game, seed).choose(state.view_state(player)) in safe


# Anacund: B's second-to-last placement; the last one is forced (one free square is left), so
# 1@29 wins the game and 1@35 loses it: the win-in-one of a placement game.
ANACUND_LAST = (
    "564453642216351564226241655314233113 24 baaAaAAAaaAaaAabbBbbbbbBBBBb.aaaaa.b B 1 000/110"
)


def _final_result(state: State, player: int) -> float:
    """The result for ``player`` once the forced placements that remain are played."""
    while not state.is_terminal():
        (action,) = state.legal_actions()
        state = state.child(action)
    return state.returns()[player]


@pytest.mark.parametrize("spec", ["greedy", "alphabeta:depth=2", "mcts:iters=200"])
def test_anacund_takes_the_higher_final_score(spec: str) -> None:
    game = _game("anacund")
    state = game.state_from_text(ANACUND_LAST)
    player = state.current_player
    results = {a: _final_result(state.child(a), player) for a in state.legal_actions()}
    assert sorted(results.values()) == [-1.0, 1.0]  # one placement wins, the other loses
    for seed in (1, 2):
        assert results[_bot(spec, game, seed).choose(state.view_state(player))] == 1.0


@pytest.mark.parametrize("spec", ["alphabeta:depth=2", "mcts:iters=200"])
def test_anacund_avoids_the_losing_placement(spec: str) -> None:
    # B's alternative, 1@35, loses once the forced last placement is played.
    game = _game("anacund")
    state = game.state_from_text(ANACUND_LAST)
    player = state.current_player
    for seed in (3, 4):
        action = _bot(spec, game, seed).choose(state.view_state(player))
        assert _final_result(state.child(action), player) >= 0
