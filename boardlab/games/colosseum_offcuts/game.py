"""The Colosseum Offcuts game: options, seats and the action space (spec §1, §12)."""

from __future__ import annotations

from typing import ClassVar

from boardlab.core.game import Game
from boardlab.core.options import OptionSpec, repetition_option
from boardlab.games.colosseum_offcuts import rules
from boardlab.games.colosseum_offcuts.board import window_for
from boardlab.games.colosseum_offcuts.position import parse_position
from boardlab.games.colosseum_offcuts.state import ColosseumState


class ColosseumOffcuts(Game):
    """Colosseum Offcuts for 2-5 players: stacks of counters on an unbounded square grid."""

    id: ClassVar[str] = "colosseum-offcuts"
    name: ClassVar[str] = "Colosseum Offcuts"
    summary: ClassVar[str] = (
        "Two to five players lay square counters edge to edge on an open grid, stack them, flip "
        "them between Mobile and Attack mode and capture each other's Fortifications, two "
        "actions a turn. The last player with a Fortification standing wins."
    )
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("players", "int", 2, "Number of seats.", minimum=2, maximum=5),
        OptionSpec(
            "connectivity_check",
            "enum",
            "lift",
            "lift: the rest must stay connected with the mover lifted; final: only the result.",
            choices=("lift", "final"),
        ),
        OptionSpec(
            "exposed_edges_measured",
            "enum",
            "lifted",
            "Measure a Mobile move's target with the mover lifted or before lifting.",
            choices=("lifted", "before"),
        ),
        OptionSpec(
            "mobile_move",
            "enum",
            "anywhere",
            "anywhere: next to any valid target; slide: start and end in the exterior.",
            choices=("anywhere", "slide"),
        ),
        OptionSpec(
            "no_capture_rounds",
            "int",
            50,
            "No-capture cap in rounds; 0 = off.",
            minimum=0,
        ),
        OptionSpec(
            "draw_ranking",
            "enum",
            "shared",
            "How a capped game is scored: shared or fortifications.",
            choices=("shared", "fortifications"),
        ),
        repetition_option(3),
    )

    def _setup(self) -> None:
        players = self.options["players"]
        rounds = self.options["no_capture_rounds"]
        assert isinstance(players, int) and isinstance(rounds, int)
        self.players = players
        self.no_capture_rounds = rounds
        self.draw_ranking = str(self.options["draw_ranking"])
        self.window = window_for(players)
        self.move_rules = rules.MoveRules(
            lift=self.options["connectivity_check"] == "lift",
            lifted=self.options["exposed_edges_measured"] == "lifted",
            slide=self.options["mobile_move"] == "slide",
        )

    @property
    def player_names(self) -> tuple[str, ...]:
        return tuple(f"P{seat}" for seat in range(1, self.players + 1))

    @property
    def num_actions(self) -> int:
        return rules.pass_action(self.window) + 1

    def new_initial_state(self) -> ColosseumState:
        return ColosseumState(self, {}, 0, 1, None, 0, 0, 0)

    def state_from_text(self, text: str) -> ColosseumState:
        return parse_position(self, text)
