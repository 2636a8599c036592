"""The Carnyx game: options (spec §12), metadata and the ways to make a state."""

from __future__ import annotations

from typing import ClassVar

from boardlab.core.game import Game
from boardlab.core.options import OptionSpec, max_plies_option, repetition_option
from boardlab.games.carnyx.board import NUM_ACTIONS
from boardlab.games.carnyx.position import INITIAL_TEXT, parse_fields
from boardlab.games.carnyx.state import CarnyxState


class Carnyx(Game):
    """Carnyx by Gary Pettie (v1.2.170831): capture by stacking on a 5x5 board.

    >>> import boardlab
    >>> boardlab.make("carnyx").new_initial_state().legal_moves()
    ['@a1', '@b1', '@c1', '@d1', '@e1']
    """

    id: ClassVar[str] = "carnyx"
    name: ClassVar[str] = "Carnyx"
    summary: ClassVar[str] = (
        "Dark and Light place stacks of disks on a 5x5 board, then move them forward and "
        "sideways: a stack moves one or two squares by its height, captures by landing on an "
        "enemy stack, may hunker down, and leaves over the far edge to re-enter with converted "
        "pieces. Whoever is left controlling no stack on the board loses."
    )
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "allow_merge",
            "bool",
            True,
            "A move may end on a square its own side controls, stacking on top.",
        ),
        OptionSpec("jump_own", "bool", False, "A stack may also jump a square its side controls."),
        OptionSpec(
            "no_return",
            "enum",
            "immediate",
            "immediate: no going back to the square left on the previous ply; "
            "strict: never to the square most recently left.",
            choices=("immediate", "strict"),
        ),
        OptionSpec(
            "conversion",
            "enum",
            "supply",
            "Per opponent piece in an exiting stack: supply moves a supply piece to reserve; "
            "token adds a reserve piece.",
            choices=("supply", "token"),
        ),
        OptionSpec(
            "single_exit",
            "enum",
            "immediate",
            "immediate: an exiting single re-enters at once on its home rank; "
            "reserve: it goes to reserve.",
            choices=("immediate", "reserve"),
        ),
        repetition_option(3),
        max_plies_option(300),
    )

    allow_merge: bool
    jump_own: bool
    immediate: bool
    """True under ``no_return=immediate``."""
    token: bool
    """True under ``conversion=token``."""
    reentry: bool
    """True under ``single_exit=immediate``."""

    def _setup(self) -> None:
        options = self.options
        self.allow_merge = options["allow_merge"] is True
        self.jump_own = options["jump_own"] is True
        self.immediate = options["no_return"] == "immediate"
        self.token = options["conversion"] == "token"
        self.reentry = options["single_exit"] == "immediate"

    @property
    def player_names(self) -> tuple[str, ...]:
        return ("Dark", "Light")

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    def new_initial_state(self) -> CarnyxState:
        return self.state_from_text(INITIAL_TEXT)

    def state_from_text(self, text: str) -> CarnyxState:
        return CarnyxState(self, parse_fields(text, self.immediate, self.token))
