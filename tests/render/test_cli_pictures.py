"""Pictures from the command line, through the real ``boardlab`` command where users run it."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from boardlab.cli.main import main
from boardlab.core.records import Record
from boardlab.core.registry import make

SVG = "{http://www.w3.org/2000/svg}"


def boardlab(*argv: str) -> subprocess.CompletedProcess[str]:
    """``python -m boardlab ARGV`` as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "boardlab", *argv], capture_output=True, text=True, check=False
    )


def cell_classes(svg: str) -> dict[str, list[str]]:
    """The classes of every cell group, by cell id."""
    root = ET.fromstring(svg)
    return {
        g.get("data-id", ""): g.get("class", "").split()
        for g in root.iter(f"{SVG}g")
        if "cell" in g.get("class", "").split()
    }


def test_show_writes_svg_and_png_and_still_prints_the_board(tmp_path: Path) -> None:
    svg, png = tmp_path / "board.svg", tmp_path / "out" / "board.png"
    done = boardlab("show", "murus-gallicus", "d1-d3", "--svg", str(svg), "--png", str(png))
    assert done.returncode == 0, done.stderr
    assert "To move: Gauls" in done.stdout
    model = make("murus-gallicus").new_initial_state().render_model()
    assert set(cell_classes(svg.read_text(encoding="utf-8"))) == {c.id for c in model.cells}
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_format_svg_prints_the_picture_of_a_view_flipped(tmp_path: Path) -> None:
    done = boardlab("show", "cyvasse", "--format", "svg", "--view", "north", "--flip")
    assert done.returncode == 0, done.stderr
    root = ET.fromstring(done.stdout)
    assert root.get("data-game") == "cyvasse"
    assert "To move" not in done.stdout


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--view", "West"], "unknown seat 'West' for --view: choose South, North or spectator"),
        (["--svg", "{blocker}/board.svg"], "cannot write '{blocker}/board.svg': "),
        (["--png", "{blocker}/board.png"], "cannot write '{blocker}/board.png': "),
    ],
)
def test_bad_picture_options_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    argv = [arg.format(blocker=blocker) for arg in argv]
    assert main(["show", "cyvasse", *argv]) == 2
    out, err = capsys.readouterr()
    assert err.startswith(f"boardlab: error: {message.format(blocker=blocker)}")
    assert err.count("\n") == 1 and out == ""


def test_png_without_cairosvg_says_how_to_install_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # makes `import cairosvg` fail
    assert main(["show", "carnyx", "--png", str(tmp_path / "b.png")]) == 2
    _, err = capsys.readouterr()
    assert err.startswith("boardlab: error: PNG export needs cairosvg: pip install 'boardlab[png]'")
    assert not (tmp_path / "b.png").exists()


def test_replay_writes_one_picture_per_turn_with_the_last_turn_marked(tmp_path: Path) -> None:
    game = make("murus-gallicus")
    state = game.new_initial_state()
    record = Record(game, players=["human", "human"])
    for move in ("d1-d3", "a7-a5", "c1-e3"):
        action = state.parse_action(move)
        record.add(state, action)
        state.apply_action(action)
    path = tmp_path / "game.txt"
    record.save(path, state)
    done = boardlab("replay", str(path), "--svg", str(tmp_path / "pictures"))
    assert done.returncode == 0, done.stderr
    assert "Pictures: 4 SVG files in" in done.stdout
    files = sorted(p.name for p in (tmp_path / "pictures").iterdir())
    assert files == ["turn-000.svg", "turn-001.svg", "turn-002.svg", "turn-003.svg"]
    start = cell_classes((tmp_path / "pictures" / "turn-000.svg").read_text(encoding="utf-8"))
    assert not any("last" in classes for classes in start.values())
    third = cell_classes((tmp_path / "pictures" / "turn-003.svg").read_text(encoding="utf-8"))
    assert sorted(cell for cell, classes in third.items() if "last" in classes) == ["c1", "e3"]
    blocked = boardlab("replay", str(path), "--svg", str(path))
    assert blocked.returncode == 2
    assert blocked.stderr.strip().endswith("it is not a folder")
