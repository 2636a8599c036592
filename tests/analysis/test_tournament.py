"""Tournaments: tables per format, seat rotation, Swiss pairing, resume, and the command."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from boardlab.analysis.store import GAMES, read_rows
from boardlab.analysis.tournament import (
    TournamentConfig,
    finishes,
    fixed_tables,
    run_tournament,
    swiss_tables,
    table_tasks,
    total_games,
)
from boardlab.analysis.tournament_report import as_json, standings
from boardlab.cli.main import main
from boardlab.core import registry
from boardlab.core.errors import OptionError

SPECS = ("random", "greedy", "mcts:iters=20", "mcts:iters=60")


@pytest.fixture(autouse=True)
def wide_nim(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nim for 2-5 seats as game ``wide-nim``: a whole tournament takes a fraction of a second."""
    monkeypatch.setitem(registry._GAMES, "wide-nim", "tests.toy_games:WideNim")


def nim(seats: int = 2, fmt: str = "round-robin", games: int = 4) -> TournamentConfig:
    return TournamentConfig("wide-nim", SPECS, seats, fmt, games, seed=7, options={"pile": "9"})


def test_round_robin_and_gauntlet_tables() -> None:
    pairs = [t.entrants for t in fixed_tables(nim())]
    assert pairs == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert len(fixed_tables(nim(seats=3))) == 4
    gauntlet = fixed_tables(nim(seats=3, fmt="gauntlet"))
    assert [t.entrants for t in gauntlet] == [(0, 1, 2), (0, 1, 3), (0, 2, 3)]
    assert total_games(nim(seats=3, fmt="gauntlet")) == 12


def test_seats_rotate_so_every_entrant_sits_in_every_seat() -> None:
    config = nim(seats=3, games=6)
    tasks = list(table_tasks(config, fixed_tables(config)[:1], set()))
    assert len(tasks) == 6
    seats = Counter((task.seating[seat], seat) for task in tasks for seat in range(3))
    assert set(seats.values()) == {2} and len(seats) == 9
    assert tasks[1].players == tuple(SPECS[p] for p in tasks[1].seating)
    skipped = list(table_tasks(config, fixed_tables(config)[:1], {("t001", 0)}))
    assert [task.index for task in skipped] == [1, 2, 3, 4, 5]


def test_swiss_seats_leaders_together_and_avoids_rematches() -> None:
    config = nim(fmt="swiss")
    first = swiss_tables(config, 1, [])
    assert [t.entrants for t in first] == [(0, 1), (2, 3)]
    rows = [
        {"seating": [0, 1], "results": ["loss", "win"]},
        {"seating": [2, 3], "results": ["loss", "win"]},
    ]
    second = swiss_tables(config, 2, rows)
    assert [t.entrants for t in second] == [(1, 3), (0, 2)]
    assert [t.name for t in second] == ["r2-t01", "r2-t02"]
    three = TournamentConfig("wide-nim", (*SPECS, "greedy:noise=0.5", "mcts:iters=5"), 3, "swiss")
    rows = [{"seating": [0, 1, 2], "results": ["win", "loss", "loss"]}]
    rows.append({"seating": [3, 4, 5], "results": ["win", "loss", "loss"]})
    assert [t.entrants for t in swiss_tables(three, 2, rows)] == [(0, 3, 4), (1, 2, 5)]


@pytest.mark.parametrize(("seats", "fmt"), [(2, "round-robin"), (3, "swiss"), (5, "gauntlet")])
def test_an_interrupted_tournament_resumes_to_the_same_table(
    tmp_path: Path, seats: int, fmt: str
) -> None:
    config = TournamentConfig(
        "wide-nim", (*SPECS, "greedy:noise=0.5"), seats, fmt, seats * 2, seed=3
    )

    def stop_after_five(done: int, total: int) -> None:
        if done == 5:
            raise KeyboardInterrupt("stopped after five games")

    with pytest.raises(KeyboardInterrupt, match="stopped after five games"):
        run_tournament(config, tmp_path / "run", progress=stop_after_five)
    assert len(list(read_rows(tmp_path / "run"))) == 5
    resumed = run_tournament(config, tmp_path / "run", resume=True)
    fresh = run_tournament(config, tmp_path / "fresh", jobs=2)
    assert len(resumed) == total_games(config)
    assert _comparable(resumed) == _comparable(fresh)
    table = as_json(standings(finishes(config, resumed), "random"))
    assert table == as_json(standings(finishes(config, fresh), "random"))


