"""Issue 15, runs that misbehave when stopped: real signals on a real ``boardlab match``."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from boardlab.analysis.match import MatchSpec, iter_match
from boardlab.analysis.runner import cpu_count, worker_count
from boardlab.cli.main import main
from boardlab.core.records import load_record
from tests.cli.processes import WAIT, group_members, spawned, wait_for

SLOW = ["match", "carnyx", "--player", "mcts:iters=50", "--player", "random", "--jobs", "2"]


def _records(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_ctrl_c_prints_the_partial_summary_and_leaves_no_process_or_temp_file(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "records"
    with spawned(*SLOW, "--games", "400", "--save-dir", str(folder)) as process:
        wait_for(lambda: len(_records(folder)) >= 2)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=WAIT)
        assert process.returncode == 130
        wait_for(lambda: group_members(process.pid) == [])
    assert "interrupted: " in err and " of 400 games played" in err
    played = int(err.split("interrupted: ")[1].split()[0])
    assert f"carnyx: {played} games in " in out
    names = _records(folder)
    assert len(names) == played
    assert all(name.startswith("carnyx-") and name.endswith(".txt") for name in names)


def test_workers_die_with_a_killed_parent(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    with spawned(*SLOW, "--games", "400", "--save-dir", str(folder)) as process:
        wait_for(lambda: len(_records(folder)) >= 2)
        assert len(group_members(process.pid)) == 3
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=WAIT)
        wait_for(lambda: group_members(process.pid) == [])
        left = _records(folder)
        time.sleep(1)
        assert _records(folder) == left
    # SIGKILL can land while the parent saves a record: then one hidden temporary file of that
    # save is left, never a visible half record. Every visible record is a whole, finished game.
    hidden = [name for name in left if name.startswith(".")]
    assert len(hidden) <= 1 and all(name.endswith(".tmp") for name in hidden)
    visible = [name for name in left if not name.startswith(".")]
    assert len(visible) >= 2
    for name in visible:
        _, state = load_record(folder / name)
        assert state.is_terminal()


def test_jobs_are_capped_by_games_and_cpus() -> None:
    assert worker_count(30, 2) == min(2, cpu_count())
    assert worker_count(30, 10**9) == min(30, cpu_count())
    assert worker_count(1, 10**9) == 1


def test_a_billion_games_start_at_once() -> None:
    spec = MatchSpec("murus-gallicus", {}, ("random", "random"), 10**9, 1)
    games = iter_match(spec, jobs=2)
    try:
        first = next(games)
    finally:
        games.close()
    assert first.plies > 0


def test_a_second_run_never_mixes_into_a_save_dir(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["match", "murus-gallicus", "--player", "random", "--player", "random", "--quiet"]
    argv += ["--games", "2", "--save-dir", str(tmp_path)]
    assert main(argv) == 0
    capsys.readouterr()
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "already holds records of another run" in err
    assert _records(tmp_path) == ["murus-gallicus-1.txt", "murus-gallicus-2.txt"]
