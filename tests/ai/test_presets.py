"""Bots deploy with whole-turn presets (Cyvasse lineups) instead of searching each placement."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardlab.ai import Bot, make_bot
from boardlab.core.registry import make
from boardlab.games.cyvasse.presets import lineup_from_state
from boardlab.games.cyvasse.state import CyvasseState
from tests.toy_games import TicTacToe

SPECS = ["random", "greedy", "alphabeta:depth=2", "mcts:iters=200", "level:hard"]


@pytest.fixture(autouse=True)
def no_user_presets(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Presets come from the built-ins only (no user preset file)."""
    monkeypatch.setenv("BOARDLAB_HOME", str(tmp_path))


def _bot(spec: str, seed: int) -> Bot:
    bot = make_bot(spec, make("cyvasse"), seed)
    assert bot is not None
    return bot


def _fresh() -> CyvasseState:
    state = make("cyvasse", seed=3).new_initial_state()
    assert isinstance(state, CyvasseState)
    return state


def _deploy(bots: list[Bot], state: CyvasseState) -> list[int]:
    """Let the bots deploy both armies; every decision is checked legal and from a preset."""
    played = []
    while state.deploying:
        seat = state.current_player
        action = bots[seat].choose(state.view_state(seat))
        assert action in state.legal_actions()
        assert bots[seat].stats() == {"preset": 1.0}
        played.append(action)
        state.apply_action(action)
    return played


def _preset_lineups(state: CyvasseState) -> set[str]:
    """The lineup string of every named preset, as deployed by the side to move."""
    found = set()
    for name in state.presets():
        if name != "random":
            child = state.clone()
            for action in child.preset_actions(name):
                child.apply_action(action)
            found.add(lineup_from_state(child, state.current_player))
    return found


@pytest.mark.parametrize("spec", SPECS)
def test_bots_deploy_a_whole_army_from_a_preset(spec: str) -> None:
    state = _fresh()
    named = _preset_lineups(state)
    assert len(named) == 3
    seen = set()
    for seed in range(4):
        state = _fresh()
        _deploy([_bot(spec, seed), _bot(spec, seed + 10)], state)
        for side in (0, 1):
            # A named lineup, or a random one that is still exactly the legal army.
            seen.add(lineup_from_state(state, side))
    assert seen & named


@pytest.mark.parametrize("spec", SPECS)
def test_preset_deployment_is_deterministic_for_a_seed(spec: str) -> None:
    runs = [_deploy([_bot(spec, 5), _bot(spec, 6)], _fresh()) for _ in range(2)]
    assert runs[0] == runs[1]


def test_seeds_pick_different_presets() -> None:
    lineups = set()
    for seed in range(8):
        state = _fresh()
        _deploy([_bot("random", seed), _bot("random", seed + 100)], state)
        lineups.add(lineup_from_state(state, 0))
    assert len(lineups) > 1


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:iters=20"])
def test_bot_recovers_when_the_position_leaves_its_plan(spec: str) -> None:
    state = _fresh()
    bot = _bot(spec, 1)
    first = bot.choose(state.view_state(0))
    # The caller plays another placement: the plan no longer fits, yet every choice is legal.
    state.apply_action(next(a for a in state.legal_actions() if a != first))
    while state.deploying and state.current_player == 0:
        action = bot.choose(state.view_state(0))
        assert action in state.legal_actions()
        state.apply_action(action)
    lineup_from_state(state, 0)  # the whole army stands in its zone


def test_user_preset_is_offered_to_bots() -> None:
    state = _fresh()
    for action in state.preset_actions("random", 7):
        state.apply_action(action)
    state.save_preset("mine", 0)
    assert "mine" in _fresh().presets()
    lineups = set()
    for seed in range(12):
        fresh = _fresh()
        bot = _bot("random", seed)
        while fresh.current_player == 0 and fresh.deploying:
            fresh.apply_action(bot.choose(fresh.view_state(0)))
        lineups.add(lineup_from_state(fresh, 0))
    assert lineup_from_state(state, 0) in lineups


def test_games_without_presets_search_as_before() -> None:
    state = TicTacToe().new_initial_state()
    bot = make_bot("mcts:iters=30", state.game, 1)
    assert bot is not None
    bot.choose(state)
    assert bot.stats()["simulations"] == 30
