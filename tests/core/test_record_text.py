"""Game records of every shape: turns of several decisions, scores, a seat that resigns and
leaves while the others play on, a copy for undo, and headers that are missing or wrong, each
refusal naming its line."""

from __future__ import annotations

import locale
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import boardlab
from boardlab.core.errors import RecordError
from boardlab.core.outcome import Result, Termination
from boardlab.core.records import RESIGN, Record, Turn, apply_turn, load_record, parse_record

MURUS = "murus-gallicus"


def random_game(game_id: str, seed: int, plies: int | None = None, **options: object) -> Record:
    """A record of random play: to the end, or ``plies`` decisions."""
    game = boardlab.make(game_id, **options)
    record = Record(game, None, ["random"] * game.num_players, "2026-01-01")
    state = record.start_state()
    rng = random.Random(seed)
    while not state.is_terminal() and (plies is None or len(record.decisions()) < plies):
        action = rng.choice(state.legal_actions())
        record.add(state, action)
        state.apply_action(action)
    return record


def test_a_turn_of_several_decisions_is_one_line_joined_by_plus() -> None:
    record = random_game("anacund", 1)
    final = record.replay()
    assert final.is_terminal()
    assert all(len(turn.decisions) == 3 for turn in record.turns[:-1])
    text = record.to_text(final)
    first = record.turns[0]
    assert f"\n1 A: {'+'.join(first.decisions)}\n" in text
    # Scored games write the score, and it must agree with the moves.
    assert final.outcome is not None and final.outcome.scores is not None
    score = "Score: " + " ".join(str(s) for s in final.outcome.scores)
    assert f"\n{score}\n" in text
    loaded, again = parse_record(text)
    assert [t.decisions for t in loaded.turns] == [t.decisions for t in record.turns]
    assert [t.seat for t in loaded.turns] == [t.seat for t in record.turns]
    assert again.position_text() == final.position_text()
    assert loaded.to_text(again) == text
    wrong = text.replace(score, "Score: 0 0")
    with pytest.raises(RecordError, match=r"<record>:\d+: the header does not match the moves"):
        parse_record(wrong)
    with pytest.raises(RecordError, match=r"<record>:\d+: the header does not match the moves"):
        parse_record(text.replace(score + "\n", ""))


def past_setup(seed: int) -> Record:
    """A three-seat Colosseum Offcuts game played at random to the first turn after setup."""
    record = random_game("colosseum-offcuts", seed, plies=1, players=3)
    state = record.replay()
    rng = random.Random(seed)
    while state.setup or not state.turn_start:  # type: ignore[attr-defined]
        action = rng.choice(state.legal_actions())
        record.add(state, action)
        state.apply_action(action)
    return record


def test_a_seat_that_resigns_among_three_leaves_as_a_turn_line() -> None:
    record = past_setup(3)
    state = record.replay()
    assert not state.is_terminal() and state.turn_start
    seat = state.current_player
    after = record.resign(seat, state)
    assert after is not None and record.resigned is None
    assert record.turns[-1] == Turn(seat, [RESIGN])
    assert seat not in after.seats_in_game()  # type: ignore[attr-defined]
    text = record.to_text(after)
    assert text.endswith(f"\n{len(record.turns)} P{seat + 1}: resign\n")
    loaded, final = parse_record(text)
    assert loaded.turns[-1] == Turn(seat, [RESIGN])
    assert final.position_text() == after.position_text()
    assert record.replay().position_text() == after.position_text()


def test_a_resignation_that_would_end_the_game_is_no_turn_line() -> None:
    record = random_game(MURUS, 1, plies=2)
    text = record.to_text(record.replay()) + "3 Romans: resign\n"
    with pytest.raises(RecordError, match=r"<record>:16: a resignation here ends the game"):
        parse_record(text)
    record.turns.append(Turn(0, [RESIGN]))
    with pytest.raises(RecordError, match="this resignation would end the game"):
        record.replay()
    # Ending the game, it is the result: the resigning seat loses, every other seat wins.
    three = past_setup(3)
    assert three.resign(1) is None
    assert three.resigned is not None
    assert three.resigned.results == (Result.WIN, Result.LOSS, Result.WIN)
    assert three.resigned.termination is Termination.RESIGNATION


