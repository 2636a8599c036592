"""The Anacund State: one position, with placement, capture resolution and the final score."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Self

from boardlab.core.errors import NotationError
from boardlab.core.outcome import Outcome, Result, Termination
from boardlab.core.render_model import ClickPath, RenderModel
from boardlab.core.state import State
from boardlab.games.anacund import picture, rules
from boardlab.games.anacund.board import Layout
from boardlab.games.anacund.notation import (
    ACTION_STRINGS,
    NOTATION,
    NOTATION_HELP,
    decode,
    parse_decision,
)
from boardlab.games.anacund.position import SIDES, format_position

if TYPE_CHECKING:
    from boardlab.games.anacund.game import Anacund

Groups = tuple[tuple[int, ...], tuple[int, ...]]


class AnacundState(State):
    """A position: layout, square states, side to move, sub-step and both players' groups.

    ``last_action`` and ``last_captured`` remember the previous decision for the drawing only;
    they are not part of the position.
    """

    NOTATION: ClassVar = NOTATION
    NOTATION_HELP: ClassVar[str] = NOTATION_HELP

    game: Anacund
    layout: Layout
    squares: bytearray
    side: int
    sub: int
    groups: Groups
    last_action: int | None
    last_captured: tuple[int, ...]

    def __init__(
        self, game: Anacund, layout: Layout, squares: bytearray, side: int, sub: int, groups: Groups
    ) -> None:
        self.game = game
        self.layout = layout
        self.squares = squares
        self.side = side
        self.sub = sub
        self.groups = groups
        self.last_action = None
        self.last_captured = ()
        placed = 36 - sum(groups[0]) - sum(groups[1])
        self.ply = placed // 3
        self._outcome = self._final_outcome() if placed == 36 else None
        self._start()

    @property
    def current_player(self) -> int:
        """Seat 0 (A) or 1 (B)."""
        return self.side

    @property
    def turn_start(self) -> bool:
        """Only the first of a turn's three placements starts a turn (spec §5)."""
        return self.sub == 0

    def _legal_actions(self) -> list[int]:
        return rules.legal_actions(self.squares, self.layout, self.groups[self.side])

    def _apply(self, action: int) -> None:
        size, index = decode(action)
        side = self.side
        first, second, third = self.groups[side]
        # Shrinking the last group of this size keeps the sizes in descending order.
        if third == size:
            own = (first, second, third - 1)
        elif second == size:
            own = (first, second - 1, third)
        else:
            own = (first - 1, second, third)
        self.groups = (own, self.groups[1]) if side == 0 else (self.groups[0], own)
        nxt, prv = self.game.neighbours
        self.last_captured = tuple(rules.place(self.squares, index, side, nxt, prv))
        self.last_action = action
        if self.sub == 2:
            self.sub = 0
            self.side = 1 - side
            self.ply += 1
            if side == 1 and not any(own) and not any(self.groups[0]):
                self._outcome = self._final_outcome()
        else:
            self.sub += 1

    def scores(self) -> tuple[int, int]:
        """The running score of A and B (final once the game is over), spec §8."""
        return rules.scores(self.squares, self.layout.bonus, self.game.bonus_points)

    def _final_outcome(self) -> Outcome:
        """Higher score wins; equal scores draw, or go to B with ``tie=b`` (spec §8)."""
        a, b = self.scores()
        if a == b and self.game.tie == "b":
            winner: int | None = 1
        else:
            winner = 0 if a > b else 1 if b > a else None
        if winner is None:
            results = (Result.DRAW, Result.DRAW)
        else:
            results = (Result.WIN, Result.LOSS) if winner == 0 else (Result.LOSS, Result.WIN)
        return Outcome(results, Termination.PLACEMENTS_COMPLETE, scores=(a, b))

    def action_to_str(self, action: int) -> str:
        return ACTION_STRINGS[action]

    def position_text(self) -> str:
        return format_position(self.layout, self.squares, self.side, self.sub, self.groups)

    def render(self) -> str:
        from boardlab.games.anacund.render import render_state

        return render_state(self)

    def _render_model(self) -> RenderModel:
        return picture.render_model(self)

    def click_path(self, action: int) -> ClickPath:
        """The group of the placement's size, then the square (``6@19``: A6, 19)."""
        return picture.click_path(self, action)

    def heuristic(self, player: int) -> float:
        """Running score difference over the points at stake (spec §8), in [-1, 1]."""
        a, b = self.scores()
        diff = a - b if player == 0 else b - a
        return diff / (36 + self.game.bonus_points)

    def _copy_mutables(self, other: Self) -> None:
        other.squares = bytearray(self.squares)

    def _explain_illegal(self, text: str) -> str | None:
        try:
            size, index = parse_decision(text)
        except NotationError:
            return None
        name = SIDES[self.side]
        own = self.groups[self.side]
        if size not in own:
            sizes = " ".join(str(g) for g in own if g)
            return f"{name} has no group of {size}; its group sizes are {sizes}"
        code = self.squares[index]
        if code != rules.FREE:
            what = "blocked" if code in rules.BLOCKED else "occupied"
            return f"square {index + 1} is {what}; only free squares can be played"
        targets = " ".join(
            str(i + 1) for i in self.layout.by_value[size] if self.squares[i] == rules.FREE
        )
        return (
            f"a piece from a group of {size} must go on a free square of value {size} "
            f"({targets}); square {index + 1} has value {self.layout.value_of[index]}"
        )
