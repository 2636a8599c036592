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

from boardlab.core.errors import BoardlabError, RecordError
from boardlab.core.files import write_atomic
from boardlab.core.game import Game
from boardlab.core.outcome import Outcome, Result, Termination
from boardlab.core.registry import game_class
from boardlab.core.state import State

MAGIC = "# Boardlab game record"
INITIAL = "initial"


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

    ``outcome`` follows the rules when the last state is over; it can also be set by a
    resignation, which the moves alone do not show.
    """

    game: Game
    start: str | None = None
    players: list[str] = field(default_factory=list)
    date: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    turns: list[Turn] = field(default_factory=list)
    resigned: Outcome | None = None

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
        for decision in self.decisions():
            state.apply_action(state.parse_action(decision))
        return state

    def outcome(self, final: State | None = None) -> Outcome | None:
        """The result: by the rules if the game is over, else a resignation, else None."""
        final = final or self.replay()
        return final.outcome or self.resigned

    def resign(self, seat: int) -> None:
        """``seat`` resigns: in a two-player game the other seat wins."""
        names = self.game.player_names
        results = tuple(Result.LOSS if i == seat else Result.WIN for i in range(len(names)))
        self.resigned = Outcome(results, Termination.RESIGNATION)

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
        if outcome is None:
            lines += ["Result: *", "Termination: -"]
        else:
            pairs = zip(names, outcome.results, strict=True)
            lines.append("Result: " + " ".join(f"{n}={r.value}" for n, r in pairs))
            lines.append(f"Termination: {outcome.termination.value}")
            if outcome.scores is not None:
                lines.append("Score: " + " ".join(str(s) for s in outcome.scores))
        lines.append("")
        lines += [f"{i} {names[t.seat]}: {t.text}" for i, t in enumerate(self.turns, 1)]
        return "\n".join(lines) + "\n"

    def save(self, path: str | Path, final: State | None = None) -> None:
        """Write the record atomically: a temporary file in the same folder, then a rename."""
        write_atomic(path, self.to_text(final))


def load_record(path: str | Path) -> tuple[Record, State]:
    """Read and validate a record file; returns it with its final state."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise RecordError(f"cannot read record {str(path)!r}: {error}") from error
    return parse_record(text, str(path))


def parse_record(text: str, source: str = "<record>") -> tuple[Record, State]:
    """Parse record text, replaying and checking every move; errors name the line."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != MAGIC:
        raise RecordError(f"{source}:1: not a Boardlab record (first line must be {MAGIC!r})")
    header: dict[str, str] = {}
    options: dict[str, str] = {}
    players: dict[str, str] = {}
    body = len(lines)
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
        else:
            header[key] = value
    try:
        cls = game_class(header.get("Game", ""))
        game = cls(**options)
    except BoardlabError as error:
        raise RecordError(f"{source}: bad header: {error}") from error
    if header.get("Rules", game.rules_version) != game.rules_version:
        raise RecordError(
            f"{source}: written for rules version {header['Rules']}, this is {game.rules_version}"
        )
    start = header.get("Position", INITIAL)
    record = Record(
        game,
        None if start == INITIAL else start,
        [players.get(name, "unknown") for name in game.player_names],
        header.get("Date", ""),
    )
    try:
        state = record.start_state()
    except BoardlabError as error:
        raise RecordError(f"{source}: bad start position: {error}") from error
    for number, line in enumerate(lines[body:], body + 1):
        if line.strip():
            state = _replay_line(record, state, line, f"{source}:{number}")
    _check_result(record, state, header, source)
    return record, state


def _replay_line(record: Record, state: State, line: str, where: str) -> State:
    head, sep, moves = line.partition(": ")
    index, _, name = head.partition(" ")
    names = record.game.player_names
    if not sep or not index.isdigit() or name not in names:
        raise RecordError(f"{where}: expected 'N Player: move', got {line!r}")
    if int(index) != len(record.turns) + 1:
        raise RecordError(f"{where}: turn number {index}, expected {len(record.turns) + 1}")
    if state.is_terminal():
        raise RecordError(f"{where}: the game was already over")
    if names[state.current_player] != name:
        raise RecordError(f"{where}: {name} is not to move; {names[state.current_player]} is")
    if not state.turn_start:
        raise RecordError(f"{where}: the previous turn is incomplete")
    for decision in moves.split("+"):
        try:
            action = state.parse_action(decision)
        except BoardlabError as error:
            raise RecordError(f"{where}: {error}") from error
        record.add(state, action)
        state.apply_action(action)
    return state


def _check_result(record: Record, state: State, header: dict[str, str], source: str) -> None:
    written = header.get("Result", "*")
    if state.outcome is not None:
        return
    if header.get("Termination") == Termination.RESIGNATION.value and written != "*":
        names = record.game.player_names
        try:
            pairs = dict(pair.split("=", 1) for pair in written.split())
            results = tuple(Result(pairs[name]) for name in names)
        except (KeyError, ValueError) as error:
            raise RecordError(f"{source}: bad Result header {written!r}") from error
        record.resigned = Outcome(results, Termination.RESIGNATION)
