"""A fuzzer for the ``boardlab`` command: hostile input ends cleanly, never in a traceback.

Hypothesis generates command lines, position texts, move strings, option values and record
files (mutations of real records) for all five games. Each run of ``main`` must return 0 or
end in one line ``boardlab: error: ...`` with exit 2, within :data:`TIME_BOUND` seconds.

Every run draws fresh inputs from a new seed (CI: 15 examples per test, a few seconds); a
failure prints the falsifying input and ``BOARDLAB_FUZZ_SEED=N``, which replays the run. A long
run (about 45 minutes on two cores): ``BOARDLAB_FUZZ_EXAMPLES=5000 pytest tests/fuzz`` (see
``docs/testing.md``).
"""

from __future__ import annotations

import functools
import os
import random
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from boardlab.cli.main import main
from boardlab.core.game import Game
from boardlab.core.options import SEED
from boardlab.core.records import Record, parse_record
from boardlab.core.registry import game_class, game_ids, make

EXAMPLES = int(os.environ.get("BOARDLAB_FUZZ_EXAMPLES", "15"))
FUZZ_SEED = int(os.environ.get("BOARDLAB_FUZZ_SEED") or random.SystemRandom().randrange(2**32))
"""The seed of this run's inputs: fresh unless given (``conftest.py`` prints it on failure)."""
TIME_BOUND = 30
"""Seconds one input may take; more counts as a hang."""

_SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=False,
    print_blob=True,
)


def FUZZ(test: Callable[..., None]) -> Callable[..., None]:
    """The fuzz settings and this run's seed."""
    seeded: Callable[..., None] = hypothesis_seed(FUZZ_SEED)(_SETTINGS(test))
    return seeded


GAMES = tuple(game_ids())
HOSTILE_TEXT = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["", " ", "+", "++", "-", "0", "-0", "inf", "nan", "1e400", "\x00", "é", "🂡"]),
    st.builds(lambda n: "9" * n, st.integers(100, 6000)),
    st.builds(lambda n: "x" * n, st.integers(300, 20000)),
    st.integers(-(10**30), 10**30).map(str),
)


