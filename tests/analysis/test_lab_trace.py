"""A traced game: one entry per decision, board snapshots on the stride, a replayable record."""

from __future__ import annotations

import json
from dataclasses import fields, replace

from boardlab.analysis.trace import DEEP, GameTask, GameTrace, play_traced
from boardlab.core.records import parse_record


def _task(board_every: int, record: bool = False) -> GameTask:
    return GameTask(
        "base", 0, "murus-gallicus", (), ("random", "random"), (0, 1), 3, record, board_every
    )


def test_a_trace_has_one_entry_per_decision_and_snapshots_on_the_stride() -> None:
    trace = play_traced(_task(board_every=4))
    d = trace.decisions
    assert d > 0 and len(trace.seats) == len(trace.choices) == len(trace.eval_rows()) == d
    assert list(trace.seats[:2]) == [0, 1] and all(trace.turn_start)
    assert all(len(row) == 2 and all(-1 <= v <= 1 for v in row) for row in trace.eval_rows())
    assert len(trace.pieces) == (d + 3) // 4 + 1  # decisions 0, 4, 8, ... and the end
    assert trace.pieces[0] == [16, 16]  # eight towers of two stones a side
    assert trace.cells == 56 and 16 <= trace.covered <= 56
    assert sorted(trace.results) == ["loss", "win"] and trace.turns == d


def test_the_same_task_gives_the_same_trace_and_its_record_replays() -> None:
    first, second = play_traced(_task(1, record=True)), play_traced(_task(1, record=True))
    assert {**first.to_json(), "seconds": 0, "cpu_seconds": 0, "record": None} == {
        **second.to_json(),
        "seconds": 0,
        "cpu_seconds": 0,
        "record": None,
    }
    assert first.record is not None
    record, final = parse_record(first.record)
    assert [move for turn in record.turns for move in turn.decisions] == first.moves
    assert final.outcome is not None and final.outcome.termination.value == first.termination
    assert GameTrace.from_json(first.to_json()) == first


def test_no_snapshots_means_no_pieces_and_no_coverage() -> None:
    trace = play_traced(_task(board_every=0))
    assert trace.pieces == [] and trace.cells == 0 and trace.covered == 0


def test_a_stored_row_holds_every_field_and_reads_back_the_same() -> None:
    trace = play_traced(replace(_task(board_every=4), deep=True))
    row = json.loads(json.dumps(trace.to_json()))
    assert set(row) == {item.name for item in fields(GameTrace)}
    assert isinstance(row["evals"], list) and len(row["evals"]) == 2 * trace.decisions
    assert GameTrace.from_json(row) == trace
    # Without --deep the deep columns are left out of the line (and read back empty).
    plain = play_traced(_task(board_every=4))
    row = json.loads(json.dumps(plain.to_json()))
    assert set(row) == {item.name for item in fields(GameTrace)} - {*DEEP, "state_space"}
    assert GameTrace.from_json(row) == plain


def test_rows_of_other_versions_still_load() -> None:
    trace = play_traced(_task(board_every=0))
    row = trace.to_json()
    newer = {**row, "added_later": 1}
    older = {key: value for key, value in row.items() if key != "cpu_seconds"}
    assert GameTrace.from_json(newer) == GameTrace.from_json(row)
    assert GameTrace.from_json(older).cpu_seconds == 0.0
    by_rows = {**row, "evals": trace.eval_rows()}  # as earlier versions stored them
    assert GameTrace.from_json(by_rows) == trace
