"""One self-play game traced decision by decision: what the lab measures comes from here.

A :class:`GameTask` holds everything that determines a game (game, options, bot per seat, seed),
so the same task gives the same :class:`GameTrace` in any process, on any machine. The trace
keeps, for every decision: the seat to move, how many decisions it had, every seat's evaluation
(``State.heuristic``), the pieces each seat has on the board, and the decision played. Games
of random bots are played on the compiled engine where it is installed, with the same trace
(see :mod:`boardlab.analysis.compiled`).
"""

from __future__ import annotations

import random
import time
from array import array
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Final, Literal

from boardlab.ai import make_bot
from boardlab.ai.mcts import MctsBot
from boardlab.analysis.compiled import Decisions
from boardlab.analysis.deep_trace import DeepTrace
from boardlab.analysis.metrics import covered_cells
from boardlab.core.errors import OptionError
from boardlab.core.records import Record
from boardlab.core.registry import make
from boardlab.core.render_model import Occupancy
from boardlab.core.state import State

BYTE: Final = "B"
"""Array type code of seats and turn starts: 0 to 255."""
COUNT: Final = "I"
"""Array type code of legal decision counts: unsigned, 32 bits wherever Python runs."""
REAL: Final = "d"
"""Array type code of evaluations: doubles."""
EVAL_DIGITS = 4
"""Evaluations are rounded to this many decimals: enough for every metric, and compact."""
TIME_DIGITS = 6
"""Times are kept to the microsecond: a fast game takes a millisecond or two."""
BOARD_EVERY = 20
"""Default stride of board snapshots: a render model costs milliseconds and a cheap bot's
decision a fraction of one, so a snapshot at every decision would multiply a run's time."""


@dataclass(frozen=True)
class GameTask:
    """Everything that determines one game; picklable, so any worker can play it.

    ``players`` is the bot spec in each seat, in seat order; ``seating`` the index of each
    seat's player in the series' player list (for per-player statistics). ``seed`` seeds the
    bots; ``options`` already holds the chance seed of games that have chance, so a task plays
    the same game wherever and whenever it runs. With ``record`` the trace carries the game
    record's text, for the driver to save (workers on other machines share no disk with it).
    """

    series: str
    index: int
    game_id: str
    options: tuple[tuple[str, object], ...]
    players: tuple[str, ...]
    seating: tuple[int, ...]
    seed: int
    record: bool = False
    board_every: int = 0
    """Take a board snapshot every this many decisions (and at the end); 0: never, the default,
    since snapshots cost time that only board metrics repay (the lab uses ``BOARD_EVERY``)."""
    deep: bool = False
    """Trace what the deeper metrics need (:mod:`boardlab.analysis.deep_trace`)."""

    @property
    def key(self) -> tuple[str, int]:
        """The task's identity within a run: its series and index."""
        return (self.series, self.index)


