"""Issue 15, games lost: save targets checked up front, saves after every turn, resume."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from boardlab.cli.main import main
from boardlab.core.files import write_atomic
from boardlab.core.records import load_record
from tests.cli.processes import WAIT, run, spawned, wait_for
from tests.cli.test_play import play


def test_existing_record_is_not_overwritten_without_force(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    record = tmp_path / "old.txt"
    record.write_text("precious\n", encoding="utf-8")
    code, out, err = play(capsys, monkeypatch, ["quit"], "nim", "--save", str(record))
    assert code == 2
    assert out == ""
    assert err == f"boardlab: error: {str(record)!r} already exists; use --force to " + (
        "overwrite it or choose another file\n"
    )
    assert record.read_text(encoding="utf-8") == "precious\n"
    code, out, _ = play(capsys, monkeypatch, ["1", "quit"], "nim", "--save", str(record), "--force")
    assert code == 0
    assert load_record(record)[0].turns[0].text == "1"


@pytest.mark.parametrize("where", ["file/game.txt", "missing/game.txt", "folder", "/dev/null"])
def test_unwritable_target_fails_before_the_first_move(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, where: str
) -> None:
    (tmp_path / "file").write_text("", encoding="utf-8")
    (tmp_path / "folder").mkdir()
    argv = ["nim", "--save", str(tmp_path / where), "--force"]
    code, out, err = play(capsys, monkeypatch, ["1"], *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("boardlab: error: ") and err.count("\n") == 1
    assert not (tmp_path / "missing").exists()


def test_save_command_asks_before_overwriting_and_end_prompt_retries(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    other = tmp_path / "other.txt"
    other.write_text("keep\n", encoding="utf-8")
    bad = tmp_path / "file"
    bad.write_text("", encoding="utf-8")
    good = tmp_path / "good.txt"
    lines = ["1", f"save {other}", "n", "quit", str(bad / "x.txt"), str(good)]
    code, out, _ = play(capsys, monkeypatch, lines, "nim")
    assert code == 0
    assert "already exists. Overwrite it? [y/N]" in out
    assert "not saved" in out
    assert other.read_text(encoding="utf-8") == "keep\n"
    assert f"cannot save to {bad / 'x.txt'}" in out
    assert f"saved the record to {good}" in out
    assert load_record(good)[0].turns[0].text == "1"


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGHUP])
def test_killed_or_hung_up_game_keeps_every_turn_and_resumes(tmp_path: Path, stop: int) -> None:
    record = tmp_path / "game.txt"
    argv = ["play", "murus-gallicus", "--player", "human", "--player", "random", "--seed", "2"]
    with spawned(*argv, "--save", str(record)) as process:
        assert process.stdin is not None
        process.stdin.write("d1-d3\n")
        process.stdin.flush()
        wait_for(lambda: record.exists() and "2 Gauls: " in record.read_text(encoding="utf-8"))
        process.send_signal(stop)
        assert process.wait(timeout=WAIT) == (-9 if stop == signal.SIGKILL else 128 + stop)
    loaded, _final = load_record(record)
    assert next(turn.text for turn in loaded.turns) == "d1-d3"
    assert len(loaded.turns) == 2
    assert [p.name for p in tmp_path.iterdir()] == ["game.txt"]
    resumed = run("play", "murus-gallicus", "--resume", str(record), stdin="undo\nb1-b3\nquit\n")
    assert resumed.returncode == 0, resumed.stderr
    assert f"Resumed {record}: 2 turn(s) played" in resumed.stdout
    assert "took back 2 turn(s)" in resumed.stdout
    assert f"resume it with: boardlab play murus-gallicus --resume {record}" in resumed.stdout
    assert load_record(record)[0].turns[0].text == "b1-b3"


def test_resume_refuses_finished_games_and_other_games(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "done.txt"
    argv = ["play", "murus-gallicus", "--player", "random", "--player", "random"]
    assert main([*argv, "--seed", "1", "--save", str(record)]) == 0
    capsys.readouterr()
    assert main(["play", "murus-gallicus", "--resume", str(record)]) == 2
    assert "holds a finished game" in capsys.readouterr().err
    assert main(["play", "carnyx", "--resume", str(record)]) == 2
    assert "holds a murus-gallicus game, not carnyx" in capsys.readouterr().err
    assert main(["play", "carnyx", "--resume", str(record), "--option", "x=1"]) == 2
    assert "--resume takes the game" in capsys.readouterr().err


def test_records_are_written_with_the_users_umask(tmp_path: Path) -> None:
    previous = os.umask(0o027)
    try:
        write_atomic(tmp_path / "a.txt", "x")
        os.umask(0o002)
        write_atomic(tmp_path / "b.txt", "x")
    finally:
        os.umask(previous)
    assert (tmp_path / "a.txt").stat().st_mode & 0o777 == 0o640
    assert (tmp_path / "b.txt").stat().st_mode & 0o777 == 0o664
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]


def test_a_link_is_written_through(tmp_path: Path) -> None:
    (tmp_path / "real.txt").write_text("old", encoding="utf-8")
    (tmp_path / "link.txt").symlink_to("real.txt")
    write_atomic(tmp_path / "link.txt", "new")
    assert (tmp_path / "link.txt").is_symlink()
    assert (tmp_path / "real.txt").read_text(encoding="utf-8") == "new"
