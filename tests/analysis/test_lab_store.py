"""The run store: append-only rows, torn lines, temporary files, resume checks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardlab.analysis.store import GAMES, RunStore, read_config, read_rows
from boardlab.core.errors import OptionError

CONFIG = {"game": "carnyx", "seed": 1, "games": 4}


def test_rows_are_stored_in_order_with_their_records(tmp_path: Path) -> None:
    with RunStore.open(tmp_path / "run", CONFIG) as store:
        assert store.append({"series": "base", "index": 0}) is None
        name = store.append({"series": "base", "index": 1}, record="text\n")
    assert name == "records/base-2.txt"
    assert (tmp_path / "run" / name).read_text() == "text\n"
    rows = list(read_rows(tmp_path / "run"))
    assert rows == [{"series": "base", "index": 0}, {"series": "base", "index": 1, "record": name}]
    assert read_config(tmp_path / "run")["seed"] == 1


def test_an_existing_run_needs_resume(tmp_path: Path) -> None:
    RunStore.open(tmp_path, CONFIG).close()
    with pytest.raises(OptionError, match="--resume"):
        RunStore.open(tmp_path, CONFIG)


def test_resume_refuses_a_different_config_but_allows_more_games(tmp_path: Path) -> None:
    RunStore.open(tmp_path, CONFIG).close()
    with pytest.raises(OptionError, match="differs in seed"):
        RunStore.open(tmp_path, {**CONFIG, "seed": 2}, resume=True)
    RunStore.open(tmp_path, {**CONFIG, "games": 10}, resume=True).close()
    assert read_config(tmp_path)["games"] == 10


def test_a_foreign_directory_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(OptionError, match="not empty"):
        RunStore.open(tmp_path, CONFIG)


def test_a_torn_line_and_temporary_files_are_cleaned_on_reopening(tmp_path: Path) -> None:
    with RunStore.open(tmp_path, CONFIG) as store:
        store.append({"series": "base", "index": 0})
    with (tmp_path / GAMES).open("a") as handle:
        handle.write('{"series": "base", "ind')
    (tmp_path / "records").mkdir()
    temporary = tmp_path / "records" / ".base-1.txt.abc123"
    temporary.write_text("half")
    assert len(list(read_rows(tmp_path))) == 1
    with RunStore.open(tmp_path, CONFIG, resume=True) as store:
        store.append({"series": "base", "index": 1})
    assert not temporary.exists()
    lines = (tmp_path / GAMES).read_text().splitlines()
    assert [json.loads(line)["index"] for line in lines] == [0, 1]
