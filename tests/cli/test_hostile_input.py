"""Issue 15, tracebacks and hangs: hostile input ends in one line and a non-zero exit."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.cli.errors import error_line
from tests.cli.processes import BOARDLAB, WAIT, run

HUGE = "9" * 5000
COLOSSEUM_SETUP_OFF_ORIGIN = "2 1,0=1b 2 s2 0 0 1"

CASES = [
    (["show", "murus-gallicus", "--position", f"8/8/8/8/8/8/8 R {HUGE}"], "bad input"),
    (["moves", "murus-gallicus", "--option", f"max_plies={HUGE}"], "option max_plies"),
    (["moves", "carnyx", "--seed", HUGE], "invalid int value"),
    (["perft", "murus-gallicus", "100000"], "bad depth 100000"),
    (["perft", "murus-gallicus", HUGE], "invalid int value"),
    (["play", "murus-gallicus", "--player", "mcts:time=inf", "--player", "random"], "time"),
    (["play", "murus-gallicus", "--player", "alphabeta:time=1e400", "--player", "human"], "time"),
    (["play", "murus-gallicus", "--player", f"mcts:iters={HUGE}", "--player", "human"], "iters"),
    (["bench", "--seconds", "inf"], "bad --seconds inf"),
    (["bench", "--seconds", "nan"], "bad --seconds nan"),
    (["show", "colosseum-offcuts", "--position", COLOSSEUM_SETUP_OFF_ORIGIN], "origin 0,0"),
    (["moves", "murus-gallicus", "x" * 5000], "… (5000 characters)"),
]


@pytest.mark.parametrize(("argv", "expected"), CASES)
def test_hostile_input_gives_one_short_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], expected: str
) -> None:
    err = error_line(capsys, argv)
    assert len(err) < 600
    assert expected in err


def test_full_disk_on_stdout_is_one_line() -> None:
    with open("/dev/full", "w", encoding="utf-8") as full:
        done = subprocess.run(
            [BOARDLAB, "games"], stdout=full, stderr=subprocess.PIPE, text=True, timeout=WAIT
        )
    assert done.returncode == 2
    assert done.stderr == "boardlab: error: No space left on device\n"


def test_unwritable_save_dir(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("", encoding="utf-8")
    argv = ["match", "murus-gallicus", "--player", "random", "--player", "random", "--games", "1"]
    done = run(*argv, "--save-dir", str(tmp_path / "file" / "records"))
    assert done.returncode == 2
    assert done.stderr.startswith("boardlab: error: cannot write in ")
    assert done.stderr.count("\n") == 1
    assert done.stdout == ""
