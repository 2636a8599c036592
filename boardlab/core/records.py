"""Game records: a readable text file that replays exactly (header, then one turn per line).

Example::

    # Boardlab game record
    Game: murus-gallicus
    Rules: 1
    Option board: 8x7
    Option repetition_draw: 3
    Option max_plies: 400
    Position: initial
    Player Romans: human
    Player Gauls: random
    Date: 2026-11-22T20:00:00+00:00
    Result: Romans=win Gauls=loss
    Termination: home_row

    1 Romans: d1-d3
    2 Gauls: a7-a5

Loading validates every move and names the line of a bad one; saving is atomic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from boardlab.core.errors import BoardlabError, RecordError, shown
from boardlab.core.files import write_atomic
from boardlab.core.game import Game
from boardlab.core.outcome import Outcome, Result, Termination
from boardlab.core.registry import game_class
from boardlab.core.state import State

MAGIC = "# Boardlab game record"
INITIAL = "initial"
RESIGN = "resign"
"""A turn line of a seat that resigned and left while the others played on."""
OFF_THE_BOARD = frozenset(
    t.value for t in (Termination.RESIGNATION, Termination.TIMEOUT, Termination.AGREEMENT)
)
"""Terminations the moves do not show: the Result header alone says how the game ended."""
ABORTED = "aborted"
"""The Termination of a game ended with no result (``Result: *``): a web match aborted by a
player before every side had made a decision."""


@dataclass
class Turn:
    """One turn: the seat that played it and its decisions in notation."""

    seat: int
    decisions: list[str]

    @property
    def text(self) -> str:
        """The turn string, decisions joined by ``+`` (rules README §8.3)."""
        return "+".join(self.decisions)


@dataclass
class Record:
    """A game in progress or finished: its game, start, players and turns.

    ``outcome`` follows the rules when the last state is over; it can also be set by an end
    the moves alone do not show (``resigned``: a resignation, a flag or an agreed draw).
    """

    game: Game
    start: str | None = None
    players: list[str] = field(default_factory=list)
    date: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    turns: list[Turn] = field(default_factory=list)
    resigned: Outcome | None = None
    aborted: bool = False
    """Ended with no result (:data:`ABORTED`); the outcome is then None."""

    def copy(self, turns: int | None = None) -> Record:
        """An independent copy, keeping only the first ``turns`` turns when given."""
        kept = self.turns if turns is None else self.turns[:turns]
        return Record(
            self.game,
            self.start,
            list(self.players),
            self.date,
            [Turn(turn.seat, list(turn.decisions)) for turn in kept],
            self.resigned,
            self.aborted,
        )

    def start_state(self) -> State:
        """The state the record starts from."""
        if self.start is None:
            return self.game.new_initial_state()
        return self.game.state_from_text(self.start)

    def add(self, before: State, action: int) -> None:
        """Note ``action``, about to be played in ``before`` (call before applying it)."""
        text = before.action_to_str(action)
        if before.turn_start or not self.turns:
            self.turns.append(Turn(before.current_player, [text]))
        else:
            self.turns[-1].decisions.append(text)

    def decisions(self) -> list[str]:
        """Every decision in order."""
        return [d for turn in self.turns for d in turn.decisions]

    def replay(self) -> State:
        """The final state, every decision checked (raises BoardlabError on a bad one)."""
        state = self.start_state()
        for turn in self.turns:
            state = apply_turn(state, turn)
        return state

    def outcome(self, final: State | None = None) -> Outcome | None:
        """The result: by the rules if the game is over, else a resignation, else None."""
        final = final or self.replay()
        return final.outcome or self.resigned

    def resign(self, seat: int, state: State | None = None) -> State | None:
        """``seat`` resigns in ``state`` (the record's final state, at the start of a turn).

        When the others play on without it (:meth:`State.after_resignation`), the resignation
        becomes a turn of the record and the new state is returned. Otherwise it ends the
        game, ``seat`` losing and every other seat winning, and None is returned.
        """
        after = None if state is None else state.after_resignation(seat)
        if after is not None:
            self.turns.append(Turn(seat, [RESIGN]))
            return after
        names = self.game.player_names
        results = tuple(Result.LOSS if i == seat else Result.WIN for i in range(len(names)))
        self.resigned = Outcome(results, Termination.RESIGNATION)
        return None

    def to_text(self, final: State | None = None) -> str:
        """The record as text."""
        names = self.game.player_names
        lines = [MAGIC, f"Game: {self.game.id}", f"Rules: {self.game.rules_version}"]
        lines += [f"Option {key}: {value}" for key, value in self.game.option_items()]
        lines.append(f"Position: {self.start or INITIAL}")
        for seat, name in enumerate(names):
            spec = self.players[seat] if seat < len(self.players) else "unknown"
            lines.append(f"Player {name}: {spec}")
        lines.append(f"Date: {self.date}")
        outcome = self.outcome(final)
        if outcome is None and self.aborted:
            lines += ["Result: *", f"Termination: {ABORTED}"]
        else:
            lines += _result_lines(names, outcome)
        lines.append("")
        lines += [f"{i} {names[t.seat]}: {t.text}" for i, t in enumerate(self.turns, 1)]
        return "\n".join(lines) + "\n"

    def save(self, path: str | Path, final: State | None = None) -> None:
        """Write the record atomically: a temporary file in the same folder, then a rename."""
        write_atomic(path, self.to_text(final))


def apply_turn(state: State, turn: Turn) -> State:
    """The state after ``turn``: its decisions played in place, or the seat's resignation."""
    if turn.decisions == [RESIGN]:
        after = state.after_resignation(turn.seat)
        if after is None:
            raise RecordError("this resignation would end the game: write it in the Result header")
        return after
    for decision in turn.decisions:
        state.apply_action(state.parse_action(decision))
    return state


def _result_lines(names: tuple[str, ...], outcome: Outcome | None) -> list[str]:
    """The Result and Termination header lines (and Score, for scored games)."""
    if outcome is None:
        return ["Result: *", "Termination: -"]
    pairs = zip(names, outcome.results, strict=True)
    lines = [
        "Result: " + " ".join(f"{n}={r.value}" for n, r in pairs),
        f"Termination: {outcome.termination.value}",
    ]
    if outcome.scores is not None:
        lines.append("Score: " + " ".join(str(s) for s in outcome.scores))
    return lines


def load_record(path: str | Path) -> tuple[Record, State]:
    """Read and validate a record file; returns it with its final state."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise RecordError(f"cannot read record {str(path)!r}: {error}") from error
    return parse_record(text, str(path))


def parse_record(text: str, source: str = "<record>") -> tuple[Record, State]:
    """Parse record text, replaying and checking every move; errors name the line.

    Each turn line is read with :meth:`State.parse_turn`, the parser terminal play uses, and
    the Result, Termination and Score headers must agree with what the moves reach.
    """
    lines = text.splitlines()
    if not lines or lines[0].strip() != MAGIC:
        raise RecordError(f"{source}:1: not a Boardlab record (first line must be {MAGIC!r})")
    header: dict[str, tuple[int, str]] = {}
    options: dict[str, str] = {}
    players: dict[str, str] = {}
    body = len(lines) + 1
    for number, line in enumerate(lines[1:], 2):
        if not line.strip():
            body = number
            break
        key, sep, value = line.partition(": ")
        if not sep:
            raise RecordError(f"{source}:{number}: header line must be 'Key: value'")
        if key.startswith("Option "):
            options[key.removeprefix("Option ")] = value
        elif key.startswith("Player "):
            players[key.removeprefix("Player ")] = value
        elif key in header:
            raise RecordError(f"{source}:{number}: a second {key!r} header")
        else:
            header[key] = (number, value)

    def where(key: str) -> str:
        return f"{source}:{header[key][0]}" if key in header else source

    try:
        cls = game_class(header.get("Game", (0, ""))[1])
        game = cls(**options)
    except BoardlabError as error:
        raise RecordError(f"{where('Game')}: bad header: {error}") from error
    rules = header.get("Rules", (0, game.rules_version))[1]
    if rules != game.rules_version:
        raise RecordError(
            f"{where('Rules')}: written for rules version {rules}, this is {game.rules_version}"
        )
    start = header.get("Position", (0, INITIAL))[1]
    record = Record(
        game,
        None if start == INITIAL else start,
        [players.get(name, "unknown") for name in game.player_names],
        header.get("Date", (0, ""))[1],
    )
    try:
        state = record.start_state()
    except BoardlabError as error:
        raise RecordError(f"{where('Position')}: bad start position: {error}") from error
    last = 0
    for number, line in enumerate(lines[body:], body + 1):
        if line.strip():
            if last and not state.turn_start and not state.is_terminal():
                raise RecordError(f"{source}:{last}: the turn on this line is incomplete")
            state = _replay_line(record, state, line, f"{source}:{number}")
            last = number
    _check_complete(body > len(lines), source)
    _check_result(record, state, header, source)
    return record, state


def _check_complete(cut: bool, source: str) -> None:
    """Refuse a record whose header no blank line ends: it was cut short in its header, and
    would otherwise replay as an empty game. (A hand-written header may leave lines out:
    missing players and date read as unknown, and the moves decide the result.)"""
    if cut:
        raise RecordError(
            f"{source}: the header is incomplete (record cut short?): "
            "it has no blank line before the moves"
        )


def _replay_line(record: Record, state: State, line: str, where: str) -> State:
    """Play one ``N Player: turn`` line on ``state``, note it in ``record``; the new state."""
    head, sep, moves = line.partition(": ")
    index, _, name = head.partition(" ")
    names = record.game.player_names
    if not sep or not index.isdigit() or name not in names:
        raise RecordError(f"{where}: expected 'N Player: move', got {shown(line)}")
    if len(index) > 9 or int(index) != len(record.turns) + 1:
        raise RecordError(f"{where}: turn number {index[:12]}, expected {len(record.turns) + 1}")
    if state.is_terminal():
        raise RecordError(f"{where}: the game was already over")
    if names[state.current_player] != name:
        raise RecordError(f"{where}: {name} is not to move; {names[state.current_player]} is")
    if moves == RESIGN:
        after = record.resign(state.current_player, state)
        if after is None:
            raise RecordError(f"{where}: a resignation here ends the game; it belongs in Result")
        return after
    try:
        actions = state.parse_turn(moves)
    except BoardlabError as error:
        raise RecordError(f"{where}: {error}") from error
    for action in actions:
        record.add(state, action)
        state.apply_action(action)
    return state


def _check_result(
    record: Record, state: State, header: dict[str, tuple[int, str]], source: str
) -> None:
    """The Result/Termination/Score headers against the moves; sets a resignation."""
    names = record.game.player_names
    if "Result" not in header:
        return
    number, written = header["Result"]
    claimed = header.get("Termination", (number, "-"))[1]
    if state.outcome is not None:
        expected = _result_lines(names, state.outcome)
        found = [
            f"{key}: {header[key][1]}"
            for key in ("Result", "Termination", "Score")
            if key in header
        ]
        wrong = [line for line in expected if line not in found]
        if wrong:
            raise RecordError(
                f"{source}:{number}: the header does not match the moves, which end with "
                f"{state.outcome.describe(names)}"
            )
        return
    if written == "*":
        record.aborted = claimed == ABORTED
        return
    if claimed not in OFF_THE_BOARD:
        raise RecordError(
            f"{source}:{number}: the header claims a finished game ({shown(written)}), "
            f"but the moves stop unfinished after turn {len(record.turns)}: record cut short?"
        )
    termination = Termination(claimed)
    try:
        pairs = dict(pair.split("=", 1) for pair in written.split())
        results = tuple(Result(pairs[name]) for name in names)
    except (KeyError, ValueError):
        raise RecordError(f"{source}:{number}: bad Result header {shown(written)}") from None
    # A draw is agreed by everyone; a resignation or a flag has a loser.
    agreed = termination is Termination.AGREEMENT
    fits = all(r is Result.DRAW for r in results) if agreed else Result.LOSS in results
    if sorted(pairs) != sorted(names) or not fits:
        raise RecordError(f"{source}:{number}: bad Result header {shown(written)}")
    record.resigned = Outcome(results, termination)
