"""Terminal play driven through stdin: moves, commands, undo, save, resign, quit, end of input."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from boardlab.cli.main import main
from boardlab.core.records import load_record


def play(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    lines: list[str],
    *argv: str,
) -> tuple[int, str, str]:
    """Run ``boardlab play ARGV`` with ``lines`` as the terminal input."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_human_against_random_to_the_end_then_replay(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    record = tmp_path / "game.txt"
    lines = ["help", "moves", "3", "foo", *["1"] * 5]
    argv = ["nim", "--player", "human", "--player", "random", "--seed", "4", "--save", str(record)]
    code, out, err = play(capsys, monkeypatch, lines, *argv)
    assert (code, err) == (0, "")
    assert "save FILE" in out
    assert "Legal moves: 1 2" in out
    assert "illegal move '3': legal moves are 1 2" in out
    assert "malformed move 'foo': the number of stones to take, 1 or 2" in out
    assert "P2 plays " in out
    over = [line for line in out.splitlines() if line.startswith("Game over: ")]
    assert len(over) == 1
    assert f"saved the record to {record}" in out
    loaded, final = load_record(record)
    assert final.is_terminal()
    assert loaded.players == ["human", "random"]
    assert main(["replay", str(record)]) == 0
    shown = capsys.readouterr().out
    assert f"Result: {over[0].removeprefix('Game over: ')}" in shown


def test_undo_takes_back_the_human_turn_and_the_bot_reply(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    record = tmp_path / "undo.txt"
    lines = ["undo", "1", "undo", "2", "quit"]
    argv = ["nim", "--option", "pile=9", "--save", str(record)]
    code, out, _ = play(capsys, monkeypatch, lines, *argv)
    assert code == 0
    assert "nothing to undo" in out
    assert "took back 2 turn(s)" in out
    assert "Game left unfinished." in out
    loaded, final = load_record(record)
    assert loaded.turns[0].text == "2"
    assert len(loaded.turns) == 2
    assert final.outcome is None


def test_save_then_resign(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    middle, end = tmp_path / "middle.txt", tmp_path / "sub" / "end.txt"
    end.parent.mkdir()
    lines = ["d1-d3", f"save {middle}", "save", "resign"]
    argv = ["murus-gallicus", "--player", "human", "--player", "random", "--save", str(end)]
    code, out, _ = play(capsys, monkeypatch, lines, *argv)
    assert code == 0
    assert "usage: save FILE" in out
    assert "Romans> " in out
    assert "Game over: Gauls won (resignation)" in out
    assert load_record(middle)[1].outcome is None
    assert len(load_record(middle)[0].turns) == 2
    assert main(["replay", str(end), "--step"]) == 0
    shown = capsys.readouterr().out
    assert "1 Romans: d1-d3" in shown
    assert "Result: Gauls won (resignation)" in shown


def test_end_of_input_quits_cleanly(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = play(capsys, monkeypatch, [], "murus-gallicus")
    assert (code, err) == (0, "")
    assert "Game left unfinished." in out


def test_quit_offers_to_save(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    record = tmp_path / "offered.txt"
    code, out, _ = play(capsys, monkeypatch, ["1", "quit", str(record)], "nim")
    assert code == 0
    assert "Save the record to FILE (Enter to skip): " in out
    assert load_record(record)[0].turns[0].text == "1"


def test_turn_strings_and_compound_turns(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    record = tmp_path / "compound.txt"
    lines = ["1+1+1", "1", "1", "quit"]
    argv = ["nim", "--option", "steps=2", "--option", "pile=20", "--save", str(record)]
    _, out, _ = play(capsys, monkeypatch, lines, *argv)
    assert "the turn ends after 1+1; nothing was played" in out
    turns = load_record(record)[0].turns
    assert turns[0].text == "1+1"
    assert len(turns[1].decisions) == 2


def test_bots_only_game_is_reproducible(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    argv = ["murus-gallicus", "--player", "random", "--player", "random", "--seed", "7"]
    code, first, _ = play(capsys, monkeypatch, [], *argv, "--save", str(tmp_path / "a.txt"))
    assert code == 0
    assert "Game over: " in first
    assert "Romans plays " in first
    _, second, _ = play(capsys, monkeypatch, [], *argv, "--save", str(tmp_path / "b.txt"))
    assert first.replace("b.txt", "a.txt") == second.replace("b.txt", "a.txt")


def test_three_seats(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ["nim", "--player", "random", "--player", "human"]
    code, out, err = play(capsys, monkeypatch, [], *argv, "--player", "random")
    assert (code, err) == (0, "")
    assert "P2> " in out


def test_hidden_information_is_not_shown(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out, _ = play(capsys, monkeypatch, ["1", "quit", ""], "hidden-nim", "--seed", "1")
    assert "pile: ?" in out
    assert "P2 plays (hidden)" in out
    assert "pile: ooooo" not in out.split("Game left unfinished.")[0].split("P1> ")[0]
    # Hotseat: the terminal is handed over between the two humans.
    lines = ["", "1", "", "1", "quit", ""]
    argv = ["hidden-nim", "--player", "human", "--player", "human"]
    _, out, _ = play(capsys, monkeypatch, lines, *argv)
    assert "Pass the terminal to P1 and press Enter" in out
    assert "Pass the terminal to P2 and press Enter" in out


def test_ctrl_c_leaves_the_game_without_a_traceback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def interrupt(prompt: str = "") -> str:
        raise KeyboardInterrupt

    record = tmp_path / "interrupted.txt"
    monkeypatch.setattr("builtins.input", interrupt)
    assert main(["play", "murus-gallicus", "--save", str(record)]) == 130
    out, err = capsys.readouterr()
    assert "interrupted" in out
    assert "Game left unfinished." in out
    assert err == ""
    assert load_record(record)[0].turns == []


def test_cyvasse_deployment_by_preset_and_saving_a_lineup(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("BOARDLAB_HOME", str(tmp_path))
    record = tmp_path / "cyvasse.txt"
    lines = ["preset nosuch", "preset random", "savepreset mine", "quit"]
    argv = ["cyvasse", "--player", "human", "--player", "random", "--seed", "3"]
    code, out, _ = play(capsys, monkeypatch, [*lines], *argv, "--save", str(record))
    assert code == 0
    assert "Presets: classic fortress vanguard random" in out
    assert "unknown preset 'nosuch'" in out
    assert "set up with preset random" in out
    assert f"saved preset mine to {tmp_path / 'cyvasse_presets.json'}" in out
    loaded, _ = load_record(record)
    assert len(loaded.turns[0].decisions) == 19
    code, out, _ = play(capsys, monkeypatch, ["quit"], *argv)
    assert "Presets: classic fortress vanguard mine random" in out
