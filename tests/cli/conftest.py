"""A tiny Nim registered as game ``nim``: a fixture for the generic command-line machinery.

Players take 1 or 2 stones per decision; whoever takes the last stone wins. Option ``steps``
makes a turn two decisions (a compound turn), ``players`` gives 2 or 3 seats. ``hidden-nim``
hides the pile from the players' views (hidden information).
"""

from __future__ import annotations

import re
import sys
import types
from collections.abc import Iterator

import pytest

from boardlab.core import registry
from boardlab.core.errors import PositionError
from boardlab.core.game import Game
from boardlab.core.options import OptionSpec
from boardlab.core.outcome import Outcome, Termination
from boardlab.core.state import State


class NimGame(Game):
    """Nim with one pile."""

    id = "nim"
    name = "Nim"
    OPTIONS = (
        OptionSpec("pile", "int", 5, "Stones at the start.", minimum=1, maximum=50),
        OptionSpec("players", "int", 2, "Number of seats.", minimum=2, maximum=3),
        OptionSpec("steps", "int", 1, "Decisions per turn.", minimum=1, maximum=2),
    )
    max_players = 3

    @property
    def player_names(self) -> tuple[str, ...]:
        count = self.options["players"]
        assert isinstance(count, int)
        return ("P1", "P2", "P3")[:count]

    @property
    def num_actions(self) -> int:
        return 2

    def new_initial_state(self) -> NimState:
        pile = self.options["pile"]
        assert isinstance(pile, int)
        return NimState(self, pile, 0, 0, 0)

    def state_from_text(self, text: str) -> NimState:
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

    def __init__(self, game: NimGame, pile: int, seat: int, step: int, ply: int) -> None:
        self.game = game
        self.pile, self.seat, self.step, self.ply = pile, seat, step, ply
        self._outcome = None
        if pile == 0:
            previous = (seat - 1) % game.num_players
            self._outcome = Outcome.win_for(previous, game.num_players, Termination.ALL_CAPTURED)
        self._start()

    @property
    def current_player(self) -> int:
        return self.seat

    @property
    def turn_start(self) -> bool:
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
        return str(action + 1)

    def position_text(self) -> str:
        return f"{self.pile} {self.seat} {self.step} {self.ply}"

    def render(self) -> str:
        return f"pile: {'o' * self.pile} ({self.pile})\n{self.game.player_names[self.seat]}"

    def heuristic(self, player: int) -> float:
        return 0.0


class HiddenNimState(NimState):
    """Nim where a player's view hides the pile size (hidden information)."""

    masked = False

    def view_state(self, player: int) -> HiddenNimState:
        view = self.clone()
        view.masked = True
        return view

    def view_text(self, player: int) -> str:
        return "? " + self.position_text().partition(" ")[2]

    def render(self) -> str:
        return "pile: ?" if self.masked else super().render()


class HiddenNimGame(NimGame):
    """The Nim fixture with a hidden pile."""

    id = "hidden-nim"
    has_hidden_information = True

    def new_initial_state(self) -> HiddenNimState:
        pile = self.options["pile"]
        assert isinstance(pile, int)
        return HiddenNimState(self, pile, 0, 0, 0)


@pytest.fixture(autouse=True)
def nim_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Register the Nim fixtures as games ``nim`` and ``hidden-nim`` for one test."""
    module = types.ModuleType("boardlab_test_nim")
    module.NimGame = NimGame  # type: ignore[attr-defined]
    module.HiddenNimGame = HiddenNimGame  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "boardlab_test_nim", module)
    monkeypatch.setitem(registry._GAMES, "nim", "boardlab_test_nim:NimGame")
    monkeypatch.setitem(registry._GAMES, "hidden-nim", "boardlab_test_nim:HiddenNimGame")
    yield
