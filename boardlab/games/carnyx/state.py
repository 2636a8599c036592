"""Carnyx rules: legal decisions (spec §4-6), their effects (§7) and the end of the game (§8-9)."""

from __future__ import annotations

import re
from collections.abc import Hashable
from typing import TYPE_CHECKING, ClassVar, Self

from boardlab.core.outcome import Outcome, Termination
from boardlab.core.render_model import ClickPath, RenderModel
from boardlab.core.state import State
from boardlab.games.carnyx import picture
from boardlab.games.carnyx.board import (
    CENTRE,
    COLOURS,
    DEPLOY_BASE,
    DIRECTIONS,
    EXIT_BASE,
    FORWARD,
    HOME,
    HUNKER,
    MOVE_BASE,
    MOVE_TARGET,
    NAMES,
    PASS,
    SETUP_BASE,
    SQUARES,
    STEP1,
    STEP2,
    exit_id,
    move_id,
)
from boardlab.games.carnyx.evaluation import evaluate
from boardlab.games.carnyx.explain import explain_illegal
from boardlab.games.carnyx.position import Fields, format_fields
from boardlab.games.carnyx.render import render_state

if TYPE_CHECKING:
    from boardlab.games.carnyx.game import Carnyx


class CarnyxState(State):
    """One Carnyx position: stacks, side to move, pools, hunker set, memory, marker, ply.

    ``board[s]`` is the stack on square ``s`` as colour letters bottom to top (``""`` when
    empty); ``pools`` is ``[unplaced, supply, reserve]`` for Dark then Light; ``hunker`` is a
    bitmask of seats (bit 0 Dark); ``memory`` maps each remembered *to* square to its *from*.
    """

    NOTATION: ClassVar[re.Pattern[str]] = re.compile(
        r"R?@[a-e][1-5]|[a-e][1-5][x-][a-e][1-5]|[a-e][1-5]-off(?:@[a-e][1-5])?|H|pass"
    )
    NOTATION_HELP: ClassVar[str] = (
        "write @c1 (setup), R@a1 (deploy), c2-c3 or c2xc3 (move or capture), "
        "c4-off or b5-off@b1 (exit), H (hunker down) or pass"
    )

    game: Carnyx
    board: list[str]
    side: int
    pools: list[int]
    hunker: int
    memory: dict[int, int]
    marker: str

    def __init__(self, game: Carnyx, fields: Fields) -> None:
        self.game = game
        self.board = fields.board
        self.side = fields.side
        self.pools = fields.pools
        self.hunker = fields.hunker
        self.memory = fields.memory
        self.marker = fields.marker
        self.ply = fields.ply
        self._outcome = None
        if not self.in_setup:
            self._check_end()
        self._start()

    # -- protocol ------------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        return self.side

    @property
    def in_setup(self) -> bool:
        """True while any player has unplaced pieces (spec §4)."""
        return bool(self.pools[0] or self.pools[3])

    def _legal_actions(self) -> list[int]:
        if self.in_setup:
            return [SETUP_BASE + s for s in HOME[self.side]]
        captures, others = self._candidates()
        if captures and not self.hunker >> self.side & 1:
            return [*captures, HUNKER]
        others.extend(captures)
        return others or [PASS]

    def _candidates(self) -> tuple[list[int], list[int]]:
        """Candidate captures and other candidates, with the §5 step-3 protection filter."""
        side = self.side
        own = COLOURS[side]
        other = COLOURS[1 - side]
        board = self.board
        memory = self.memory
        options = self.game
        protected = self.hunker >> (1 - side) & 1
        forward = FORWARD[side]
        home = HOME[side]
        captures: list[int] = []
        others: list[int] = []
        reentries: list[int | None] | None = None
        for x in range(SQUARES):
            stack = board[x]
            if not stack or stack[-1] != own:
                continue
            back = memory.get(x, -1)
            single = len(stack) == 1
            for d in DIRECTIONS[side]:
                if single:
                    y = STEP1[x][d]
                    distance = 1
                else:
                    middle = STEP1[x][d]
                    if middle >= 0:
                        jumped = board[middle]
                        if jumped and jumped[-1] == own and not options.jump_own:
                            continue
                    y = STEP2[x][d] if middle >= 0 else -1
                    distance = 2
                if y < 0:
                    if d != forward:
                        continue
                    if single and options.reentry:
                        if reentries is None:
                            reentries = [r for r in home if not board[r] or board[r][-1] == own]
                        others.extend(exit_id(x, r) for r in reentries or (None,))
                    else:
                        others.append(exit_id(x, None))
                    continue
                if y == back:
                    continue
                target = board[y]
                if not target:
                    others.append(move_id(x, d, distance))
                elif target[-1] == other:
                    if not protected:
                        captures.append(move_id(x, d, distance))
                elif options.allow_merge:
                    others.append(move_id(x, d, distance))
        if self.pools[3 * side + 2]:
            others.extend(DEPLOY_BASE + s for s in home if not board[s] or board[s][-1] == own)
        if not self.hunker >> side & 1:
            others.append(HUNKER)
        return captures, others

    def _apply(self, action: int) -> None:
        side = self.side
        own = COLOURS[side]
        board = self.board
        pools = self.pools
        if self.in_setup:
            board[action - SETUP_BASE] += own
            pools[3 * side] -= 1
            self.ply += 1
            self.side = 1 - side
            return
        memory = self.memory
        if memory and self.game.immediate:
            # §7.6 step 1: forget this player's previous move before playing the next one.
            for to in [to for to in memory if board[to][-1] == own]:
                del memory[to]
        reserve = 3 * side + 2
        marker = ""
        if action >= MOVE_BASE and action < EXIT_BASE:
            x = (action - MOVE_BASE) >> 3
            y = MOVE_TARGET[action - MOVE_BASE]
            target = board[y]
            if target and target[-1] != own:
                marker = "x"
            board[y] = target + board[x]
            board[x] = ""
            memory.pop(x, None)
            memory[y] = x
            if y == CENTRE and pools[reserve - 1]:
                pools[reserve - 1] -= 1
                pools[reserve] += 1
        elif action >= EXIT_BASE and action < HUNKER:
            self._exit(action, side)
        elif action == PASS:
            marker = "p"
        elif action != HUNKER:
            board[action - DEPLOY_BASE] += own
            pools[reserve] -= 1
        self.hunker = self.hunker | (1 << side) if action == HUNKER else self.hunker & ~(1 << side)
        self.marker = marker
        self.ply += 1
        self.side = 1 - side
        self._check_end()

    def _exit(self, action: int, side: int) -> None:
        """Effects of a piece or stack leaving the board (spec §7.5)."""
        board = self.board
        pools = self.pools
        reserve = 3 * side + 2
        x, slot = divmod(action - EXIT_BASE, 6)
        stack = board[x]
        board[x] = ""
        self.memory.pop(x, None)
        if len(stack) == 1:
            if slot:
                board[HOME[side][slot - 1]] += stack
            else:
                pools[reserve] += 1
            return
        mine = stack.count(COLOURS[side])
        pools[reserve] += mine
        removed = len(stack) - mine
        if self.game.token:
            pools[reserve] += removed
        else:
            converted = min(removed, pools[reserve - 1])
            pools[reserve - 1] -= converted
            pools[reserve] += converted

    def _check_end(self) -> None:
        """The game's own end checks at the start of a ply in normal play (spec §8, §9)."""
        side = self.side
        own = COLOURS[side]
        controls = any(stack and stack[-1] == own for stack in self.board)
        if not controls and self.marker == "x":  # §8.1: captured out, whatever the reserve
            self._outcome = Outcome.win_for(1 - side, 2, Termination.ALL_CAPTURED)
            return
        if not controls and not self.pools[3 * side + 2]:  # §8.2: nothing left to deploy
            self._outcome = Outcome.win_for(1 - side, 2, Termination.EXHAUSTION)
            return
        if self.marker == "p" and self._legal_actions() == [PASS]:
            self._outcome = Outcome.draw(2, Termination.FORCED_PASSES)

    def _copy_mutables(self, other: Self) -> None:
        other.board = self.board.copy()
        other.pools = self.pools.copy()
        other.memory = self.memory.copy()

    def _repetition_point(self) -> bool:
        return not self.in_setup

    def _repetition_key(self) -> Hashable:
        # Fields 1-6 of the position text (all but the ply), held as a tuple: the text is a
        # one-to-one writing of these values, and building it every ply is the slow part.
        return (
            "|".join(self.board),
            self.side,
            tuple(self.pools),
            self.hunker,
            tuple(sorted(self.memory.items())),
            self.marker,
        )

    def search_key(self) -> Hashable:
        """The repetition key (fields 1-6 of the position text) and the ply (field 7)."""
        return (self._repetition_key(), self.ply)

    # -- notation and text ---------------------------------------------------------------

    def action_to_str(self, action: int) -> str:
        if action == HUNKER:
            return "H"
        if action == PASS:
            return "pass"
        if action < DEPLOY_BASE:
            return "@" + NAMES[action - SETUP_BASE]
        if action < MOVE_BASE:
            return "R@" + NAMES[action - DEPLOY_BASE]
        if action < EXIT_BASE:
            x = (action - MOVE_BASE) >> 3
            y = MOVE_TARGET[action - MOVE_BASE]
            target = self.board[y]
            capture = bool(target) and target[-1] != COLOURS[self.side]
            return f"{NAMES[x]}{'x' if capture else '-'}{NAMES[y]}"
        x, slot = divmod(action - EXIT_BASE, 6)
        if slot:
            return f"{NAMES[x]}-off@{NAMES[HOME[self.side][slot - 1]]}"
        return f"{NAMES[x]}-off"

    def position_text(self) -> str:
        return format_fields(
            Fields(
                self.board, self.side, self.pools, self.hunker, self.memory, self.marker, self.ply
            )
        )

    def render(self) -> str:
        return render_state(self)

    def _render_model(self) -> RenderModel:
        return picture.render_model(self)

    def click_path(self, action: int) -> ClickPath:
        """Squares in click order, the reserve piece first for a deployment, or a button."""
        return picture.click_path(self, action)

    def heuristic(self, player: int) -> float:
        return evaluate(self, player)

    def _explain_illegal(self, text: str) -> str | None:
        return explain_illegal(self, text)
