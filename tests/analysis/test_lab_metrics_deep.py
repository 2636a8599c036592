"""The deep trace's metrics (clarity, uncertainty, the chosen move's shortfall, repetition, move
distance, the state-space estimate), each against a hand computation on a small fixed game."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from boardlab.analysis import decision_metrics as dm
from boardlab.analysis.deep_trace import (
    NO_DISTANCE,
    DeepTrace,
    alternatives_summary,
    board_key,
    move_distance,
    state_space,
)
from boardlab.analysis.lab import LabConfig, plan_series, run_lab
from boardlab.analysis.summary import summarize_run
from boardlab.analysis.trace import GameTask, GameTrace, play_traced
from boardlab.core.registry import make
from boardlab.core.render_model import Cell, Piece, RenderModel


def test_a_decisions_alternatives_in_four_numbers() -> None:
    # Evaluations 0.1 0.5 0.3 0.5, the 0.3 played: mean 0.35, variance 0.15 - 0.35^2 = 0.0275;
    # three quarters of the way to the best is 0.4625, which the two 0.5 reach (half of them);
    # the move played is 0.2 below the best; the best two are equal (gap 0).
    found = alternatives_summary([0.1, 0.5, 0.3, 0.5], 0.3)
    assert found == pytest.approx([0.0275, 0.5, 0.2, 0.0])
    assert alternatives_summary([0.7], 0.7) == [0.0, 0.0, 0.0, 0.0]


def test_per_game_means_leave_forced_decisions_out() -> None:
    choices = [1, 4, 3]
    alternatives = [0.0, 0.0, 0.0, 0.0, 0.02, 0.25, 0.1, 0.01, 0.04, 0.5, 0.0, 0.3]
    assert dm.clarity_variance(alternatives, choices) == pytest.approx(0.03)
    assert dm.narrowness(alternatives, choices) == pytest.approx(0.375)
    assert dm.chosen_shortfall(alternatives, choices) == pytest.approx(0.05)
    assert dm.uncertainty(alternatives, choices) == 0.5  # gap 0.01 < 0.05, gap 0.3 is not
    assert dm.clarity_variance([], choices) is None  # not a deep trace
    assert dm.repetition([0, 0, 1, 0]) == 0.25 and dm.repetition([]) is None
    assert dm.mean_distance([2.0, NO_DISTANCE, 1.0]) == 1.5
    assert dm.mean_distance([NO_DISTANCE]) is None


def _model(to_move: int, stacks: dict[str, tuple[Piece, ...]]) -> RenderModel:
    cells = (
        Cell("a", "square", 0.0, 0.0, 1.0, stack=stacks.get("a", ())),
        Cell("b", "square", 3.0, 4.0, 1.0, stack=stacks.get("b", ())),
        Cell("c", "square", 1.0, 0.0, 1.0, stack=stacks.get("c", ())),
    )
    return RenderModel("g", ("A", "B"), (0.0, 0.0, 4.0, 5.0), cells, to_move=to_move)


def test_move_distance_board_key_and_state_space() -> None:
    pawn = (Piece(0, "pawn"),)
    model = _model(0, {"a": pawn})
    assert move_distance(model, ("a", "b")) == 5.0  # a 3-4-5 triangle, cells of size 1
    assert move_distance(model, ("pool-1", "a", "c", "b")) == 5.0  # first to last board cell
    assert move_distance(model, ("pool-1", "c")) == NO_DISTANCE
    # The board alone: the side to move does not count, a piece elsewhere does.
    assert board_key(model) == board_key(_model(1, {"a": pawn})) == (("a", ((0, "pawn", 1, ""),)),)
    assert board_key(model) != board_key(_model(0, {"c": pawn}))
    assert state_space(3, 1) == pytest.approx(3 * math.log10(2))


def test_a_position_met_again_counts_as_a_repetition() -> None:
    game = make("murus-gallicus")
    state = game.new_initial_state()
    deep = DeepTrace(game)
    action = state.legal_actions()[0]
    deep.decision(state, action)
    deep.decision(state, action)
    assert list(deep.repeats) == [0, 1] and list(deep.board_repeats) == [0, 1]
    # The opening move carries a tower two cells: 2 in cell sizes (orthogonal) or 2 sqrt 2.
    assert deep.distance[0] in (2.0, pytest.approx(2 * math.sqrt(2)))


def test_a_deep_trace_has_a_row_per_decision_and_round_trips() -> None:
    task = GameTask("base", 0, "murus-gallicus", (), ("random", "random"), (0, 1), 3, deep=True)
    trace = play_traced(task)
    n = trace.decisions
    assert len(trace.alternatives) == 4 * n and len(trace.repeats) == n == len(trace.distance)
    assert trace.state_space is not None and trace.state_space > 0
    again = GameTrace.from_json(trace.to_json())
    assert again.alternatives == trace.alternatives and again.repeats == trace.repeats
    assert again.state_space == trace.state_space
    plain = play_traced(GameTask("base", 0, "murus-gallicus", (), ("random",) * 2, (0, 1), 3))
    assert "repeats" not in plain.to_json() and plain.moves == trace.moves


def test_a_deep_run_reports_the_deep_metrics(tmp_path: Path) -> None:
    config = LabConfig("murus-gallicus", 1, 4, players=("random",), deep=True, records=0)
    traces = run_lab(config, tmp_path)
    found = summarize_run(config, plan_series(config), traces)["series"][0]["metrics"]
    assert all(found[key] is not None for key in ("clarity", "repetition", "distance"))
    assert config.to_json()["deep"] is True
    assert "deep" not in LabConfig("murus-gallicus", 1, 4).to_json()  # older runs resume


def test_an_mcts_bots_own_values_are_summed_up_per_searched_decision() -> None:
    deep = DeepTrace(make("murus-gallicus"))
    # Action 1 visited 4 times for a reward sum of 2 (mean 0.5), action 2 twice for -1 (mean
    # -0.5), action 3 opened but not visited: left out. Mean 0, variance 0.25; 3/4 of the way
    # to the best is 0.375, reached by one of two; the played action 2 is 1.0 below the best;
    # the best two are 1.0 apart.
    deep.search(7, [(1, 4, 2.0), (2, 2, -1.0), (3, 0, 0.0)], 2)
    deep.search(8, [(5, 3, 0.3)], 5)  # one option visited: no choice to measure
    assert list(deep.searched_at) == [7]
    assert list(deep.searched) == pytest.approx([0.25, 0.5, 1.0, 1.0])
    two = [0.25, 0.5, 1.0, 1.0, 0.05, 1.0, 0.0, 0.02]
    assert dm.search_clarity(two) == pytest.approx(0.15)
    assert dm.search_shortfall(two) == pytest.approx(0.5)
    assert dm.search_uncertainty(two) == 0.5
    assert dm.search_clarity([]) is None


def test_a_deep_trace_of_mcts_bots_keeps_their_values() -> None:
    players = ("mcts:iters=20", "mcts:iters=20")
    trace = play_traced(GameTask("base", 0, "murus-gallicus", (), players, (0, 1), 5, deep=True))
    assert 0 < len(trace.searched_at) <= trace.decisions
    assert len(trace.searched) == 4 * len(trace.searched_at)
    assert all(trace.choices[d] > 1 for d in trace.searched_at)
    assert GameTrace.from_json(trace.to_json()).searched_at == trace.searched_at
