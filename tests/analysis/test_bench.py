"""The speed benchmarks measure real work; no timing is asserted."""

from __future__ import annotations

import json

import pytest

import boardlab
from boardlab.analysis.bench import bench_perft, bench_playouts
from boardlab.cli.main import main
from boardlab.core.perft import perft


def test_bench_perft_reports_a_true_count() -> None:
    game = boardlab.make("murus-gallicus")
    result = bench_perft(game, seconds=0.01)
    assert result.depth >= 1
    assert result.leaves == perft(game.new_initial_state(), result.depth)
    assert result.leaves_per_second > 0


def test_bench_playouts_play_whole_games() -> None:
    result = bench_playouts(boardlab.make("murus-gallicus"), seconds=0.01)
    assert result.playouts >= 1
    assert result.mean_decisions >= 1
    assert result.playouts_per_second > 0


def test_bench_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--game", "murus-gallicus", "--seconds", "0.02", "--json"]) == 0
    (report,) = json.loads(capsys.readouterr().out)
    assert report["game"] == "murus-gallicus"
    assert report["perft"]["leaves"] == perft(
        boardlab.make("murus-gallicus").new_initial_state(), report["perft"]["depth"]
    )
    assert report["playouts"]["playouts"] >= 1
    assert set(report["bots"]) == {"mcts_sims_per_s", "alphabeta_nodes_per_s"}
    assert report["bots"]["mcts_sims_per_s"] > 0
    assert main(["bench", "--game", "murus-gallicus", "--seconds", "0.02"]) == 0
    out = capsys.readouterr().out
    assert "random playouts" in out
    assert "mcts_sims_per_s" in out
