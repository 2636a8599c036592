"""The record loader's rules about results: a resignation needs a loser, a hand-written record
may leave out the Result header, and every refusal is a RecordError naming its line."""

from __future__ import annotations

import pytest

import boardlab
from boardlab.core.errors import RecordError
from boardlab.core.outcome import Outcome, Result, Termination
from boardlab.core.records import Record, parse_record

BREAKTHROUGH = "GG1GGGGG/8/2R5/8/8/8/RR1RRRRR R 20"


def text_of(moves: list[str], start: str | None = None) -> str:
    """The record text of ``moves`` in Murus Gallicus, unfinished or ended by the rules."""
    record = Record(boardlab.make("murus-gallicus"), start, ["human", "human"], "2026-01-01")
    state = record.start_state()
    for move in moves:
        action = state.parse_action(move)
        record.add(state, action)
        state.apply_action(action)
    return record.to_text(state)


def with_result(text: str, result: str, termination: str) -> str:
    return text.replace("Result: *", f"Result: {result}").replace(
        "Termination: -", f"Termination: {termination}"
    )


@pytest.mark.parametrize(
    "result",
    [
        "Romans=win Gauls=win",
        "Romans=draw Gauls=draw",
        "Romans=win Gauls=draw",
    ],
)
def test_a_resignation_in_which_nobody_lost_is_refused(result: str) -> None:
    text = with_result(text_of(["d1-d3"]), result, "resignation")
    with pytest.raises(RecordError, match=rf"<record>:11: bad Result header '{result}'"):
        parse_record(text)


@pytest.mark.parametrize(
    "result",
    [
        "Romans=win",  # a seat missing
        "Romans=win Gauls=loss Picts=loss",  # a seat too many
        "Romans=win Gauls=lost",  # not a result
        "Romans:win Gauls:loss",  # not name=result
    ],
)
def test_a_malformed_resignation_result_is_refused(result: str) -> None:
    text = with_result(text_of(["d1-d3"]), result, "resignation")
    with pytest.raises(RecordError, match=r"<record>:11: bad Result header"):
        parse_record(text)


def test_a_resignation_result_is_read_seat_by_seat() -> None:
    text = with_result(text_of(["d1-d3"]), "Gauls=win Romans=loss", "resignation")
    record, final = parse_record(text)
    outcome = record.outcome(final)
    assert outcome is not None
    assert outcome.results == (Result.LOSS, Result.WIN)
    assert outcome.termination is Termination.RESIGNATION


def test_a_win_claimed_without_a_resignation_for_unfinished_moves_is_refused() -> None:
    text = with_result(text_of(["d1-d3"]), "Romans=win Gauls=loss", "stalemate")
    with pytest.raises(RecordError, match=r"<record>:11: the header claims a finished game"):
        parse_record(text)


def test_a_record_without_a_result_header_is_read_by_its_moves() -> None:
    """A hand-written record may leave out Result and Termination: the moves decide."""
    unfinished = text_of(["d1-d3", "a7-a5"]).replace("Result: *\nTermination: -\n", "")
    record, final = parse_record(unfinished)
    assert record.decisions() == ["d1-d3", "a7-a5"] and record.outcome(final) is None

    won = text_of(["c5-c7"], BREAKTHROUGH)
    assert "Result: Romans=win Gauls=loss\nTermination: home_row\n" in won
    record, final = parse_record(won.replace("Result: Romans=win Gauls=loss\n", ""))
    outcome = record.outcome(final)
    assert outcome is not None and outcome.winners == (0,)
    assert outcome.termination is Termination.HOME_ROW


def test_a_result_contradicting_the_moves_is_refused_even_as_a_resignation() -> None:
    won = text_of(["c5-c7"], BREAKTHROUGH)
    text = won.replace("Romans=win Gauls=loss", "Romans=loss Gauls=win").replace(
        "home_row", "resignation"
    )
    with pytest.raises(RecordError, match=r"<record>:11: the header does not match the moves"):
        parse_record(text)


def test_a_timeout_and_an_agreed_draw_are_read_back_as_written() -> None:
    timeout = with_result(text_of(["d1-d3"]), "Romans=loss Gauls=win", "timeout")
    record, final = parse_record(timeout)
    assert record.outcome(final) == Outcome((Result.LOSS, Result.WIN), Termination.TIMEOUT)
    assert record.to_text(final) == timeout

    agreed = with_result(text_of(["d1-d3"]), "Romans=draw Gauls=draw", "agreement")
    record, final = parse_record(agreed)
    assert record.outcome(final) == Outcome((Result.DRAW, Result.DRAW), Termination.AGREEMENT)
    assert record.to_text(final) == agreed


@pytest.mark.parametrize(
    ("result", "termination"),
    [
        ("Romans=draw Gauls=draw", "timeout"),  # a flag has a loser
        ("Romans=win Gauls=loss", "agreement"),  # an agreement is a draw
        ("Romans=win Gauls=draw", "agreement"),
    ],
)
def test_a_timeout_without_a_loser_or_an_agreement_with_one_is_refused(
    result: str, termination: str
) -> None:
    text = with_result(text_of(["d1-d3"]), result, termination)
    with pytest.raises(RecordError, match=rf"<record>:11: bad Result header '{result}'"):
        parse_record(text)
