"""MCTS on the compiled engine: the tree in compiled code, seeded searches repeat, its
statistics add up, it plays the tactics of built positions, and a position the kernel cannot
hold is searched on the reference engine instead (as is every position with
``BOARDLAB_ENGINE=python``)."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.ai import mcts_compiled
from boardlab.ai.mcts import MctsBot
from boardlab.core.registry import make
from boardlab.core.state import State
from boardlab.games.cyvasse.state import CyvasseState
from tests.ai.test_tactics import AVOID_LOSS, WIN_IN_ONE, _game, _loses_at_once, _wins_at_once

pytest.importorskip("numba")

MIDGAME = {
    "murus-gallicus": ("GGGG1GGG/8/8/4g3/3R4/8/RRR1RRRR R 12", {}),
    "colosseum-offcuts": (None, {"players": 3}),
    "anacund": (None, {"seed": 4}),
    "carnyx": (None, {}),
    "cyvasse": (None, {"seed": 2, "hidden_setup": False}),
}


def _position(game_id: str, plies: int = 12) -> State:
    """A position ``plies`` seeded random decisions in (or the written one)."""
    text, options = MIDGAME[game_id]
    game = make(game_id, **options)
    if text is not None:
        return game.state_from_text(text)
    state, rng = game.new_initial_state(), random.Random(1)
    for _ in range(plies):
        child = state.child(rng.choice(state.legal_actions()))
        if child.is_terminal():
            break
        state = child
    return state


def _cycled(plies: int) -> State:
    """A game with ``plies`` decisions and no sacrifice: a long repetition history."""
    game = boardlab.make("murus-gallicus", repetition_draw=1000, max_plies=0)
    state = game.state_from_text("GG6/8/8/8/8/8/RR6 R 0")
    moves = [m.replace("1", "7") if index % 2 else m for index, m in enumerate(_moves(plies))]
    for move in moves:
        state.play(move)
    return state


def _moves(plies: int) -> list[str]:
    romans = ["b1-d1", "a1-c1", "c1-a1", "b1-d1", "d1-b1", "c1-a1"]
    return [romans[(index // 2) % 6] for index in range(plies)]


@pytest.mark.parametrize("game_id", sorted(MIDGAME))
def test_a_seeded_search_repeats_on_the_compiled_tree(game_id: str) -> None:
    state = _position(game_id)
    first = MctsBot(seed=5, iters=400)
    action = first.choose(state)
    assert first.stats()["compiled"] == 1.0
    second = MctsBot(seed=5, iters=400)
    assert second.choose(state) == action
    assert second.root_children() == first.root_children()
    assert action in state.legal_actions()


@pytest.mark.parametrize("game_id", sorted(MIDGAME))
def test_the_root_statistics_add_up(game_id: str) -> None:
    state = _position(game_id)
    bot = MctsBot(seed=3, iters=700, rollout=6)
    action = bot.choose(state)
    children = bot.root_children()
    assert bot.stats()["simulations"] == 700
    assert sum(visits for _, visits, _ in children) == 700  # one root decision per simulation
    assert len({a for a, _, _ in children}) == len(children)
    assert {a for a, _, _ in children} <= set(state.legal_actions())
    best = max(children, key=lambda child: (child[1], child[2]))
    assert action == best[0]
    # Rewards are in [-1, 1]: each sum is bounded by the visits.
    assert all(abs(total) <= visits for _, visits, total in children)


@pytest.mark.parametrize("engine", ["python", "fast"])
def test_exploration_spreads_the_visits(engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a huge exploration constant UCT visits the root decisions in turn."""
    monkeypatch.setenv("BOARDLAB_ENGINE", engine)
    state = _position("murus-gallicus")
    bot = MctsBot(seed=1, iters=1000, c=1000.0)
    bot.choose(state)
    visits = [v for _, v, _ in bot.root_children()]
    assert len(visits) == len(state.legal_actions())
    assert max(visits) - min(visits) <= 2


def test_rollouts_to_the_end_need_no_evaluation() -> None:
    state = _position("anacund")
    bot = MctsBot(seed=2, iters=300, rollout=1000)  # longer than any game of Anacund
    bot.choose(state)
    assert bot.stats()["python_evaluations"] == 0
    assert bot.stats()["simulations"] == 300


def test_the_tree_grows_by_a_node_per_simulation_up_to_its_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = _position("murus-gallicus")
    bot = MctsBot(seed=2, iters=6000)
    bot.choose(state)
    assert 4096 < bot.stats()["nodes"] <= 6001  # grown beyond its first pool
    monkeypatch.setattr(mcts_compiled, "MAX_ROWS", 1000)
    capped = MctsBot(seed=2, iters=6000)
    capped.choose(state)
    assert capped.stats()["nodes"] == 1000
    assert capped.stats()["simulations"] == 6000
    assert sum(visits for _, visits, _ in capped.root_children()) == 6000


