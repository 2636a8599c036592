"""Tiny games for testing bots through the protocol: tic-tac-toe and N-player compound Nim."""

from __future__ import annotations

import re

from boardlab.core.errors import PositionError
from boardlab.core.game import Game
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
    """One pile; a turn is ``steps`` decisions, each taking 1 or 2; taking the last one wins."""

    id = "nim"
    name = "Nim"

    def __init__(self, players: int = 2, stones: int = 10, steps: int = 2) -> None:
        self.players, self.stones, self.steps = players, stones, steps
        super().__init__()

    @property
    def player_names(self) -> tuple[str, ...]:
        """P1, P2, ..."""
        return tuple(f"P{i + 1}" for i in range(self.players))

    @property
    def num_actions(self) -> int:
        """Take one (0) or two (1)."""
        return 2

    def new_initial_state(self) -> NimState:
        """The full pile, seat 0 to move."""
        return NimState(self, self.stones, 0, 0)

    def state_from_text(self, text: str) -> NimState:
        """Parse ``STONES PLAYER STEP``."""
        try:
            stones, player, step = (int(x) for x in text.split())
        except ValueError:
            raise PositionError(f"bad position {text!r}") from None
        return NimState(self, stones, player, step)


class NimState(State):
    """A Nim position with a sub-step inside the compound turn."""

    NOTATION = re.compile(r"[12]")
    NOTATION_HELP = "1 or 2"
    game: Nim

    def __init__(self, game: Nim, stones: int, player: int, step: int) -> None:
        self.game = game
        self.stones, self.player, self.step = stones, player, step
        self.ply = 0
        self._outcome = None
        if stones == 0:  # the seat to move took the last stone
            self._outcome = Outcome.win_for(player, game.players, Termination.HOME_ROW)
        self._start()

    @property
    def current_player(self) -> int:
        """The seat to move."""
        return self.player

    @property
    def turn_start(self) -> bool:
        """True at the first decision of a turn."""
        return self.step == 0

    def _legal_actions(self) -> list[int]:
        return [0, 1] if self.stones >= 2 else [0]

    def _apply(self, action: int) -> None:
        self.stones -= action + 1
        if self.stones == 0:
            self._outcome = Outcome.win_for(self.player, self.game.players, Termination.HOME_ROW)
            return
        self.step += 1
        if self.step == self.game.steps:
            self.step = 0
            self.ply += 1
            self.player = (self.player + 1) % self.game.players

    def action_to_str(self, action: int) -> str:
        """How many stones are taken."""
        return str(action + 1)

    def position_text(self) -> str:
        """Stones, seat to move, sub-step."""
        return f"{self.stones} {self.player} {self.step}"

    def render(self) -> str:
        """The pile."""
        return "|" * self.stones

    def heuristic(self, player: int) -> float:
        """No opinion: Nim is solved by search, not by looks."""
        return 0.0