def _comparable(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows without the wall time, the only field allowed to differ."""
    return [{**row, "seconds": 0} for row in rows]


def test_bad_tournaments_are_refused(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="formats are"):
        run_tournament(nim(fmt="knockout"), tmp_path)
    with pytest.raises(OptionError, match="at least 5 players, 4 given"):
        run_tournament(TournamentConfig("wide-nim", SPECS, 5), tmp_path)
    with pytest.raises(OptionError, match="not a bot"):
        run_tournament(TournamentConfig("wide-nim", ("random", "human")), tmp_path)
    with pytest.raises(OptionError, match="players=2 contradicts"):
        run_tournament(TournamentConfig("wide-nim", SPECS, 3, options={"players": "2"}), tmp_path)
    with pytest.raises(OptionError, match="cannot be played with 3 seats"):
        run_tournament(TournamentConfig("carnyx", SPECS, 3), tmp_path)


def test_the_command_prints_tables_saves_a_plot_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["tournament", "wide-nim", "--option", "pile=9", "--out", str(tmp_path / "t")]
    argv += [arg for spec in SPECS for arg in ("--player", spec)]
    assert main([*argv, "--seats", "3", "--quiet", "--option", "players=3"]) == 0
    out = capsys.readouterr().out
    assert "Plackett-Luce (Elo scale, Firth's penalty), random = 0" in out
    assert "| 1 |" in out and "Crosstable" in out
    assert (tmp_path / "t" / "ratings.png").read_bytes()[:4] == b"\x89PNG"
    ratings = tmp_path / "ratings.json"
    assert (
        main(
            [*argv, "--option", "players=3", "--resume", "--json", "--level-ratings", str(ratings)]
        )
        == 0
    )
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["games"] == 12 and data["seats"] == 3
    assert {r["player"] for r in data["ratings"]} == set(SPECS)
    assert "[" in captured.err  # the progress bar
    stored = json.loads(ratings.read_text())["wide-nim"]["3"]
    assert stored["ratings"]["random"] == {"rating": 0.0, "ci95": [0.0, 0.0]}
    assert stored["games"] == stored["planned"] == 12 and stored["games_per_pairing"] == 3
    assert main([*argv, "--seats", "3", "--games-per-pairing", "6", "--stored", "--json"]) == 0
    partial = json.loads(capsys.readouterr().out)
    assert (partial["games"], partial["planned"]) == (12, 24)
    assert partial["ratings"] == data["ratings"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--player", "random"], "at least two --player"),
        (["--player", "greedy", "--player", "mcts"], "anchor 'random' is not one"),
        (["--player", "random", "--player", "greedy", "--seats", "3"], "cannot be played"),
        (["--player", "random", "--player", "greedy", "--format", "ko"], "invalid choice"),
        (["--player", "random", "--player", "greedy", "--seats", "1"], "cannot be played"),
        (["--player", "random", "--player", "mcts", "--option", "max_plies=-1"], "max_plies"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    assert main(["tournament", "carnyx", "--out", str(tmp_path / "t"), *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("boardlab: error: ") and message in err
    assert len(err.strip().splitlines()) == 1


def test_a_killed_command_resumes_to_the_same_table(tmp_path: Path) -> None:
    specs = ("random", "greedy", "greedy:noise=0.3")
    command = [sys.executable, "-m", "boardlab", "tournament", "carnyx", "--json", "--quiet"]
    command += [arg for spec in specs for arg in ("--player", spec)]
    command += ["--games-per-pairing", "40", "--out"]
    child = subprocess.Popen([*command, str(tmp_path / "run")], stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and len(list(read_rows(tmp_path / "run"))) < 4:
        time.sleep(0.005)
    child.send_signal(signal.SIGKILL)
    child.wait()
    stored = len((tmp_path / "run" / GAMES).read_text().splitlines())
    assert 4 <= stored < 120, "the kill must land mid-run"
    resumed = subprocess.run(
        [*command, str(tmp_path / "run"), "--resume"], capture_output=True, text=True
    )
    assert resumed.returncode == 0, resumed.stderr
    config = TournamentConfig("carnyx", specs, games_per_pairing=40)
    fresh = as_json(
        standings(finishes(config, run_tournament(config, tmp_path / "fresh")), "random")
    )
    table = json.loads(resumed.stdout)
    assert table["games"] == 120
    assert table["ratings"] == fresh["ratings"]
    assert table["crosstable"] == fresh["crosstable"]
