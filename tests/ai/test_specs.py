"""Player specs: grammar, errors that name what is allowed, levels."""

from __future__ import annotations

import pytest

import boardlab
from boardlab.ai import make_bot
from boardlab.ai.alphabeta import AlphaBetaBot
from boardlab.ai.greedy import GreedyBot
from boardlab.ai.levels import LEVEL_TABLE, LEVELS, level_spec
from boardlab.ai.mcts import MctsBot
from boardlab.ai.players import parse_spec
from boardlab.ai.random_bot import RandomBot
from boardlab.core.errors import OptionError
from tests.toy_games import Nim, TicTacToe


def test_human_is_none() -> None:
    assert make_bot("human", TicTacToe(), 1) is None


@pytest.mark.parametrize(
    ("spec", "cls"),
    [
        ("random", RandomBot),
        ("greedy", GreedyBot),
        ("greedy:noise=0.2", GreedyBot),
        ("alphabeta:depth=4", AlphaBetaBot),
        ("alphabeta:depth=4,time=2", AlphaBetaBot),
        ("mcts:time=1.0", MctsBot),
        ("mcts:iters=2000,c=1.4", MctsBot),
        ("mcts:iters=50,rollout=0,reuse=false", MctsBot),
    ],
)
def test_specs_make_their_bot(spec: str, cls: type) -> None:
    bot = make_bot(spec, TicTacToe(), 1)
    assert isinstance(bot, cls)
    assert bot is not None
    assert bot.spec == spec


def test_parse_spec_values() -> None:
    assert parse_spec("mcts:iters=2000,c=1.4") == ("mcts", {"iters": 2000, "c": 1.4})
    assert parse_spec("level:hard") == ("level", "hard")
    assert parse_spec("alphabeta:nodes=5000,time=1,compiled=false") == (
        "alphabeta",
        {"nodes": 5000, "time": 1.0, "compiled": False},
    )


@pytest.mark.parametrize(
    ("spec", "names"),
    [
        ("minimax", "kinds are"),
        ("mcts:depth=3", "mcts takes: iters, time"),
        ("alphabeta:depth=x", "a int"),
        ("alphabeta:depth=0", "positive"),
        ("alphabeta:nodes=0", "positive"),
        ("alphabeta:nodes=1e13", "a int"),
        ("alphabeta:nodes=10000000000000", "at most 1e\\+12"),
        ("alphabeta:compiled=1", "true or false"),
        ("mcts:time=-1", "positive"),
        ("mcts:iters", "KEY=VALUE"),
        ("mcts:", "KEY=VALUE"),
        ("random:x=1", "random takes: none"),
        ("mcts:reuse=yes", "true or false"),
        ("level:grandmaster", "easy, medium, hard, expert"),
    ],
)
def test_bad_specs_raise_option_error(spec: str, names: str) -> None:
    with pytest.raises(OptionError, match=names):
        make_bot(spec, TicTacToe(), 1)


def test_alphabeta_plays_more_than_two_players_and_takes_a_win() -> None:
    game = Nim(players=3)
    bot = make_bot("alphabeta:depth=4", game, 1)
    assert isinstance(bot, AlphaBetaBot)
    state = game.state_from_text("2 1 0 0")
    assert state.action_to_str(bot.choose(state)) == "2"


@pytest.mark.parametrize("level", LEVELS)
def test_levels_make_bots_for_two_and_more_players(level: str) -> None:
    for game in (TicTacToe(), Nim(players=3)):
        bot = make_bot(f"level:{level}", game, 1)
        assert bot is not None
        assert bot.spec == f"level:{level}"
        assert make_bot(level_spec(game, level), game, 1) is not None


def test_level_specs_carry_a_time_cap_or_are_one_ply() -> None:
    for game in (TicTacToe(), Nim(players=3)):
        for level in LEVELS:
            spec = level_spec(game, level)
            assert "time=" in spec or spec.startswith(("greedy", "random"))


TIME_BUDGETS = {"medium": 0.5, "hard": 1.0, "expert": 3.0}
"""The most seconds a decision may take at each level, for pleasant web play (docs/bots.md)."""


@pytest.mark.parametrize("game_id", ["murus-gallicus", "colosseum-offcuts", "anacund"])
def test_levels_by_time_cap_the_work_below_expert_and_only_the_time_at_expert(
    game_id: str,
) -> None:
    specs = {level: parse_spec(LEVEL_TABLE[game_id][level]) for level in LEVELS}
    assert specs["easy"][0] == "greedy"
    caps = []
    for level in ("medium", "hard", "expert"):
        kind, params = specs[level]
        assert isinstance(params, dict) and kind in ("alphabeta", "mcts")
        assert "depth" not in params, (level, params)
        assert 0 < float(params["time"]) <= TIME_BUDGETS[level], (level, params)
        cap = params.get("nodes" if kind == "alphabeta" else "iters")
        assert (cap is None) == (level == "expert"), (level, params)
        caps.append((kind, 0 if cap is None else int(cap)))
    (medium_kind, medium_cap), (hard_kind, hard_cap), _ = caps
    assert medium_kind != hard_kind or hard_cap > medium_cap


@pytest.mark.parametrize("game_id", list(LEVEL_TABLE))
def test_tuned_levels_apply_at_every_seat_count(game_id: str) -> None:
    game = boardlab.make(game_id)
    assert [level_spec(game, level) for level in LEVELS] == list(LEVEL_TABLE[game_id].values())
    if game_id == "colosseum-offcuts":
        for seats in (3, 5):
            more = boardlab.make(game_id, players=seats)
            for level in LEVELS:
                assert make_bot(f"level:{level}", more, 1) is not None
                assert level_spec(more, level) == LEVEL_TABLE[game_id][level]


@pytest.mark.parametrize("game_id", ["murus-gallicus", "carnyx", "cyvasse"])
def test_alphabeta_levels_are_a_node_cap_and_a_time_budget_and_expert_is_time_only(
    game_id: str,
) -> None:
    game = boardlab.make(game_id)
    searching = [level for level in LEVELS if parse_spec(level_spec(game, level))[0] != "greedy"]
    assert searching[-1] == "expert"
    for level in searching:
        kind, params = parse_spec(level_spec(game, level))
        assert kind == "alphabeta" and isinstance(params, dict)
        assert "depth" not in params and params["time"] > 0
        assert ("nodes" in params) == (level != "expert")
