"""The Colosseum Offcuts state: stacks on an unbounded grid, setup, two-action turns, the end."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, ClassVar, Self

from boardlab.core.outcome import Outcome, Result, Termination
from boardlab.core.render_model import ClickPath, RenderModel
from boardlab.core.state import State
from boardlab.games.colosseum_offcuts import notation, picture, rules
from boardlab.games.colosseum_offcuts.board import ATTACK, DIRECTIONS, FORT, Cell, Stacks
from boardlab.games.colosseum_offcuts.board import counter_text as _counter_text
from boardlab.games.colosseum_offcuts.evaluation import evaluate
from boardlab.games.colosseum_offcuts.render import render_state

if TYPE_CHECKING:
    from boardlab.games.colosseum_offcuts.game import ColosseumOffcuts


def setup_slot(placement: int, players: int) -> tuple[int, int]:
    """Setup step (1-5) and seat (0-based) of the ``placement``-th placement (0-based, §4)."""
    if placement == 0:
        return 1, 0
    if placement < players:
        return 2, placement
    return 3 + (placement - players) // players, (placement - players) % players


class ColosseumState(State):
    """One position: stacks, side to move, step, the two draw counters and the ply counter.

    ``setup`` is the setup step (1-5) of the next placement, or 0 in normal play, where
    ``first`` is the canonical string of the first action of the current turn once it is
    played (None at the start of a turn). During setup the ply counter equals the number of
    placements made.
    """

    NOTATION: ClassVar[re.Pattern[str]] = notation.NOTATION
    NOTATION_HELP: ClassVar[str] = notation.NOTATION_HELP
    MARKERS: ClassVar[re.Pattern[str]] = re.compile(r"x$")

    game: ColosseumOffcuts

    def __init__(
        self,
        game: ColosseumOffcuts,
        stacks: Stacks,
        side: int,
        setup: int,
        first: str | None,
        no_capture: int,
        forced_pass: int,
        ply: int,
    ) -> None:
        self.game = game
        self.stacks = stacks
        self.side = side
        self.setup = setup
        self.first = first
        self.first_capture = first is not None and first.endswith("x")
        self.no_capture = no_capture
        self.forced_pass = forced_pass
        self.ply = ply
        self.forts = self._count_forts()
        self._frame: rules.Frame | None = None
        self._legal: tuple[int, ...] | None = None
        self._outcome = None
        if setup == 0 and first is None:
            self._start_of_turn_checks()
        self._start()

    # -- helpers --------------------------------------------------------------------------

    def _count_forts(self) -> tuple[int, ...]:
        counts = [0] * self.game.players
        for stack in self.stacks.values():
            for counter in stack:
                if counter & FORT:
                    counts[counter >> 2] += 1
        return tuple(counts)

    def seats_in_game(self) -> list[int]:
        """Seats (0-based) that still hold a Fortification; during setup, every seat."""
        if self.setup:
            return list(range(self.game.players))
        return [seat for seat, count in enumerate(self.forts) if count]

    def frame(self) -> rules.Frame:
        """The stacks indexed in the action window (cached until the next action)."""
        if self._frame is None:
            self._frame = rules.make_frame(self.stacks, self.game.window)
        return self._frame

    def _cell(self, index: int) -> Cell:
        frame = self.frame()
        rx, ry = divmod(index, self.game.window.size)
        return rx + frame.ax, ry + frame.ay

    def _invalidate(self) -> None:
        self._frame = None
        self._legal = None

    def _start_of_turn_checks(self) -> None:
        """Steps 1-2 of rules README §6.2 at the start of a turn: the win, then passes (§8-9)."""
        seats = self.seats_in_game()
        if len(seats) == 1:
            self.side = seats[0]
            self._outcome = Outcome.win_for(
                seats[0], self.game.players, Termination.LAST_FORTIFICATIONS
            )
        elif self.forced_pass == len(seats) - 1 and self._legal_actions() == [
            rules.pass_action(self.game.window)
        ]:
            self._outcome = self._draw_outcome(Termination.FORCED_PASSES)

    # -- the protocol ---------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        return self.side

    @property
    def turn_start(self) -> bool:
        return self.setup != 0 or self.first is None

    def _repetition_point(self) -> bool:
        return self.setup == 0 and self.first is None

    def _repetition_key(self) -> tuple[object, ...]:
        # Fields 1-4 of the position text; at a repetition point the step is always "-".
        return (tuple(sorted(self.stacks.items())), self.side)

    def _progress_cap_reached(self) -> bool:
        rounds = self.game.no_capture_rounds
        return (
            rounds > 0
            and self._repetition_point()
            and self.no_capture >= rounds * len(self.seats_in_game())
        )

    def _draw_outcome(self, termination: Termination) -> Outcome:
        """The ranking of §9: ``shared`` or ``fortifications``; eliminated seats lose."""
        seats = self.seats_in_game()
        if self.game.draw_ranking == "fortifications":
            best = max(self.forts[seat] for seat in seats)
            seats = [seat for seat in seats if self.forts[seat] == best]
        top = Result.WIN if len(seats) == 1 else Result.DRAW
        results = tuple(top if seat in seats else Result.LOSS for seat in range(self.game.players))
        return Outcome(results, termination)

    def _copy_mutables(self, other: Self) -> None:
        other.stacks = dict(self.stacks)

    def _legal_actions(self) -> list[int]:
        if self._legal is None:
            window = self.game.window
            if self.setup:
                found = rules.placement_actions(self.frame(), window, self.side, self.setup)
            else:
                found = rules.play_actions(self.frame(), window, self.side, self.game.move_rules)
            self._legal = tuple(found)
        return list(self._legal)

    def action_to_str(self, action: int) -> str:
        window = self.game.window
        cells = window.cells
        if action == rules.pass_action(window):
            return "pass"
        if action < cells:
            return notation.placement_text(self.setup >= 4, self._cell(action))
        if action < 2 * cells:
            return notation.flip_text(self._cell(action - cells))
        if action < 6 * cells:
            origin, direction = divmod(action - 2 * cells, 4)
            return notation.attack_text(
                self._cell(origin),
                self._cell(window.steps[origin][direction]),
                self._captures(origin, window.steps[origin][direction]),
            )
        origin, dest = divmod(action - 6 * cells, cells)
        return notation.mobile_text(self._cell(origin), self._cell(dest))

    def _captures(self, origin: int, target: int) -> bool:
        """True when the top counter of ``origin`` is an F and ``target``'s top an enemy F."""
        stacks = self.frame().stacks
        mover = stacks[origin][-1]
        if not mover & FORT or target not in stacks:
            return False
        top = stacks[target][-1]
        return bool(top & FORT) and top >> 2 != mover >> 2

    def _apply(self, action: int) -> None:
        window = self.game.window
        cells = window.cells
        stacks = self.stacks
        if self.setup:
            fort = self.setup >= 4
            stacks[self._cell(action)] = ((self.side << 2) | (FORT if fort else 0),)
            if fort:
                self.forts = self._count_forts()
            self.ply += 1
            self._invalidate()
            if self.ply == 4 * self.game.players:
                self.setup, self.side = 0, 0
                self._start_of_turn_checks()
            else:
                self.setup, self.side = setup_slot(self.ply, self.game.players)
            return
        if action == rules.pass_action(window):
            whole = self.first is None
            self._end_turn(self.first_capture, whole)
            return
        text = self.action_to_str(action) if self.first is None else ""
        capture = False
        if action < 2 * cells:
            cell = self._cell(action - cells)
            stacks[cell] = (stacks[cell][0] ^ ATTACK,)
        elif action < 6 * cells:
            origin, direction = divmod(action - 2 * cells, 4)
            capture = self._captures(origin, window.steps[origin][direction])
            cell = self._cell(origin)
            dx, dy = DIRECTIONS[direction]
            target = (cell[0] + dx, cell[1] + dy)
            stack = stacks[cell]
            mover = stack[-1]
            if len(stack) == 1:
                del stacks[cell]
            else:
                stacks[cell] = stack[:-1]
            below = stacks.get(target, ())
            if capture:
                below = below[:-1]
            stacks[target] = (*below, mover)
            if capture:
                self.forts = self._count_forts()
        else:
            origin, dest = divmod(action - 6 * cells, cells)
            stacks[self._cell(dest)] = stacks.pop(self._cell(origin))
        self._invalidate()
        if self.first is None and sum(1 for count in self.forts if count) > 1:
            self.first = text
            self.first_capture = capture
            return
        self._end_turn(self.first_capture or capture, False)

    def _end_turn(self, capture: bool, whole_pass: bool) -> None:
        """Close the turn (§5, §7): counters, ply, next seat, then the start-of-turn checks."""
        self.ply += 1
        self.no_capture = 0 if capture else self.no_capture + 1
        self.forced_pass = self.forced_pass + 1 if whole_pass else 0
        self.first = None
        self.first_capture = False
        self._invalidate()
        seats = self.seats_in_game()
        if len(seats) > 1:
            players = self.game.players
            self.side = next(
                (self.side + k) % players
                for k in range(1, players + 1)
                if self.forts[(self.side + k) % players]
            )
        self._start_of_turn_checks()

    def position_text(self) -> str:
        step = f"s{self.setup}" if self.setup else (self.first or "-")
        return (
            f"{self.game.players} {self.cells_text()} {self.side + 1} {step} "
            f"{self.no_capture} {self.forced_pass} {self.ply}"
        )

    def cells_text(self) -> str:
        """Field 2 of the position text: the stacks sorted by x, then y."""
        if not self.stacks:
            return "-"
        return "/".join(
            f"{x},{y}={''.join(_counter_text(c) for c in stack)}"
            for (x, y), stack in sorted(self.stacks.items())
        )

    def render(self) -> str:
        return render_state(self)

    def _render_model(self) -> RenderModel:
        return picture.render_model(self)

    def click_path(self, action: int) -> ClickPath:
        return picture.click_path(self, action)

    def heuristic(self, player: int) -> float:
        return evaluate(self, player)

    def _explain_illegal(self, text: str) -> str | None:
        placement = text[:1] in ("B", "F")
        if self.setup:
            kind = "F" if self.setup >= 4 else "B"
            what = "a Fortification" if kind == "F" else "a Board Piece"
            if not placement:
                return f"during setup only placements are legal; step S{self.setup} places {what}"
            if text[0] != kind:
                return f"setup step S{self.setup} places {what}: write {kind}@x,y"
            return None
        if placement:
            return "the setup is over; placements are no longer legal"
        if text == "pass":
            return "pass is legal only when no other action is"
        return None