def test_the_tree_is_reused_on_the_next_decision() -> None:
    state = _position("murus-gallicus")
    bot = MctsBot(seed=3, iters=2000)
    state.apply_action(bot.choose(state))
    state.apply_action(random.Random(0).choice(state.legal_actions()))
    bot.choose(state)
    reused = bot.stats()["reused"]
    assert reused > 0
    # The new root keeps its old visits and gains the new simulations.
    assert sum(visits for _, visits, _ in bot.root_children()) == reused - 1 + 2000
    fresh = MctsBot(seed=3, iters=2000, reuse=False)
    fresh.choose(state)
    assert fresh.stats()["reused"] == 0


def test_the_reference_tree_serves_when_the_engine_is_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("BOARDLAB_ENGINE", "python")
    state = _position("murus-gallicus")
    bot = MctsBot(seed=5, iters=200)
    assert bot.choose(state) in state.legal_actions()
    assert "compiled" not in bot.stats()
    assert sum(visits for _, visits, _ in bot.root_children()) == 200


@pytest.mark.parametrize("engine", ["python", "fast"])
@pytest.mark.parametrize("game_id", sorted(WIN_IN_ONE))
def test_takes_a_win_in_one(game_id: str, engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOARDLAB_ENGINE", engine)
    state = _game(game_id).state_from_text(WIN_IN_ONE[game_id])
    player = state.current_player
    for seed in (1, 2):
        action = MctsBot(seed=seed, iters=50).choose(state.view_state(player))
        assert _wins_at_once(state, action, player)


@pytest.mark.parametrize("engine", ["python", "fast"])
@pytest.mark.parametrize("game_id", ["carnyx", "colosseum-offcuts"])
def test_blocks_a_loss_in_one(game_id: str, engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOARDLAB_ENGINE", engine)
    state = _game(game_id).state_from_text(AVOID_LOSS[game_id])
    player = state.current_player
    for seed in (1, 2, 3):
        bot = MctsBot(seed=seed, iters=300)
        action = bot.choose(state.view_state(player))
        assert bot.stats().get("compiled", 0.0) == (engine == "fast")
        assert not _loses_at_once(state, action, player)


def test_the_compiled_tree_finds_the_single_safe_cyvasse_decision() -> None:
    """North to move (seat 1): 25 of its 26 decisions let South win at once. 200 simulations
    (tests/ai/test_tactics.py) do not find the safe one; 20,000 do, in a few seconds."""
    state = _game("cyvasse").state_from_text(AVOID_LOSS["cyvasse"])
    player = state.current_player
    for seed in (1, 2):
        bot = MctsBot(seed=seed, iters=20000)
        action = bot.choose(state.view_state(player))
        assert bot.stats()["compiled"] == 1.0
        assert not _loses_at_once(state, action, player)


def _deployment(seed: int) -> CyvasseState:
    """Hidden deployment, the second side to deploy to move after its first placement."""
    state = make("cyvasse", seed=11).new_initial_state()
    assert isinstance(state, CyvasseState)
    rng = random.Random(seed)
    first = state.current_player
    while state.current_player == first:
        state.apply_action(rng.choice(state.legal_actions()))
    state.apply_action(state.legal_actions()[0])
    return state


def test_a_hidden_cyvasse_deployment_is_searched_from_the_view() -> None:
    one, other = _deployment(1), _deployment(2)
    seat = one.current_player
    assert one.deploying and one.presets() == []  # no preset: the bot searches
    assert one.position_text() != other.position_text()  # the first army differs...
    assert one.view_state(seat).position_text() == other.view_state(seat).position_text()
    choices = []
    for state in (one, other):
        bot = MctsBot(seed=4, iters=300)
        choices.append(bot.choose(state.view_state(seat)))
        assert bot.stats()["compiled"] == 1.0
        assert choices[-1] in state.legal_actions()
    assert choices[0] == choices[1]  # ...and the search cannot see it


@pytest.mark.parametrize("plies", [120, 108])
def test_a_long_history_is_searched_on_the_kernel(plies: int) -> None:
    """120 plies: past what the kernel's state once held; 108: past it during the search. The
    kernel holds every legal game now: the compiled search plays, with no engine in its place."""
    state = _cycled(plies)
    bot = MctsBot(seed=1, iters=300, rollout=8)
    assert bot.choose(state) in state.legal_actions()
    assert bot.stats()["simulations"] == 300
    assert bot.stats()["compiled"] == 1.0
