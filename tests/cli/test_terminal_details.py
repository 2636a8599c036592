"""Issue 15, terminal play details: undo, resignation with many seats, hints, messages, help."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardlab.cli.main import main
from boardlab.core.records import load_record
from tests.cli.test_play import play

# Three seats after setup (reached by random placements), P1 to move.
THREE_SEATS = (
    "3 -3,0=2f/-3,2=3f/-2,-1=2f/-2,0=2b/-2,2=3f/-1,0=2b/-1,1=3b/-1,2=3b/0,-2=1f/0,-1=1b/"
    "0,0=1b/1,-1=1f 1 - 0 0 12"
)


def test_hotseat_undo_never_takes_back_the_other_players_turn(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = ["1", "undo", "2", "undo", "quit"]
    code, out, _ = play(capsys, monkeypatch, lines, "nim", "--player", "human", "--player", "human")
    assert code == 0
    assert "cannot undo: the last turn was P1's; you can only take back your own" in out
    assert "cannot undo: the last turn was P2's" in out
    assert "took back" not in out


def test_resignation_with_three_seats_lets_the_others_play_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    record = tmp_path / "three.txt"
    argv = ["colosseum-offcuts", "--position", THREE_SEATS, "--player", "human"]
    argv += ["--player", "random", "--player", "random", "--seed", "1", "--save", str(record)]
    code, out, _ = play(capsys, monkeypatch, ["resign"], *argv)
    assert code == 0
    assert "P1 resigns and leaves the game; the others play on" in out
    assert "P2 plays " in out and "P3 plays " in out
    assert out.count("Game over: ") == 1
    loaded, final = load_record(record)
    assert loaded.turns[0].text == "resign"
    assert final.outcome is not None
    assert final.outcome.results[0].value == "loss"
    assert main(["replay", str(record), "--step"]) == 0
    assert "1 P1: resign" in capsys.readouterr().out


def test_resignation_with_two_seats_left_ends_the_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["colosseum-offcuts", "--player", "human", "--player", "random"]
    code, out, _ = play(capsys, monkeypatch, ["resign"], *argv)
    assert code == 0
    assert "Game over: P2 won (resignation)" in out


def test_slow_bot_says_it_is_thinking(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("boardlab.cli.play.THINKING_AFTER", 0.0)
    argv = ["murus-gallicus", "--player", "human", "--player", "mcts:iters=300"]
    _, out, _ = play(capsys, monkeypatch, ["d1-d3", "quit"], *argv)
    assert "Gauls is thinking…" in out


def test_result_is_said_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["murus-gallicus", "--player", "random", "--player", "random", "--seed", "1"]
    _, out, _ = play(capsys, monkeypatch, [], *argv)
    result = out.split("Game over: ")[1].splitlines()[0]
    assert out.count(result) == 1


def test_command_words_get_a_hint_and_long_input_is_cut(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out, _ = play(capsys, monkeypatch, ["Help", "exit", "x" * 5000, "quit"], "nim")
    assert out.count("(type `help` for the commands)") == 3
    assert max(len(line) for line in out.splitlines()) < 500


def test_spaces_around_plus_are_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "anacund", "--option", "layout=l0", "6@19+5@21+4@18"]) == 0
    joined = capsys.readouterr().out
    assert main(["moves", "anacund", "--option", "layout=l0", "6@19 + 5@21 +4@18"]) == 0
    assert capsys.readouterr().out == joined


def test_cyvasse_file_labels_are_set_apart(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "cyvasse"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if "|" in line]
    assert len(rows) == 11
    assert all("a| " in row for row in rows)
    assert "|k" in rows[5]


def test_help_shows_defaults_and_the_player_spec_grammar(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["match", "--help"]) == 0
    text = capsys.readouterr().out
    assert "number of games (default: 10)" in text
    assert "mcts[:iters=N,time=S,c=X,rollout=N,reuse=true|false]" in text
    assert main(["play", "--help"]) == 0
    text = capsys.readouterr().out
    assert "level:NAME" in text and "--resume FILE" in text and "--force" in text


def test_match_progress_counts_wins_per_bot(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["match", "murus-gallicus", "--player", "random", "--player", "greedy"]
    assert main([*argv, "--games", "4", "--seed", "2"]) == 0
    progress = capsys.readouterr().err.splitlines()[-1]
    assert progress.startswith("game 4/4: wins random ")
    assert ", greedy " in progress
