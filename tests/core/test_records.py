"""Game records: save, load, replay, atomic writes and errors that name the line."""

from __future__ import annotations

from pathlib import Path

import pytest

import boardlab
from boardlab.core.errors import RecordError
from boardlab.core.outcome import Result, Termination
from boardlab.core.records import Record, load_record, parse_record

BREAKTHROUGH = "GG1GGGGG/8/2R5/8/8/8/RR1RRRRR R 20"


def played(moves: list[str], start: str | None = None) -> tuple[Record, boardlab.State]:
    game = boardlab.make("murus-gallicus", max_plies=300)
    record = Record(game, start, ["human", "random"])
    state = record.start_state()
    for move in moves:
        action = state.parse_action(move)
        record.add(state, action)
        state.apply_action(action)
    return record, state


def test_a_record_round_trips_through_a_file(tmp_path: Path) -> None:
    record, state = played(["d1-d3", "a7-a5", "c1-e3"])
    path = tmp_path / "game.txt"
    record.save(path, state)
    loaded, final = load_record(path)
    assert final.position_text() == state.position_text()
    assert loaded.decisions() == ["d1-d3", "a7-a5", "c1-e3"]
    assert loaded.players == ["human", "random"]
    assert loaded.game == record.game
    assert loaded.to_text(final) == path.read_text()
    assert [p.name for p in tmp_path.iterdir()] == ["game.txt"]


def test_the_header_stores_every_option_and_the_result() -> None:
    record, state = played(["c5-c7"], BREAKTHROUGH)
    text = record.to_text(state)
    assert "Option board: 8x7\nOption repetition_draw: 3\nOption max_plies: 300\n" in text
    assert f"Position: {BREAKTHROUGH}\n" in text
    assert "Result: Romans=win Gauls=loss\nTermination: home_row\n" in text
    assert text.endswith("\n1 Romans: c5-c7\n")


def test_an_illegal_move_names_its_line() -> None:
    record, state = played(["d1-d3", "a7-a5"])
    text = record.to_text(state).replace("2 Gauls: a7-a5", "2 Gauls: a7-a4")
    with pytest.raises(RecordError, match=r"<record>:15: illegal move 'a7-a4'"):
        parse_record(text)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("# Boardlab game record", "# something else", "not a Boardlab record"),
        ("Game: murus-gallicus", "Game: chess", "unknown game"),
        ("Option board: 8x7", "Option board: 9x9", "bad value"),
        ("2 Gauls: a7-a5", "2 Romans: a7-a5", "Romans is not to move"),
        ("2 Gauls: a7-a5", "3 Gauls: a7-a5", "turn number 3, expected 2"),
        ("2 Gauls: a7-a5", "Gauls a7-a5", "expected 'N Player: move'"),
        ("Rules: 1", "Rules: 9", "rules version 9"),
    ],
)
def test_corrupt_records_give_clear_errors(old: str, new: str, message: str) -> None:
    record, state = played(["d1-d3", "a7-a5"])
    with pytest.raises(RecordError, match=message):
        parse_record(record.to_text(state).replace(old, new))


def test_moves_after_the_end_are_rejected() -> None:
    record, state = played(["c5-c7"], BREAKTHROUGH)
    text = record.to_text(state) + "2 Gauls: a7-a5\n"
    with pytest.raises(RecordError, match="already over"):
        parse_record(text)


def test_a_resignation_is_kept() -> None:
    record, state = played(["d1-d3"])
    record.resign(1)
    loaded, final = parse_record(record.to_text(state))
    assert not final.is_terminal()
    outcome = loaded.outcome(final)
    assert outcome is not None
    assert outcome.termination is Termination.RESIGNATION
    assert outcome.results == (Result.WIN, Result.LOSS)


def test_a_failed_save_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record, state = played(["d1-d3"])
    path = tmp_path / "game.txt"
    path.write_text("old")

    def fail(source: str, target: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("boardlab.core.files.os.replace", fail)
    with pytest.raises(OSError, match="disk full"):
        record.save(path, state)
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["game.txt"]