def test_replaying_applies_each_turn_in_order() -> None:
    record = random_game(MURUS, 5, plies=6)
    state = record.start_state()
    for turn in record.turns:
        state = apply_turn(state, turn)
    assert record.replay().position_text() == state.position_text()
    assert record.replay().ply == 6


def test_a_copy_keeps_the_first_turns_and_is_independent() -> None:
    record = random_game(MURUS, 2, plies=6)
    record.resign(1)
    short = record.copy(4)
    assert [t.decisions for t in short.turns] == [t.decisions for t in record.turns[:4]]
    assert [t.seat for t in short.turns] == [0, 1, 0, 1]
    assert (short.game, short.start, short.players, short.date, short.resigned) == (
        record.game,
        record.start,
        record.players,
        record.date,
        record.resigned,
    )
    whole = record.copy()
    assert whole.turns == record.turns and whole.turns is not record.turns
    whole.turns[0].decisions.append("x")
    whole.players.append("x")
    assert record.turns[0].decisions == [record.decisions()[0]]
    assert record.players == ["random", "random"]


def test_the_outcome_is_the_rules_else_the_resignation() -> None:
    record = random_game(MURUS, 4)
    assert record.outcome() == record.replay().outcome
    unfinished = random_game(MURUS, 4, plies=3)
    assert unfinished.outcome() is None
    unfinished.resign(0)
    outcome = unfinished.outcome()
    assert outcome is not None and outcome.results == (Result.LOSS, Result.WIN)


def test_saving_writes_the_final_result(tmp_path: Path) -> None:
    record = random_game(MURUS, 4)
    final = record.replay()
    path = tmp_path / "game.txt"
    record.save(path, final)
    assert path.read_text(encoding="utf-8") == record.to_text(final)
    assert "Result: *" not in path.read_text(encoding="utf-8")


def test_missing_player_and_date_headers_read_as_unknown() -> None:
    record = random_game(MURUS, 1, plies=2)
    record.players = ["human"]
    text = record.to_text(record.replay())
    assert "Player Romans: human\nPlayer Gauls: unknown\n" in text
    bare = "\n".join(line for line in text.splitlines() if not line.startswith(("Player", "Date")))
    loaded, _ = parse_record(bare + "\n")
    assert loaded.players == ["unknown", "unknown"]
    assert loaded.date == ""
    assert loaded.to_text(loaded.replay()).count("unknown") == 2


def test_missing_rules_and_position_headers_mean_this_version_from_the_start() -> None:
    record = random_game(MURUS, 1, plies=2)
    text = record.to_text(record.replay())
    bare = text.replace("Rules: 1\n", "").replace("Position: initial\n", "")
    loaded, final = parse_record(bare)
    assert loaded.start is None and final.ply == 2


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("Game: murus-gallicus", "Game: chess", r"<record>:2: bad header: unknown game 'chess'"),
        ("Game: murus-gallicus\n", "", r"^<record>: bad header: unknown game ''"),
        ("Rules: 1", "Rules: 7", r"<record>:3: written for rules version 7, this is 1"),
        ("Position: initial", "Position: 8/8", r"<record>:7: bad start position: "),
        ("Date: 2026-01-01", "Date 2026-01-01", r"<record>:10: header line must be 'Key: value'"),
        ("Date: 2026-01-01", "Rules: 1", r"<record>:10: a second 'Rules' header"),
        ("1 Romans: ", "1 Romans ", r"<record>:14: expected 'N Player: move', got '1 Romans "),
        ("1 Romans: ", "x Romans: ", r"<record>:14: expected 'N Player: move'"),
        ("1 Romans: ", "1 Picts: ", r"<record>:14: expected 'N Player: move'"),
        ("1 Romans: ", "123456789012345 Romans: ", r"<record>:14: turn number 123456789012, exp"),
        ("1 Romans: ", "12 Romans: ", r"<record>:14: turn number 12, expected 1"),
        ("2 Gauls: ", "2 Romans: ", r"<record>:15: Romans is not to move; Gauls is"),
    ],
)
def test_bad_headers_and_turn_lines_name_their_line(old: str, new: str, words: str) -> None:
    record = random_game(MURUS, 1, plies=2)
    text = record.to_text(record.replay())
    assert old in text
    with pytest.raises(RecordError, match=words):
        parse_record(text.replace(old, new, 1))