@dataclass
class GameTrace:
    """A finished game and its per-decision trace (columns indexed by decision number).

    ``seats[d]`` is the seat to move at decision ``d``, ``choices[d]`` its number of legal
    decisions, ``turn_start[d]`` 1 when ``d`` starts a turn (else 0) and ``moves[d]`` the
    decision played; ``evals[d * n + s]`` is seat ``s``'s evaluation in [-1, 1] before decision
    ``d`` (``n`` seats; :meth:`eval_rows` gives it as ``[d][s]``). The number columns are typed
    arrays: a few bytes a number, where a list would hold a Python object for each. Board
    snapshots are taken before every ``board_every``-th decision and at the end:
    ``pieces[k][s]`` is the number of seat ``s``'s pieces on the board before decision
    ``k * board_every`` (the last entry: at the end); empty without snapshots or render
    model. ``record`` is the game record's text as played (when the task asked for it); the
    run store replaces it by the saved file's path. ``cells`` is the number of board cells seen
    in the snapshots and ``covered`` how many of them held a seat's piece in some snapshot (0
    and 0 without snapshots). ``seconds`` is the wall time the game took and ``cpu_seconds``
    the CPU time of the process that played it; they and the record's date are all that
    differ between two runs of the same task.

    A deep trace (:mod:`boardlab.analysis.deep_trace`) also has, per decision: ``alternatives``
    (four numbers about the legal decisions' evaluations, ``alternatives[4 * d + k]``),
    ``repeats`` and ``board_repeats`` (1 when the position, or the board alone, was seen
    before in the game) and ``distance`` (how far the decision moved a piece, in cell sizes,
    -1 for none); ``searched`` (the same four numbers from an MCTS bot's own root values,
    ``searched[4 * i + k]`` for decision ``searched_at[i]``); and ``state_space``, the game's
    state-space estimate. They are empty (None) otherwise, and left out of the JSON line.
    """

    series: str
    index: int
    players: list[str]
    seating: list[int]
    results: list[str]
    termination: str
    turns: int
    scores: list[int] | None = None
    record: str | None = None
    seats: array[int] = field(default_factory=lambda: array(BYTE))
    choices: array[int] = field(default_factory=lambda: array(COUNT))
    turn_start: array[int] = field(default_factory=lambda: array(BYTE))
    evals: array[float] = field(default_factory=lambda: array(REAL))
    pieces: list[list[int]] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    cells: int = 0
    covered: int = 0
    board_every: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    alternatives: array[float] = field(default_factory=lambda: array(REAL))
    repeats: array[int] = field(default_factory=lambda: array(BYTE))
    board_repeats: array[int] = field(default_factory=lambda: array(BYTE))
    distance: array[float] = field(default_factory=lambda: array(REAL))
    searched: array[float] = field(default_factory=lambda: array(REAL))
    searched_at: array[int] = field(default_factory=lambda: array(COUNT))
    state_space: float | None = None

    @property
    def decisions(self) -> int:
        """Number of decisions played."""
        return len(self.moves)

    @property
    def key(self) -> tuple[str, int]:
        """Series and index, as in the task."""
        return (self.series, self.index)

    def eval_rows(self) -> list[list[float]]:
        """The evaluations by decision: ``rows[d][s]``, seat ``s``'s before decision ``d``."""
        flat, width = self.evals.tolist(), len(self.players)
        return [flat[start : start + width] for start in range(0, len(flat), width)]

    def to_json(self) -> dict[str, object]:
        """Plain data for a JSON line of the run store (arrays as lists, the rest as it is)."""
        line = self._columns()
        if self.repeats:
            line |= {key: getattr(self, key).tolist() for key in DEEP}
            line["state_space"] = self.state_space
        return line

    def _columns(self) -> dict[str, object]:
        """The fields every trace has, as plain data."""
        return {
            "series": self.series,
            "index": self.index,
            "players": self.players,
            "seating": self.seating,
            "results": self.results,
            "termination": self.termination,
            "turns": self.turns,
            "scores": self.scores,
            "record": self.record,
            "seats": self.seats.tolist(),
            "choices": self.choices.tolist(),
            "turn_start": self.turn_start.tolist(),
            "evals": self.evals.tolist(),
            "pieces": self.pieces,
            "moves": self.moves,
            "cells": self.cells,
            "covered": self.covered,
            "board_every": self.board_every,
            "seconds": self.seconds,
            "cpu_seconds": self.cpu_seconds,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameTrace:
        """The trace of a JSON object made by :meth:`to_json` (fields it does not know, from a
        newer version, are left out; fields it lacks, from an older one, take their defaults;
        evaluations stored row by row, as older versions did, are laid end to end)."""
        values = {key: value for key, value in data.items() if key in _FIELDS}
        evals = values.get("evals")
        if evals and isinstance(evals[0], list):
            values["evals"] = [value for row in evals for value in row]
        for key, code in _ARRAYS.items():
            if key in values:
                values[key] = array(code, values[key])
        return cls(**values)


_FIELDS = frozenset(item.name for item in fields(GameTrace))
DEEP: dict[str, Literal["B", "I", "d"]] = {
    "alternatives": REAL,
    "repeats": BYTE,
    "board_repeats": BYTE,
    "distance": REAL,
    "searched": REAL,
    "searched_at": COUNT,
}
"""The per-decision columns of a deep trace, with their array type codes."""
_ARRAYS: dict[str, Literal["B", "I", "d"]] = {
    "seats": BYTE,
    "choices": COUNT,
    "turn_start": BYTE,
    "evals": REAL,
    **DEEP,
}


class _Rounded(dict[float, float]):
    """Evaluations rounded to ``EVAL_DIGITS`` decimals, kept as they are asked for: ``round``
    is slow (a correctly rounded decimal conversion, about a microsecond), and a game's
    evaluations repeat from game to game. Emptied when it grows past ``ROUNDED_KEPT``."""

    def __missing__(self, value: float) -> float:
        if len(self) >= ROUNDED_KEPT:
            self.clear()
        # + 0.0 makes -0.0 read 0.0: the two are one key here, so either would be kept for both.
        found = self[value] = round(value, EVAL_DIGITS) + 0.0
        return found


ROUNDED_KEPT = 1 << 16
_ROUNDED = _Rounded()


def board_snapshot(state: State) -> Occupancy | None:
    """The state's :meth:`~State.occupancy`: pieces per seat, cells holding a seat's piece, and
    every cell id (a board may grow or shrink); None for a game without a render model."""
    try:
        return state.occupancy()
    except NotImplementedError:
        return None


def play_traced(task: GameTask) -> GameTrace:
    """Play ``task`` to the end, tracing every decision.

    Deterministic: the same task gives the same trace (apart from ``seconds``) for bots with
    iteration or depth budgets; time-budgeted bots are not reproducible by nature. Records
    carry the date they were played, so their text differs from run to run. The game's times
    cover making the game and its bots, playing and tracing it, and freeing its objects.
    """
    start, cpu = time.perf_counter(), time.process_time()
    trace = _play(task)  # the game's objects are freed when it returns, within the times
    trace.seconds = round(time.perf_counter() - start, TIME_DIGITS)
    trace.cpu_seconds = round(time.process_time() - cpu, TIME_DIGITS)
    return trace


def _play(task: GameTask) -> GameTrace:
    """Play and trace ``task``; :func:`play_traced` times it."""
    game = make(task.game_id, **dict(task.options))
    rng = random.Random(task.seed)
    bots = []
    for spec in task.players:
        bot = make_bot(spec, game, rng.randrange(2**31))
        if bot is None:
            raise OptionError("self-play needs bots, not humans")
        bots.append(bot)
    record = Record(game, players=list(task.players)) if task.record else None
    trace = GameTrace(task.series, task.index, list(task.players), list(task.seating), [], "", 0)
    trace.board_every = task.board_every
    state = game.new_initial_state()
    # On the compiled engine the decisions are chosen first (from the start, or once presets
    # are over); the loop then replays them on the reference for what must read as the
    # reference writes it (compiled.py says why).
    source = Decisions(game, bots, evaluations=True)
    occupied: list[frozenset[str]] = []
    cells: set[str] = set()
    every = task.board_every
    # The loop runs once per decision: its columns are plain local lists, filled by bound
    # methods and turned into typed arrays once at the end (evaluations rounded there too).
    seats: list[int] = []
    choices: list[int] = []
    starts: list[int] = []
    evals: list[float] = []
    evaluate = True
    planned = None
    moves = trace.moves
    deep = DeepTrace(game) if task.deep else None
    decision = 0
    while not state.is_terminal():
        seat = state.current_player
        if every and decision % every == 0:
            snapshot = board_snapshot(state)
            if snapshot is not None:
                trace.pieces.append(list(snapshot.pieces))
                occupied.append(snapshot.occupied)
                cells |= snapshot.cells
        if planned is None and (planned := source.planned(state, decision)) is not None:
            choices += planned.choices
            if planned.evals is not None:
                evals += planned.evals
                evaluate = False
        seats.append(seat)
        starts.append(state.turn_start)
        if evaluate:
            evals += state.heuristics()
        if planned is None:
            choices.append(len(state.legal_actions()))
            bot = bots[seat]
            action = bot.choose(state.view_state(seat))
            if deep is not None and isinstance(bot, MctsBot):
                deep.search(decision, bot.root_children(), action)
        else:
            action = source.action(decision)
        moves.append(state.action_to_str(action))
        if record is not None:
            record.add(state, action)
        if deep is not None:
            deep.decision(state, action)
        state.apply_action(action)
        decision += 1
    source.check_end(decision)
    trace.seats = array(BYTE, seats)
    trace.choices = array(COUNT, choices)
    trace.turn_start = array(BYTE, starts)
    trace.evals = array(REAL, list(map(_ROUNDED.__getitem__, evals)))
    final = board_snapshot(state) if every else None
    if final is not None:
        trace.pieces.append(list(final.pieces))
        occupied.append(final.occupied)
        cells |= final.cells
        trace.cells = len(cells)
        trace.covered = covered_cells(occupied)
    if deep is not None:
        deep.fill(trace)
    outcome = state.outcome
    assert outcome is not None
    trace.results = [result.value for result in outcome.results]
    trace.termination = outcome.termination.value
    trace.scores = None if outcome.scores is None else list(outcome.scores)
    trace.turns = state.ply
    if record is not None:
        trace.record = record.to_text(state)
    return trace
