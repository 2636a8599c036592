"""Tiny games for testing bots and the command line through the protocol.

``TicTacToe``; ``Nim`` (one pile, take 1 or 2 stones per decision, taking the last stone wins;
option ``steps`` makes a turn two decisions, a compound turn; ``players`` gives 2 or 3 seats);
``WideNim``, the same Nim for up to five seats (the most the bots serve); ``HiddenNim``, whose
views hide the pile (hidden information). :func:`register_toy_games` registers ``nim`` and
``hidden-nim`` for the command-line tests.
"""

from __future__ import annotations

import re

import pytest

from boardlab.core import registry
from boardlab.core.errors import PositionError
from boardlab.core.game import Game
from boardlab.core.options import OptionSpec
from boardlab.core.outcome import Outcome, Termination
from boardlab.core.state import State

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
MARKS = "xo"


class TicTacToe(Game):
    """Noughts and crosses; seat 0 plays ``x``."""

    id = "tictactoe"
    name = "Tic-tac-toe"

    @property
    def player_names(self) -> tuple[str, ...]:
        """Crosses and noughts."""
        return ("X", "O")

    @property
    def num_actions(self) -> int:
        """One action per cell."""
        return 9

    def new_initial_state(self) -> TicTacToeState:
        """The empty board, ``x`` to move."""
        return TicTacToeState(self, "." * 9, 0)

    def state_from_text(self, text: str) -> TicTacToeState:
        """Parse ``CELLS SIDE``, e.g. ``xx.oo.... x``."""
        match = re.fullmatch(r"([xo.]{9}) ([xo])", text)
        if not match:
            raise PositionError(f"bad position {text!r}")
        return TicTacToeState(self, match[1], MARKS.index(match[2]))


