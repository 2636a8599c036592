"""The Game: fixed rules, options and metadata of one game (the OpenSpiel Game/State split)."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, ClassVar

from boardlab.core.options import (
    MAX_PLIES,
    REPETITION_DRAW,
    SEED,
    OptionSpec,
    OptionValue,
    format_value,
    resolve_options,
)

if TYPE_CHECKING:
    from boardlab.core.state import State


class Game(ABC):
    """A game with its options resolved. Make one with :func:`boardlab.make`.

    Subclasses set the class attributes, implement the abstract members, and may precompute
    tables from the options in :meth:`_setup`.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str] = ""
    """One paragraph for people choosing a game (the lobby shows it)."""
    rules_version: ClassVar[str] = "1"
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = ()
    has_chance: ClassVar[bool] = False
    has_hidden_information: ClassVar[bool] = False
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2

    def __init__(self, **options: object) -> None:
        self.options: dict[str, OptionValue] = resolve_options(self.OPTIONS, options)
        if SEED in self.options and self.options[SEED] is None:
            self.options[SEED] = random.SystemRandom().randrange(2**31)
        self.repetition_draw: int = _int_option(self.options, REPETITION_DRAW)
        """The N of the repetition draw, 0 when off or absent from this game."""
        self.max_plies: int = _int_option(self.options, MAX_PLIES)
        """The ply cap, 0 when off or absent from this game."""
        self._setup()

    def _setup(self) -> None:  # noqa: B027 - optional hook
        """Precompute what the options determine (board tables, action space)."""

    @property
    @abstractmethod
    def player_names(self) -> tuple[str, ...]:
        """Seat names in seat order, e.g. ``("Romans", "Gauls")``."""

    @property
    def num_players(self) -> int:
        """Number of seats in this game."""
        return len(self.player_names)

    @property
    @abstractmethod
    def num_actions(self) -> int:
        """Size of the fixed action space; every action id lies in ``range(num_actions)``."""

    @abstractmethod
    def new_initial_state(self) -> State:
        """The state before the first decision, setup phase included."""

    @abstractmethod
    def state_from_text(self, text: str) -> State:
        """Parse a position text (raises PositionError); repetition counts start there."""

    @property
    def seed(self) -> int | None:
        """The seed in force for games with chance, else None."""
        value = self.options.get(SEED)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def option_items(self) -> list[tuple[str, str]]:
        """Every option in force (defaults included) as ``(key, text)``, in schema order."""
        return [(key, format_value(value)) for key, value in self.options.items()]

    def __repr__(self) -> str:
        args = "".join(f", {key}={value!r}" for key, value in self.options.items())
        return f"boardlab.make({self.id!r}{args})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.id == self.id and other.options == self.options

    def __hash__(self) -> int:
        return hash((self.id, tuple(self.options.items())))


def _int_option(options: dict[str, OptionValue], key: str) -> int:
    value = options.get(key, 0)
    return value if isinstance(value, int) else 0
