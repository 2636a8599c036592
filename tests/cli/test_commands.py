"""The non-interactive subcommands, run in-process through ``main(argv)``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from boardlab.cli.main import main
from boardlab.core import registry

# Murus Gallicus spec, Test fact 1: the Romans' 20 opening moves.
MURUS_OPENING = [
    *("a1-a3", "a1-c3", "b1-b3", "b1-d3", "c1-a3", "c1-c3", "c1-e3", "d1-b3", "d1-d3", "d1-f3"),
    *("e1-c3", "e1-e3", "e1-g3", "f1-d3", "f1-f3", "f1-h3", "g1-e3", "g1-g3", "h1-f3", "h1-h3"),
]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``boardlab ARGV``."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_ids_players_and_options(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    only = {key: registry._GAMES[key] for key in ("murus-gallicus", "nim")}
    monkeypatch.setattr(registry, "_GAMES", only)
    code, out, _ = run(capsys, "games")
    assert code == 0
    assert "murus-gallicus  Murus Gallicus  (2 players; default seats: Romans, Gauls)" in out
    assert "    max_plies=400  [an integer >= 0]" in out
    assert "nim  Nim  (2-3 players; default seats: P1, P2)" in out
    code, out, _ = run(capsys, "games", "--json")
    entries = {entry["id"]: entry for entry in json.loads(out)}
    assert set(entries) == {"murus-gallicus", "nim"}
    assert entries["nim"]["max_players"] == 3
    assert {"key": "pile", "kind": "int", "default": 5}.items() <= entries["nim"]["options"][
        0
    ].items()
    assert entries["murus-gallicus"]["player_names"] == ["Romans", "Gauls"]


def test_moves_from_the_start(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", "murus-gallicus")
    assert code == 0
    assert out.split("\n") == [*MURUS_OPENING, ""]


def test_moves_after_moves_and_from_a_position(capsys: pytest.CaptureFixture[str]) -> None:
    # Spec fact 3: after d1-d3 a7-a5 the Romans have 17 moves.
    _, out, _ = run(capsys, "moves", "murus-gallicus", "d1-d3", "a7-a5")
    assert len(out.split()) == 17
    _, again, _ = run(
        capsys, "moves", "murus-gallicus", "--position", "1GGGGGGG/g7/g7/8/3r4/3r4/RRR1RRRR R 2"
    )
    assert again == out
    # Spec fact 7: the tower on d3 and its moves.
    _, out, _ = run(capsys, "moves", "murus-gallicus", "--position", "8/8/8/4g3/3R4/8/8 R 10")
    assert out.split() == ["d3-b1", "d3-b3", "d3-b5", "d3-d1", "d3-d5", "d3-f1", "d3-f3", "d3xe4"]


def test_moves_with_options_and_turn_strings(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "moves", "murus-gallicus", "--option", "board=8x8")
    assert out.split() == MURUS_OPENING
    # A two-decision turn given as one '+'-joined string, then the next seat's moves.
    _, out, _ = run(capsys, "moves", "nim", "1+1", "--option", "steps=2", "--option", "pile=4")
    assert out.split() == ["1", "2"]
    _, out, _ = run(capsys, "moves", "nim", "1+1", "--option=steps=2", "--option=pile=3")
    assert out.split() == ["1"]


def test_moves_of_a_finished_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "moves", "nim", "2", "2", "1")
    assert (code, out) == (0, "")
    assert "game over: P1 won" in err


def test_show(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "murus-gallicus", "d1-d3", "a7-a5", "c1-e3")
    assert code == 0
    lines = out.splitlines()
    assert lines[-1] == "Position: 1GGGGGGG/g7/g7/8/3rr3/3R4/RR2RRRR G 3"
    assert lines[-2] == "To move: Gauls"
    assert any("a b c d e f g h" in line for line in lines)


def test_show_a_finished_game(capsys: pytest.CaptureFixture[str]) -> None:
    # Spec fact 8: breakthrough to the home row.
    _, out, _ = run(
        capsys,
        "show",
        "murus-gallicus",
        "c5-c7",
        "--position",
        "GG1GGGGG/8/2R5/8/8/8/RR1RRRRR R 20",
    )
    assert "Game over: Romans won (home row reached)" in out
    assert out.splitlines()[-1] == "Position: GGrGGGGG/2r5/8/8/8/8/RR1RRRRR G 21"


def test_perft_and_divide(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "perft", "murus-gallicus", "2")
    assert (code, out) == (0, "400\n")
    code, out, _ = run(capsys, "perft", "murus-gallicus", "2", "--divide")
    lines = out.splitlines()
    assert lines[:-1] == [f"{move}: 20" for move in MURUS_OPENING]
    assert lines[-1] == "400"
    _, out, _ = run(capsys, "perft", "murus-gallicus", "1", "d1-d3", "a7-a5")
    assert out == "17\n"


def test_perft_counts_decisions_of_compound_turns(capsys: pytest.CaptureFixture[str]) -> None:
    # Nim with pile 3: sequences of takes summing to at most 3, cut at depth 2.
    _, out, _ = run(capsys, "perft", "nim", "2", "--option", "pile=3", "--option", "steps=2")
    assert out == "3\n"  # 1+1, 1+2 and 2+1
    _, out, _ = run(capsys, "perft", "nim", "0")
    assert out == "1\n"
    _, out, _ = run(capsys, "perft", "nim", "3", "--position", "0 1 0 4")
    assert out == "0\n"


def test_python_dash_m_end_to_end() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "boardlab", "moves", "murus-gallicus", "d1-d3"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert len(done.stdout.split()) == 20
    bad = subprocess.run(
        [sys.executable, "-m", "boardlab", "moves", "murus-gallicus", "d1-d4"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr.startswith("boardlab: error: illegal move 'd1-d4'")
    assert bad.stderr.count("\n") == 1


def test_match_with_three_seats_rotates_them(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["match", "nim", "--games", "3", "--seed", "5", "--json", "--quiet"]
    code, out, _ = run(capsys, *argv, *["--player", "random"] * 3)
    assert code == 0
    summary = json.loads(out)
    assert set(summary["side_wins"]) == {"P1", "P2", "P3"}
    assert summary["options"] == {"players": "3"}
    assert summary["draws"] == 0
    assert sum(summary["player_wins"].values()) == 3
    assert [row["wins"] + row["losses"] for row in summary["players"]] == [3, 3, 3]


def test_moves_may_follow_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", "murus-gallicus", "--option", "board=8x7", "d1-d3")
    assert code == 0
    assert len(out.split()) == 20
    code, _, err = run(capsys, "moves", "murus-gallicus", "d1-d3", "--bogus", "1")
    assert code == 2
    assert "unrecognized arguments: --bogus 1" in err
