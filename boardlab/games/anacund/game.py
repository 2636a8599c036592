"""The Anacund Game: options, layout and action space (spec §12)."""

from __future__ import annotations

from typing import ClassVar

from boardlab.core.game import Game
from boardlab.core.options import OptionSpec, seed_option
from boardlab.games.anacund.board import (
    LAYOUT_HELP,
    OPEN_NEIGHBOURS,
    RING_NEIGHBOURS,
    SQUARES,
    Layout,
    check_layout_option,
    layout_from_option,
)
from boardlab.games.anacund.notation import NUM_ACTIONS
from boardlab.games.anacund.position import parse_position
from boardlab.games.anacund.state import AnacundState


class Anacund(Game):
    """Anacund by Claude Leroy: place pieces on a ring of valued squares, flank and capture."""

    id: ClassVar[str] = "anacund"
    name: ClassVar[str] = "Anacund"
    summary: ClassVar[str] = (
        "Two players place pieces on a closed track of 36 squares valued 1 to 6, three "
        "placements a turn, each from one of three shrinking groups: a group of size k must go "
        "on a free square of value k while one is left. Flanking an enemy run captures it and "
        "blocks its squares. After 36 placements the higher score wins."
    )
    has_chance: ClassVar[bool] = True
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "layout",
            "str",
            "random",
            f"Square values and bonus: {LAYOUT_HELP}.",
            check=check_layout_option,
        ),
        seed_option("Seed for layout=random (drawn and recorded when not given)."),
        OptionSpec(
            "track",
            "enum",
            "ring",
            "ring: squares 36 and 1 are neighbours; open: they are not.",
            choices=("ring", "open"),
        ),
        OptionSpec(
            "bonus_points",
            "int",
            5,
            "Extra points for the piece on or beside the bonus square.",
            minimum=0,
        ),
        OptionSpec(
            "tie",
            "enum",
            "draw",
            "draw: equal scores draw; b: equal scores go to B.",
            choices=("draw", "b"),
        ),
    )

    layout: Layout
    neighbours: tuple[tuple[int, ...], tuple[int, ...]]
    bonus_points: int
    tie: str

    def _setup(self) -> None:
        layout, seed = self.options["layout"], self.options["seed"]
        bonus_points, track, tie = (self.options[k] for k in ("bonus_points", "track", "tie"))
        assert isinstance(layout, str) and isinstance(seed, int)
        assert isinstance(bonus_points, int) and isinstance(tie, str)
        self.layout = layout_from_option(layout, seed)
        self.neighbours = RING_NEIGHBOURS if track == "ring" else OPEN_NEIGHBOURS
        self.bonus_points = bonus_points
        self.tie = tie

    @property
    def player_names(self) -> tuple[str, ...]:
        """A (Dark) places first, B (Light) last (spec §13, A15)."""
        return ("A", "B")

    @property
    def num_actions(self) -> int:
        """6 group sizes x 36 squares."""
        return NUM_ACTIONS

    def new_initial_state(self) -> AnacundState:
        """Empty ring with this game's layout, groups 666/666, A to place (spec §4)."""
        return AnacundState(self, self.layout, bytearray(SQUARES), 0, 0, ((6, 6, 6), (6, 6, 6)))

    def state_from_text(self, text: str) -> AnacundState:
        """Parse a position text (spec §11); its layout fields override the option."""
        pos = parse_position(text)
        return AnacundState(self, pos.layout, pos.squares, pos.side, pos.sub, pos.groups)