class Hang(Exception):
    """An input took longer than the time bound."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang(f"no answer within {TIME_BOUND} s")


@contextmanager
def _bounded() -> Iterator[None]:
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIME_BOUND)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def check_clean(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> int:
    """Run ``boardlab ARGV`` (no terminal input); assert it ends cleanly; returns the code."""
    monkeypatch.setattr(sys, "stdin", open(os.devnull, encoding="utf-8"))  # noqa: SIM115
    with _bounded():
        code = main(argv)
    out, err = capsys.readouterr()
    assert code in (0, 2), (argv, code, err)
    if code == 2:
        assert err.startswith("boardlab: error: "), (argv, err)
        assert err.count("\n") == 1, (argv, err)
        assert len(err) < 1000, (argv, len(err))
    assert "Traceback" not in out + err
    return code


def fixed_game(game_id: str) -> Game:
    """``game_id`` with its chance seeded, so strategies built from it are reproducible."""
    seeded = any(spec.key == SEED for spec in game_class(game_id).OPTIONS)
    return make(game_id, **({SEED: 1} if seeded else {}))


@functools.cache
def real_records(game_id: str) -> tuple[str, ...]:
    """Two records of ``game_id`` (two seats): the shorter of two finished random games, and
    its first turns as an unfinished game."""
    games = []
    for seed in (1, 2):
        game = fixed_game(game_id)
        state = game.new_initial_state()
        record = Record(game, players=["random", "random"])
        rng = random.Random(seed)
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            record.add(state, action)
            state.apply_action(action)
        games.append(record.to_text(state))
    full = min(games, key=len)
    head, _, body = full.partition("\n\n")
    kept = [line for line in head.splitlines() if not line.startswith(UNFINISHED_DROPS)]
    unfinished = "\n".join([*kept, "Result: *", "", *body.splitlines()[:20]]) + "\n"
    return full, unfinished


UNFINISHED_DROPS = ("Result:", "Termination:", "Score:")


@functools.cache
def real_positions(game_id: str) -> tuple[str, ...]:
    """Position texts along a random game of ``game_id``."""
    record, _ = parse_record(real_records(game_id)[0])
    state = record.start_state()
    texts = [state.position_text()]
    for decision in record.decisions()[:200]:
        state.play(decision)
        texts.append(state.position_text())
    return tuple(texts[:: max(1, len(texts) // 12)])


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """``text`` with one to three edits: cuts, dropped or swapped lines, flipped characters,
    hostile header values, huge and unicode content."""
    for _ in range(draw(st.integers(1, 3))):
        lines = text.split("\n")
        kind = draw(st.integers(0, 6))
        at = draw(st.integers(0, max(0, len(lines) - 1)))
        if kind == 0:
            text = text[: draw(st.integers(0, len(text)))]
        elif kind == 1:
            del lines[at]
            text = "\n".join(lines)
        elif kind == 2:
            other = draw(st.integers(0, max(0, len(lines) - 1)))
            lines[at], lines[other] = lines[other], lines[at]
            text = "\n".join(lines)
        elif kind == 3 and text:
            spot = draw(st.integers(0, len(text) - 1))
            text = text[:spot] + draw(st.characters()) + text[spot + 1 :]
        elif kind == 4:
            key = lines[at].partition(": ")[0]
            lines[at] = f"{key}: {draw(HOSTILE_TEXT)}"
            text = "\n".join(lines)
        elif kind == 5:
            lines.insert(at, draw(HOSTILE_TEXT))
            text = "\n".join(lines)
        else:
            lines[at] = lines[at] + draw(HOSTILE_TEXT)
            text = "\n".join(lines)
    return text


@FUZZ
@given(data=st.data(), game=st.sampled_from(GAMES))
def test_fuzz_record_files(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    data: st.DataObject,
    game: str,
) -> None:
    text = data.draw(mutated(data.draw(st.sampled_from(real_records(game)))))
    raw = text.encode("utf-8", "surrogatepass")
    if data.draw(st.booleans()):
        raw = raw.replace(b"\n", b"\r\n", data.draw(st.integers(0, 3)))
    if data.draw(st.integers(0, 9)) == 0:
        raw += b"\xff\xfe"
    path = tmp_path / "record.txt"
    path.write_bytes(raw)
    step = data.draw(st.sampled_from([[], [], [], ["--step"]]))
    check_clean(capsys, monkeypatch, ["replay", str(path), *step])


@FUZZ
@given(data=st.data(), game=st.sampled_from(GAMES))
def test_fuzz_position_texts(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    data: st.DataObject,
    game: str,
) -> None:
    position = data.draw(mutated(data.draw(st.sampled_from(real_positions(game)))))
    command = data.draw(st.sampled_from([["show"], ["moves"], ["perft", "1"]]))
    check_clean(capsys, monkeypatch, [command[0], game, *command[1:], "--position", position])


@FUZZ
@given(data=st.data(), game=st.sampled_from(GAMES))
def test_fuzz_move_strings(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    data: st.DataObject,
    game: str,
) -> None:
    legal = fixed_game(game).new_initial_state().legal_moves()
    move = st.one_of(st.sampled_from(legal), HOSTILE_TEXT, st.sampled_from(legal).flatmap(mutated))
    moves = data.draw(st.lists(move, min_size=1, max_size=3))
    joined = data.draw(st.sampled_from(["+", " + ", " "]))
    argv = ["moves", game, *(moves if joined == " " else [joined.join(moves)])]
    check_clean(capsys, monkeypatch, argv)


@FUZZ
@given(data=st.data(), game=st.sampled_from(GAMES))
def test_fuzz_option_values(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    data: st.DataObject,
    game: str,
) -> None:
    keys = [spec.key for spec in game_class(game).OPTIONS]
    key = data.draw(st.one_of(st.sampled_from(keys), HOSTILE_TEXT))
    value = data.draw(HOSTILE_TEXT)
    argv = ["show", game, "--option", f"{key}={value}"]
    check_clean(capsys, monkeypatch, argv)


SPECS = st.one_of(
    st.sampled_from(
        ["random", "greedy", "human", "level:easy", "mcts:iters=5", "alphabeta:depth=1"]
    ),
    st.builds(
        lambda kind, key, value: f"{kind}:{key}={value}",
        st.sampled_from(["mcts", "alphabeta", "greedy", "level", "random"]),
        st.sampled_from(["time", "iters", "depth", "c", "noise", "rollout", "reuse", "x"]),
        HOSTILE_TEXT,
    ),
    HOSTILE_TEXT,
)


@FUZZ
@given(data=st.data(), game=st.sampled_from(GAMES))
def test_fuzz_command_lines(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    data: st.DataObject,
    game: str,
) -> None:
    name = data.draw(st.one_of(st.just(game), HOSTILE_TEXT))
    command = data.draw(st.sampled_from(["games", "moves", "show", "perft", "play", "match"]))
    argv = [command, name]
    if command == "perft":
        argv.append(data.draw(st.one_of(st.sampled_from(["0", "1", "-1", "31"]), HOSTILE_TEXT)))
    if command in ("play", "match"):
        argv += [x for spec in data.draw(st.lists(SPECS, max_size=3)) for x in ("--player", spec)]
    if command == "match":
        # Few games, or a count that must be refused: a valid huge count would just run.
        argv += ["--games", data.draw(st.sampled_from(["1", "0", "-5", "x", "9" * 5000]))]
        argv += ["--jobs", data.draw(st.sampled_from(["1", "0", "99", "9" * 5000]))]
    argv += data.draw(st.lists(HOSTILE_TEXT, max_size=2))
    check_clean(capsys, monkeypatch, argv)
