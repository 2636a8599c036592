"""Bot-vs-bot matches: seat rotation, reproducible seeds, statistics and saved records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardlab.analysis.match import (
    GameResult,
    MatchSpec,
    player_labels,
    run_match,
    seating,
    summarize,
    wilson_interval,
)
from boardlab.cli.main import main
from boardlab.core.outcome import Result
from boardlab.core.records import load_record

W, L, D = Result.WIN, Result.LOSS, Result.DRAW


def test_seats_rotate_across_games() -> None:
    assert [seating(i, 2) for i in range(3)] == [(0, 1), (1, 0), (0, 1)]
    assert [seating(i, 3) for i in range(3)] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]


def test_repeated_specs_get_distinct_labels() -> None:
    assert player_labels(["random", "mcts:time=1", "random"]) == [
        "random",
        "mcts:time=1",
        "random#2",
    ]


@pytest.mark.parametrize(("score", "n"), [(0.0, 10), (0.5, 10), (0.7, 100), (1.0, 3)])
def test_wilson_interval_contains_the_score(score: float, n: int) -> None:
    low, high = wilson_interval(score, n)
    assert 0.0 <= low <= score <= high <= 1.0
    assert wilson_interval(1 - score, n) == pytest.approx((1 - high, 1 - low))


def test_wilson_interval_narrows_with_more_games() -> None:
    low_few, high_few = wilson_interval(0.5, 10)
    low_many, high_many = wilson_interval(0.5, 1000)
    assert high_many - low_many < high_few - low_few
    assert wilson_interval(0.5, 0) == (0.0, 1.0)


def test_summary_counts() -> None:
    spec = MatchSpec("murus-gallicus", {}, ("a", "b"), 4, 0)
    results = [
        GameResult(0, (0, 1), (W, L), "home_row", 10),
        GameResult(1, (1, 0), (W, L), "stalemate", 20),
        GameResult(2, (0, 1), (D, D), "repetition", 30),
        GameResult(3, (1, 0), (L, W), "home_row", 40),
    ]
    summary = summarize(spec, ("Romans", "Gauls"), results)
    assert summary["games"] == 4
    assert summary["draws"] == 1
    assert summary["mean_plies"] == 25
    assert summary["side_wins"] == {"Romans": 2, "Gauls": 1}
    assert summary["player_wins"] == {"a": 2, "b": 1}
    assert summary["terminations"] == {"home_row": 2, "repetition": 1, "stalemate": 1}
    players = summary["players"]
    assert isinstance(players, list)
    assert players[0] | {"score_ci95": None} == {
        "player": "a",
        "wins": 2,
        "draws": 1,
        "losses": 1,
        "score": 0.625,
        "score_ci95": None,
    }
    assert players[1]["score"] == 0.375


def test_same_results_on_one_or_two_processes(tmp_path: Path) -> None:
    spec = MatchSpec("murus-gallicus", {}, ("random", "random"), 4, 11, str(tmp_path))
    alone = run_match(spec)
    assert run_match(spec, jobs=2) == alone
    assert [r.seating for r in alone] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    for result in alone:
        record, final = load_record(tmp_path / f"murus-gallicus-{result.index + 1}.txt")
        assert final.outcome is not None
        assert final.outcome.results == result.results
        assert len(record.turns) == result.plies


def test_match_command_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    argv = ["match", "murus-gallicus", "--player", "random", "--player", "random"]
    argv += ["--games", "4", "--seed", "3", "--json"]
    assert main([*argv, "--jobs", "2", "--save-dir", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    summary = json.loads(out)
    assert "game 4/4" in err
    assert summary["games"] == 4
    wins = sum(summary["side_wins"].values())
    assert wins + summary["draws"] == 4
    assert sum(summary["player_wins"].values()) == wins
    assert sum(summary["terminations"].values()) == 4
    for row in summary["players"]:
        assert row["wins"] + row["draws"] + row["losses"] == 4
        low, high = row["score_ci95"]
        assert low <= row["score"] <= high
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        f"murus-gallicus-{i}.txt" for i in range(1, 5)
    ]
    assert main([*argv, "--jobs", "1", "--quiet", "--save-dir", str(tmp_path / "again")]) == 0
    again, quiet = capsys.readouterr()
    assert json.loads(again) == summary
    assert quiet == ""


def test_match_command_text(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["match", "murus-gallicus", "--player", "random", "--player", "random", "--quiet"]
    assert main([*argv, "--games", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "murus-gallicus: 2 games" in out
    assert "wins by side: Romans " in out
    assert "random#2" in out


def test_games_of_one_rotation_share_the_luck(tmp_path: Path) -> None:
    spec = MatchSpec("anacund", {}, ("random", "greedy"), 4, 11, str(tmp_path))
    run_match(spec)
    seeds = [load_record(tmp_path / f"anacund-{i}.txt")[0].game.seed for i in range(1, 5)]
    assert seeds[0] == seeds[1]
    assert seeds[2] == seeds[3]
    assert seeds[0] != seeds[2]