class TicTacToeState(State):
    """A tic-tac-toe position."""

    NOTATION = re.compile(r"[a-c][1-3]")
    NOTATION_HELP = "a cell such as b2"

    def __init__(self, game: Game, cells: str, player: int) -> None:
        self.game = game
        self.cells = list(cells)
        self.player = player
        self.ply = 9 - cells.count(".")
        self._outcome = None
        self._check_end(1 - player)
        self._start()

    @property
    def current_player(self) -> int:
        """The side to move."""
        return self.player

    def _legal_actions(self) -> list[int]:
        return [i for i, c in enumerate(self.cells) if c == "."]

    def _apply(self, action: int) -> None:
        self.cells[action] = MARKS[self.player]
        self.ply += 1
        mover = self.player
        self.player = 1 - self.player
        self._check_end(mover)

    def _check_end(self, mover: int) -> None:
        mark = MARKS[mover]
        if any(all(self.cells[i] == mark for i in line) for line in LINES):
            self._outcome = Outcome.win_for(mover, 2, Termination.HOME_ROW)
        elif "." not in self.cells:
            self._outcome = Outcome.draw(2, Termination.STALEMATE)

    def _copy_mutables(self, other: TicTacToeState) -> None:
        other.cells = list(self.cells)

    def action_to_str(self, action: int) -> str:
        """Column letter and row number."""
        return "abc"[action % 3] + str(action // 3 + 1)

    def position_text(self) -> str:
        """Cells row by row, then the side to move."""
        return "".join(self.cells) + " " + MARKS[self.player]

    def render(self) -> str:
        """Three rows of cells."""
        return "\n".join("".join(self.cells[r * 3 : r * 3 + 3]) for r in range(3))

    def heuristic(self, player: int) -> float:
        """Lines still open for ``player`` minus those open for the opponent, over 8."""
        mine, theirs = MARKS[player], MARKS[1 - player]
        score = 0
        for line in LINES:
            marks = {self.cells[i] for i in line}
            score += (theirs not in marks) - (mine not in marks)
        return score / 8


class Nim(Game):
    """Nim with one pile."""

    id = "nim"
    name = "Nim"
    OPTIONS = (
        OptionSpec("pile", "int", 5, "Stones at the start.", minimum=1, maximum=1000),
        OptionSpec("players", "int", 2, "Number of seats.", minimum=2, maximum=3),
        OptionSpec("steps", "int", 1, "Decisions per turn.", minimum=1, maximum=2),
    )
    max_players = 3

    @property
    def player_names(self) -> tuple[str, ...]:
        """P1, P2, ..."""
        count = self.options["players"]
        assert isinstance(count, int)
        return tuple(f"P{seat + 1}" for seat in range(count))

    @property
    def num_actions(self) -> int:
        """Take one (0) or two (1)."""
        return 2

    def new_initial_state(self) -> NimState:
        """The full pile, seat 0 to move."""
        pile = self.options["pile"]
        assert isinstance(pile, int)
        return NimState(self, pile, 0, 0, 0)

    def state_from_text(self, text: str) -> NimState:
        """Parse ``PILE SEAT STEP PLY``, e.g. ``5 0 0 0``."""
        fields = text.split(" ")
        if len(fields) != 4 or not all(f.isdigit() for f in fields):
            raise PositionError(f"bad position {text!r}: write PILE SEAT STEP PLY")
        pile, seat, step, ply = map(int, fields)
        if seat >= self.num_players:
            raise PositionError(f"bad position {text!r}: no seat {seat}")
        return NimState(self, pile, seat, step, ply)


class NimState(State):
    """A Nim position: pile size, seat to move, decision within the turn, turns played."""

    NOTATION = re.compile(r"[0-9]+")
    NOTATION_HELP = "the number of stones to take, 1 or 2"

    def __init__(self, game: Nim, pile: int, seat: int, step: int, ply: int) -> None:
        self.game = game
        self.pile, self.seat, self.step, self.ply = pile, seat, step, ply
        self._outcome = None
        if pile == 0:  # the seat before the one to move took the last stone
            previous = (seat - 1) % game.num_players
            self._outcome = Outcome.win_for(previous, game.num_players, Termination.ALL_CAPTURED)
        self._start()

    @property
    def current_player(self) -> int:
        """The seat to move."""
        return self.seat

    @property
    def turn_start(self) -> bool:
        """True at the first decision of a turn."""
        return self.step == 0

    def _legal_actions(self) -> list[int]:
        return [a for a in (0, 1) if a < self.pile]

    def _apply(self, action: int) -> None:
        self.pile -= action + 1
        players = self.game.num_players
        if self.pile == 0:
            self._outcome = Outcome.win_for(self.seat, players, Termination.ALL_CAPTURED)
        self.step += 1
        if self.pile == 0 or self.step == self.game.options["steps"]:
            self.step = 0
            self.seat = (self.seat + 1) % players
            self.ply += 1

    def action_to_str(self, action: int) -> str:
        """How many stones are taken."""
        return str(action + 1)

    def position_text(self) -> str:
        """Pile, seat to move, decision within the turn, turns played."""
        return f"{self.pile} {self.seat} {self.step} {self.ply}"

    def render(self) -> str:
        """The pile and the seat to move."""
        return f"pile: {'o' * self.pile} ({self.pile})\n{self.game.player_names[self.seat]}"

    def heuristic(self, player: int) -> float:
        """No opinion: Nim is solved by search, not by looks."""
        return 0.0


class WideNim(Nim):
    """The same Nim for two to five seats, for multi-player bot tests."""

    id = "wide-nim"
    OPTIONS = (
        Nim.OPTIONS[0],
        OptionSpec("players", "int", 2, "Number of seats.", minimum=2, maximum=5),
        Nim.OPTIONS[2],
    )
    max_players = 5


class HiddenNimState(NimState):
    """Nim where a player's view hides the pile size (hidden information)."""

    masked = False

    def view_state(self, player: int) -> HiddenNimState:
        """A copy that renders without the pile."""
        view = self.clone()
        view.masked = True
        return view

    def view_text(self, player: int) -> str:
        """The position text with the pile replaced by ``?``."""
        return "? " + self.position_text().partition(" ")[2]

    def render(self) -> str:
        """The pile, unless this is a player's view."""
        return "pile: ?" if self.masked else super().render()


class HiddenNim(Nim):
    """The Nim fixture with a hidden pile."""

    id = "hidden-nim"
    has_hidden_information = True

    def new_initial_state(self) -> HiddenNimState:
        """The full (hidden) pile, seat 0 to move."""
        pile = self.options["pile"]
        assert isinstance(pile, int)
        return HiddenNimState(self, pile, 0, 0, 0)


def register_toy_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register ``Nim`` as game ``nim`` and ``HiddenNim`` as ``hidden-nim`` (undone after)."""
    monkeypatch.setitem(registry._GAMES, "nim", f"{__name__}:Nim")
    monkeypatch.setitem(registry._GAMES, "hidden-nim", f"{__name__}:HiddenNim")
