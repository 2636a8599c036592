"""Issue 15, hidden information: a secret Cyvasse deployment is never written or left on screen."""

from __future__ import annotations

import os
import select
import subprocess
import time
from pathlib import Path

import pytest

from boardlab.core.records import load_record
from tests.cli.processes import BOARDLAB, WAIT, kill_group
from tests.cli.test_play import play

HOTSEAT = ["cyvasse", "--player", "human", "--player", "human"]


def test_hotseat_saves_wait_until_both_deployments_are_done(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    record, other = tmp_path / "game.txt", tmp_path / "other.txt"
    lines = ["preset classic", "", f"save {other}", "quit"]
    code, out, _ = play(capsys, monkeypatch, lines, *HOTSEAT, "--save", str(record))
    assert code == 0
    assert "cannot save now: a deployment is hidden from a player" in out
    assert not other.exists()
    # South's lineup was on the board when North quit: the file holds nothing of it.
    assert load_record(record)[0].turns == []
    assert "up to the hidden deployment" in out
    lines = ["preset classic", "", "preset fortress", f"save {other}", "quit"]
    code, out, _ = play(capsys, monkeypatch, lines, *HOTSEAT, "--save", str(record), "--force")
    assert code == 0
    assert [turn.seat for turn in load_record(record)[0].turns] == [0, 1]
    assert len(load_record(other)[0].turns) == 2


def test_bot_deployment_is_announced_once_and_never_saved_while_hidden(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    record = tmp_path / "game.txt"
    argv = ["cyvasse", "--player", "random", "--player", "human", "--seed", "5"]
    code, out, _ = play(capsys, monkeypatch, ["quit"], *argv, "--save", str(record))
    assert code == 0
    assert out.count("South plays (hidden)") == 1
    assert load_record(record)[0].turns == []


def test_handover_clears_screen_and_scrollback_on_a_terminal() -> None:
    leader, follower = os.openpty()
    process = subprocess.Popen(
        [BOARDLAB, "play", *HOTSEAT],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        start_new_session=True,
    )
    os.close(follower)
    seen = b""
    try:
        seen = _read_until(leader, seen, b"South> ")
        os.write(leader, b"preset classic\n")
        seen = _read_until(leader, seen, b"Pass the terminal to North")
        shown_lineup = seen.index(b"set up with preset classic")
        handover = seen.index(b"Pass the terminal to North")
        assert b"\x1b[3J" in seen[shown_lineup:handover]
    finally:
        kill_group(process.pid)
        process.wait(timeout=WAIT)
        os.close(leader)


def _read_until(fd: int, seen: bytes, wanted: bytes) -> bytes:
    deadline = time.monotonic() + WAIT
    while wanted not in seen:
        assert time.monotonic() < deadline, seen[-500:]
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            seen += os.read(fd, 65536)
    return seen
