"""The analysis board's search, in process: bot specs made plain and budgeted, and the
suggestion, line and values it returns."""

from __future__ import annotations

import boardlab
from boardlab.ai.players import make_bot, parse_spec
from boardlab.web.analysis_bot import LINE_DECISIONS, analyse, analysis_spec, evaluations
from boardlab.web.creation import bot_specs


def test_every_catalogue_bot_is_searched_without_noise_within_the_budget() -> None:
    for game_id in boardlab.game_ids():
        state = boardlab.make(game_id).new_initial_state()
        for spec in bot_specs():
            plain = analysis_spec(spec, state, 0.7)
            kind, params = parse_spec(plain)
            assert isinstance(params, dict) and "noise" not in params, plain
            if kind in ("alphabeta", "mcts"):
                assert 0 < float(params["time"]) <= 0.7, plain
            assert make_bot(plain, state.game, 1) is not None


def test_a_spec_keeps_its_own_shorter_time_and_gets_one_if_it_has_none() -> None:
    state = boardlab.make("carnyx").new_initial_state()
    assert analysis_spec("alphabeta:depth=4,time=0.2,noise=0.1", state, 3.0) == (
        "alphabeta:depth=4,time=0.2"
    )
    assert analysis_spec("mcts:iters=20", state, 3.0) == "mcts:iters=20,time=3.0"
    assert analysis_spec("greedy:noise=0.3", state, 3.0) == "greedy"


def test_the_suggestion_starts_a_legal_line_with_values_before_and_after() -> None:
    state = boardlab.make("murus-gallicus").new_initial_state()
    found = analyse(state, "level:medium", 1.0, 7)
    probe = state.clone()
    for decision in found["line"]:
        probe.play(decision)
    assert found["suggestion"] == found["line"][0]
    assert 1 <= len(found["line"]) <= LINE_DECISIONS
    assert found["before"] == evaluations(state) and found["after"] == evaluations(probe)
    assert (
        state.position_text() == boardlab.make("murus-gallicus").new_initial_state().position_text()
    )


def test_a_line_that_ends_the_game_stops_there_with_its_result() -> None:
    # Played on along the suggestions, some line of the bot reaches the end of the game.
    state = boardlab.make("murus-gallicus").new_initial_state()
    moves: list[str] = []
    while not state.is_terminal():
        found = analyse(state, "level:easy", 0.5, len(moves))
        if found["line_over"]:
            assert found["after"] in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
            return
        moves.append(found["suggestion"])
        state.play(found["suggestion"])
    raise AssertionError(f"no line ended the game in {len(moves)} decisions")
