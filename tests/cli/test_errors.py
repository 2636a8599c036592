"""Every kind of bad input: exit code 2 and one line on stderr naming the problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardlab.cli.main import main
from tests.cli.errors import error_line

CASES = [
    (["moves", "chess"], "unknown game 'chess'"),
    (["moves", "murus-gallicus", "d1d3"], "malformed move 'd1d3'"),
    (["moves", "murus-gallicus", "d1-d4"], "illegal move 'd1-d4'"),
    (["moves", "anacund", "--option", "layout=l0", "6@19+zz"], "malformed move 'zz'"),
    (["moves", "murus-gallicus", "d1-d3+a7-a5"], "the turn ends after d1-d3"),
    (["show", "murus-gallicus", "--position", "GGGG/8 R 0"], "rows"),
    (["perft", "nim", "1", "--position", "5 0"], "bad position '5 0'"),
    (["moves", "murus-gallicus", "--option", "colour=red"], "unknown option 'colour'"),
    (["moves", "murus-gallicus", "--option", "board=9x9"], "option board: bad value '9x9'"),
    (["moves", "murus-gallicus", "--option", "max_plies"], "bad option 'max_plies'"),
    (["moves", "murus-gallicus", "--option", "max_plies=-1"], "option max_plies"),
    (["moves", "murus-gallicus", "--seed", "3"], "unknown option 'seed'"),
    (["moves", "murus-gallicus", "--seed", "x"], "argument --seed: invalid int value: 'x'"),
    (["perft", "murus-gallicus", "two"], "argument DEPTH: invalid int value: 'two'"),
    (["perft", "murus-gallicus", "-1"], "bad depth -1"),
    (["perft", "murus-gallicus", "0", "--divide"], "bad depth 0"),
    (["perft"], "the following arguments are required: GAME, DEPTH"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
    ([], "the following arguments are required: COMMAND"),
    (["play", "murus-gallicus", "--player", "human"], "give one --player per seat, 1 given"),
    (["play", "murus-gallicus", "--player", "god", "--player", "human"], "unknown player 'god'"),
    (["match", "murus-gallicus", "--player", "random"], "give one --player per seat, 1 given"),
    (["match", "murus-gallicus", "--player", "human", "--player", "random"], "needs bots"),
    (["match", "murus-gallicus", "--player", "random", "--player", "random", "--games", "0"], "1"),
    (["match", "murus-gallicus", "--player", "random", "--player", "random", "--jobs", "0"], "1"),
    (["match", "murus-gallicus", "--games", "many"], "argument --games: invalid int value"),
    (["bench", "--seconds", "0"], "bad --seconds 0"),
    (["bench", "--game", "go"], "unknown game 'go'"),
    (["replay", "/nonexistent/game.txt"], "cannot read record"),
    (["ladder", "murus-gallicus", "--rungs", "random"], "a ladder needs at least 2 rungs"),
    (["serve", "--move-burst", "0"], "argument --move-burst: it must be a positive number"),
    (["serve", "--header-timeout", "nan"], "argument --header-timeout: it must be a positive"),
]


@pytest.mark.parametrize(("argv", "expected"), CASES)
def test_bad_input_gives_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], expected: str
) -> None:
    err = error_line(capsys, argv)
    assert expected in err


def test_corrupt_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(
        "# Boardlab game record\nGame: murus-gallicus\n\n1 Romans: d1-d3\n2 Gauls: d1-d2\n",
        encoding="utf-8",
    )
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"boardlab: error: {path}:5: illegal move 'd1-d2'")
    assert err.count("\n") == 1


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    assert "perft" in capsys.readouterr().out
    assert main(["match", "--help"]) == 0
    assert "--save-dir" in capsys.readouterr().out
