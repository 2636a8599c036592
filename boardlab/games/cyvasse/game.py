"""The Cyvasse game: options (spec §12), action space and constructors."""

from __future__ import annotations

from typing import ClassVar

from boardlab.core.game import Game
from boardlab.core.options import (
    OptionSpec,
    max_plies_option,
    repetition_option,
    seed_option,
)
from boardlab.games.cyvasse.board import NUM_HEXES
from boardlab.games.cyvasse.position import parse_position
from boardlab.games.cyvasse.state import NUM_ACTIONS, SIDE_NAMES, CyvasseState
from boardlab.games.cyvasse.units import DEFAULT_ARMY, check_army, deployment_order, parse_army


class Cyvasse(Game):
    """Cyvasse on the 91-hex board, McRitchie's 2015 rules (``rules/cyvasse.md``)."""

    id: ClassVar[str] = "cyvasse"
    name: ClassVar[str] = "Cyvasse"
    summary: ClassVar[str] = (
        "South and North each deploy an army of ten unit kinds and two mountains behind a "
        "screen on a 91-hex board, then reveal and fight: units move, attack in melee or shoot "
        "by rank and range, and cavalry may jump twice. Capture the enemy King to win."
    )
    has_chance: ClassVar[bool] = True
    has_hidden_information: ClassVar[bool] = True
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "army",
            "str",
            DEFAULT_ARMY,
            "Item counts in deployment order (letter + count, K1, at most 40 items).",
            check=check_army,
        ),
        OptionSpec(
            "cavalry_second_optional",
            "bool",
            False,
            "A cavalry unit may 'end' its turn instead of making an available second jump.",
        ),
        OptionSpec(
            "losing_attacks",
            "enum",
            "illegal",
            "illegal, or suicide: losing melee attacks are allowed and remove the attacker.",
            choices=("illegal", "suicide"),
        ),
        OptionSpec(
            "dragon_blocked_by_dragon",
            "bool",
            False,
            "An enemy Dragon ends a Dragon's flight (as in the reference code).",
        ),
        OptionSpec(
            "first_tie",
            "enum",
            "random",
            "Who moves first when both Kings are equally far from rank 6.",
            choices=("random", "south", "north"),
        ),
        seed_option("Seed of the coin toss for first_tie=random (drawn when not given)."),
        OptionSpec(
            "hidden_setup",
            "bool",
            True,
            "Hide each side's deployment from the other until both have deployed.",
        ),
        OptionSpec(
            "no_capture_plies",
            "int",
            100,
            "Draw when this many plies pass without a unit removed; 0 = off.",
            minimum=0,
        ),
        max_plies_option(500),
        repetition_option(3),
    )

    def _setup(self) -> None:
        options = self.options
        army = options["army"]
        assert isinstance(army, str)
        self.counts: tuple[int, ...] = parse_army(army)
        self.order: tuple[int, ...] = deployment_order(self.counts)
        self.optional_second = options["cavalry_second_optional"] is True
        self.suicide = options["losing_attacks"] == "suicide"
        self.dragon_block = options["dragon_blocked_by_dragon"] is True
        self.first_tie = str(options["first_tie"])
        self.hidden_setup = options["hidden_setup"] is True
        cap = options["no_capture_plies"]
        self.no_capture_plies = cap if isinstance(cap, int) else 0

    @property
    def player_names(self) -> tuple[str, ...]:
        """South (seat 0, deploys first) and North."""
        return SIDE_NAMES

    @property
    def num_actions(self) -> int:
        """91 placements + 91*91 from-to decisions + end + pass."""
        return NUM_ACTIONS

    def new_initial_state(self) -> CyvasseState:
        """The empty board, South to deploy: ``6/7/8/9/10/11/10/9/8/7/6 S d - 0 0``."""
        return CyvasseState(self, bytearray(NUM_HEXES), 0, True, 0, None, False, 0, 0)

    def state_from_text(self, text: str) -> CyvasseState:
        """Parse a full position text strictly (raises PositionError)."""
        return parse_position(self, text)

    def view_from_text(self, text: str) -> CyvasseState:
        """Parse a view text (spec §11 Views) into a view state a bot can search from."""
        return parse_position(self, text, view=True)
