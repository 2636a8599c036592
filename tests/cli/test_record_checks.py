"""Issue 15, records accepted that should not be: the loader checks turns and header alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardlab.cli.main import main

HEAD = """\
# Boardlab game record
Game: murus-gallicus
Rules: 1
Option board: 8x7
Option repetition_draw: 3
Option max_plies: 400
Position: initial
Player Romans: human
Player Gauls: random
Date: 2026-11-22T20:00:00+00:00
"""
# Lines 1-10 above; Result on 11, Termination on 12, a blank line 13, turns from 14.


def _finished_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    record = tmp_path / "full.txt"
    argv = ["play", "murus-gallicus", "--player", "random", "--player", "random", "--seed", "1"]
    assert main([*argv, "--save", str(record)]) == 0
    capsys.readouterr()
    return record.read_text(encoding="utf-8").splitlines()


def _replay(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> tuple[int, str]:
    path = tmp_path / "record.txt"
    path.write_text(text, encoding="utf-8")
    code = main(["replay", str(path)])
    err = capsys.readouterr().err
    assert err.count("\n") == (1 if code else 0)
    return code, err.removeprefix(f"boardlab: error: {path}")


def test_record_cut_short_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = _finished_game(tmp_path, capsys)
    code, err = _replay(tmp_path, capsys, "\n".join(lines[:-3]) + "\n")
    assert code == 2
    assert err.startswith(":11: the header claims a finished game")
    assert "record cut short?" in err


@pytest.mark.parametrize("kept", [4, 11, 12])
def test_record_cut_short_in_its_header_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kept: int
) -> None:
    lines = _finished_game(tmp_path, capsys)
    code, err = _replay(tmp_path, capsys, "\n".join(lines[:kept]) + "\n")
    assert code == 2
    assert err == (
        ": the header is incomplete (record cut short?): it has no blank line before the moves\n"
    )


def test_header_contradicting_the_moves_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _finished_game(tmp_path, capsys)
    result = lines[10]
    swapped = result.replace("win", "W").replace("loss", "win").replace("W", "loss")
    code, err = _replay(tmp_path, capsys, "\n".join([*lines[:10], swapped, *lines[11:]]) + "\n")
    assert (code, err.split(" the header")[0]) == (2, ":11:")
    code, err = _replay(tmp_path, capsys, "\n".join([*lines[:10], "Result: *", *lines[11:]]))
    assert (code, err.split(" the header")[0]) == (2, ":11:")
    assert main(["replay", str(tmp_path / "full.txt")]) == 0


def test_line_running_past_the_end_of_a_turn_names_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = "Result: *\nTermination: -\n\n1 Romans: d1-d3+a7-a5\n"
    code, err = _replay(tmp_path, capsys, HEAD + body)
    assert (code, err) == (2, ":14: the turn ends after d1-d3; nothing was played\n")


def test_incomplete_turn_followed_by_another_names_the_incomplete_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    head = HEAD.replace("murus-gallicus", "anacund").replace("Romans", "A").replace("Gauls", "B")
    head = "\n".join(line for line in head.splitlines() if not line.startswith("Option")).replace(
        "Position: initial", "Option layout: l0\nPosition: initial"
    )
    body = "\nResult: *\nTermination: -\n\n1 A: 6@19\n2 B: 6@1\n"
    code, err = _replay(tmp_path, capsys, head + body)
    assert code == 2
    assert err.startswith(":12: the turn on this line is incomplete"), err


def test_duplicate_header_and_bad_turn_numbers_name_their_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = _replay(tmp_path, capsys, HEAD + "Game: carnyx\n\n")
    assert (code, err) == (2, ":11: a second 'Game' header\n")
    code, err = _replay(tmp_path, capsys, HEAD + "\n" + "9" * 5000 + " Romans: d1-d3\n")
    assert code == 2
    assert err.startswith(":12: turn number 999999999999, expected 1")