def test_a_move_holding_a_colon_is_read_from_the_first_separator() -> None:
    record = random_game(MURUS, 1, plies=1)
    text = record.to_text(record.replay()).replace("1 Romans: ", "1 Romans: x: ")
    with pytest.raises(RecordError, match=r"<record>:14: .*'x: "):
        parse_record(text)


def test_a_record_that_cannot_be_read_is_a_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "none.txt"
    with pytest.raises(RecordError, match=rf"cannot read record {str(missing)!r}: "):
        load_record(missing)
    latin = tmp_path / "latin.txt"
    latin.write_bytes("# Boardlab game record\nGame: é\n".encode("latin-1"))
    with pytest.raises(RecordError, match=r"cannot read record .*'utf-8' codec"):
        load_record(latin)


@contextmanager
def ascii_locale() -> Iterator[None]:
    """The C locale for text, whose encoding is ASCII, as on a machine set up without UTF-8."""
    before = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C")
    try:
        yield
    finally:
        locale.setlocale(locale.LC_CTYPE, before)


def test_a_record_is_read_as_utf_8_whatever_the_machine_locale(tmp_path: Path) -> None:
    record = random_game(MURUS, 1, plies=2)
    record.players = ["human", "Zoë's bot"]
    path = tmp_path / "game.txt"
    record.save(path, record.replay())
    with ascii_locale():
        assert locale.getpreferredencoding(False) != "UTF-8"
        loaded, final = load_record(path)
    assert loaded.players == ["human", "Zoë's bot"] and final.ply == 2


def test_a_turn_number_has_at_most_nine_digits() -> None:
    record = random_game(MURUS, 1, plies=2)
    text = record.to_text(record.replay())
    loaded, final = parse_record(text.replace("\n1 Romans: ", "\n000000001 Romans: "))
    assert len(loaded.turns) == 2 and final.ply == 2
    with pytest.raises(RecordError, match=r"<record>:14: turn number 0000000001, expected 1$"):
        parse_record(text.replace("\n1 Romans: ", "\n0000000001 Romans: "))


def test_a_record_cut_in_its_header_is_refused_and_an_empty_move_list_is_not() -> None:
    record = random_game(MURUS, 1, plies=2)
    text = record.to_text(record.replay())
    head = text.split("\n\n")[0]
    for cut in (head, head + "\n"):
        with pytest.raises(RecordError, match=r"no blank line before the moves$"):
            parse_record(cut)
    loaded, final = parse_record(head + "\n\n")
    assert loaded.turns == [] and final.ply == 0


def test_a_claimed_result_without_termination_is_refused_as_cut_short() -> None:
    record = random_game(MURUS, 1, plies=2)
    text = record.to_text(record.replay())
    text = text.replace("Result: *\nTermination: -\n", "Result: Romans=win Gauls=loss\n")
    with pytest.raises(RecordError, match=r"<record>:11: the header claims a finished game"):
        parse_record(text)


def test_a_resignation_turn_that_would_end_the_game_says_where_it_belongs() -> None:
    record = random_game(MURUS, 1, plies=2)
    record.turns.append(Turn(0, [RESIGN]))
    words = r"^this resignation would end the game: write it in the Result header$"
    with pytest.raises(RecordError, match=words):
        record.replay()


def test_a_record_may_start_in_the_middle_of_a_turn() -> None:
    game = boardlab.make("anacund", layout="l0")
    state = game.new_initial_state()
    state.play("6@19")
    assert not state.turn_start
    record = Record(game, state.position_text(), ["human", "human"], "2026-01-01")
    for move in ("5@21", "4@18"):
        action = state.parse_action(move)
        record.add(state, action)
        state.apply_action(action)
    text = record.to_text(state)
    assert text.endswith("\n1 A: 5@21+4@18\n")
    loaded, final = parse_record(text)
    assert final.position_text() == state.position_text()
    copied = loaded.copy(0)
    assert copied.start is not None and copied.start == loaded.start and copied.turns == []


def test_a_header_value_may_hold_a_colon() -> None:
    record = random_game(MURUS, 1, plies=2)
    record.date = "2026-01-01: noon"
    loaded, _ = parse_record(record.to_text(record.replay()))
    assert loaded.date == "2026-01-01: noon"
