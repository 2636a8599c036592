"""The engine switch: the compiled engine runs perft and bench when it can, with the same counts;
``BOARDLAB_ENGINE`` forces the reference or demands the compiled engine."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from boardlab.cli.main import main

pytest.importorskip("numba")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_names_the_engine_of_each_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out, _ = run(capsys, "games")
    assert "murus-gallicus  Murus Gallicus" in out
    murus = out.split("murus-gallicus  Murus Gallicus", 1)[1].splitlines()
    assert murus[1] == "    engine: compiled"
    entries = {entry["id"]: entry for entry in json.loads(run(capsys, "games", "--json")[1])}
    assert entries["murus-gallicus"]["engine"] == "compiled"
    monkeypatch.setenv("BOARDLAB_ENGINE", "python")
    entries = {entry["id"]: entry for entry in json.loads(run(capsys, "games", "--json")[1])}
    assert {entry["engine"] for entry in entries.values()} == {"reference"}


@pytest.mark.parametrize(
    "argv",
    [
        ["murus-gallicus", "4"],
        ["murus-gallicus", "3", "--divide"],
        ["murus-gallicus", "3", "d1-d3", "a7-a5", "c1-e3"],
        ["murus-gallicus", "3", "--position", "GGGG1GGG/8/8/4g3/3R4/8/RRR1RRRR R 12"],
        ["murus-gallicus", "2", "--option", "board=8x8_two_rows"],
        ["murus-gallicus", "2", "--position", "8/8/8/8/3r4/8/8 G 11"],
    ],
)
def test_perft_counts_are_the_same_on_both_engines(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    compiled = run(capsys, "perft", *argv)
    monkeypatch.setenv("BOARDLAB_ENGINE", "python")
    assert run(capsys, "perft", *argv) == compiled


def test_bench_says_which_engine_ran(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out, _ = run(capsys, "bench", "--game", "murus-gallicus", "--seconds", "0.02", "--json")
    assert json.loads(out)[0]["engine"] == "compiled"
    monkeypatch.setenv("BOARDLAB_ENGINE", "python")
    _, out, _ = run(capsys, "bench", "--game", "murus-gallicus", "--seconds", "0.02")
    assert out.startswith("murus-gallicus (reference engine): perft ")


def _without_numba(*argv: str, engine: str) -> subprocess.CompletedProcess[str]:
    """``boardlab ARGV`` in a process where ``import numba`` fails, as when it is absent."""
    code = (
        "import sys; sys.modules['numba'] = None\n"  # makes `import numba` raise ImportError
        "from boardlab.cli.main import main; sys.exit(main(sys.argv[1:]))"
    )
    return subprocess.run(
        [sys.executable, "-c", code, *argv],
        capture_output=True,
        text=True,
        timeout=60,
        env={"BOARDLAB_ENGINE": engine, "PATH": ""},
        check=False,
    )


def test_fast_fails_in_one_line_without_numba_and_auto_falls_back() -> None:
    demanded = _without_numba("perft", "murus-gallicus", "2", engine="fast")
    assert demanded.returncode == 2 and demanded.stdout == ""
    assert demanded.stderr == (
        "boardlab: error: the compiled engine cannot run murus-gallicus: "
        "import of numba halted; None in sys.modules\n"
    )
    automatic = _without_numba("perft", "murus-gallicus", "2", engine="auto")
    assert (automatic.returncode, automatic.stdout) == (0, "400\n")


def test_fast_fails_for_a_game_without_a_kernel(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BOARDLAB_ENGINE", "fast")
        code, out, err = run(capsys, "perft", "nim", "1")
    assert (code, out) == (2, "")
    assert (
        err == "boardlab: error: the compiled engine cannot run nim: nim has no compiled kernel\n"
    )
