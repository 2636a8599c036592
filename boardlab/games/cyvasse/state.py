"""The Cyvasse state: deployment, movement, combat, cavalry turns and the end rules (spec §4-9).

Action ids: ``0..90`` place the next deployment item on that hex; ``MOVE_BASE + 91*from + to``
is a move, melee attack or shot from ``from`` to ``to`` (which one follows from the board);
``END`` stops a cavalry turn early (option) and ``PASS`` is the forced pass.
"""

from __future__ import annotations

import random
import re
from collections.abc import Hashable
from typing import TYPE_CHECKING, ClassVar

from boardlab.core.errors import BoardlabError
from boardlab.core.outcome import Outcome, Termination
from boardlab.core.render_model import ClickPath, RenderModel
from boardlab.core.state import State
from boardlab.games.cyvasse.board import (
    HEX_NAMES,
    NEIGHBOURS,
    NUM_HEXES,
    RANGE_TARGETS,
    RANK_OF,
    RAYS,
    ZONES,
    reflect,
)
from boardlab.games.cyvasse.units import (
    DRAGON,
    EMPTY,
    IS_CAVALRY,
    IS_RANGED,
    ITEM_LETTERS,
    KING,
    MOUNTAIN,
    MOUNTAIN_ITEM,
    MOVEMENT,
    RANGE,
    SECOND_JUMP,
    SIDE_BASE,
    VALUE,
    WINS,
    cell_kind,
    cell_side,
)

if TYPE_CHECKING:
    from boardlab.games.cyvasse.game import Cyvasse

MOVE_BASE = NUM_HEXES
END = MOVE_BASE + NUM_HEXES * NUM_HEXES
PASS = END + 1
NUM_ACTIONS = PASS + 1
SIDE_NAMES = ("South", "North")

Jump = tuple[int, int, bool]
"""The first jump of a cavalry turn in progress: (from, to, whether it removed a unit)."""


class CyvasseState(State):
    """One Cyvasse position (spec §3: board, side, step, pass flag, counters).

    ``veiled`` is -1 for a real state; a view state (:meth:`view_state`) sets it to the side
    whose deployment it hides: that side's zone is empty here, whatever was placed there.
    ``hidden_zones`` names every side whose zone the view may not see (a spectator's view
    hides both while North deploys), whether or not anything stands there yet.
    """

    NOTATION: ClassVar[re.Pattern[str]] = re.compile(
        r"[KDEHLSRBCTM]@[a-k](?:1[01]|[1-9])|[a-k](?:1[01]|[1-9])[-x*][a-k](?:1[01]|[1-9])"
        r"|end|pass"
    )
    NOTATION_HELP: ClassVar[str] = (
        "write a placement as U@hex (e.g. K@e2), a move as c3-c4, a melee attack as c3xc6, "
        "a shot as f6*g7, or end / pass"
    )

    game: Cyvasse

    def __init__(
        self,
        game: Cyvasse,
        board: bytearray,
        side: int,
        deploying: bool,
        placed: int,
        jump: Jump | None,
        passed: bool,
        no_capture: int,
        ply: int,
        veiled: int = -1,
    ) -> None:
        self.game = game
        self.board = board
        self.side = side
        self.deploying = deploying
        self.placed = placed
        self.jump = jump
        self.passed = passed
        self.no_capture = no_capture
        self.ply = ply
        self.veiled = veiled
        self.hidden_zones: tuple[int, ...] = (veiled,) if veiled >= 0 else ()
        self._outcome = None
        if not deploying:
            self._outcome = self._static_outcome()
        self._start()

    def _static_outcome(self) -> Outcome | None:
        """The game's own end found in a position itself: a missing King or a double pass."""
        for s in (0, 1):
            if SIDE_BASE[s] + KING not in self.board:
                return Outcome.win_for(1 - s, 2, Termination.KING_CAPTURED)
        if self.passed and self.jump is None and not self._turn_actions():
            return Outcome.draw(2, Termination.FORCED_PASSES)
        return None

    # -- protocol --------------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        """0 for South, 1 for North."""
        return self.side

    @property
    def turn_start(self) -> bool:
        """False inside a deployment (after its first placement) and inside a cavalry turn."""
        if self.deploying:
            return self.placed == 0
        return self.jump is None

    def _repetition_point(self) -> bool:
        return not self.deploying and self.jump is None

    def _repetition_key(self) -> Hashable:
        return (bytes(self.board), self.side, self.passed)

    def _progress_cap_reached(self) -> bool:
        cap = self.game.no_capture_plies
        return bool(cap) and not self.deploying and self.no_capture >= cap

    def _copy_mutables(self, other: CyvasseState) -> None:
        other.board = self.board[:]

    def _legal_actions(self) -> list[int]:
        if self.deploying:
            board = self.board
            return [h for h in ZONES[self.side] if board[h] == EMPTY]
        if self.jump is not None:
            actions = self._second_jumps()
            if self.game.optional_second:
                actions.append(END)
            return actions
        return self._turn_actions() or [PASS]

    def next_item(self) -> str:
        """The letter of the next item to deploy (only while deploying)."""
        return ITEM_LETTERS[self.game.order[self.placed]]

    def action_to_str(self, action: int) -> str:
        if action < MOVE_BASE:
            return f"{self.next_item()}@{HEX_NAMES[action]}"
        if action == END:
            return "end"
        if action == PASS:
            return "pass"
        frm, to = divmod(action - MOVE_BASE, NUM_HEXES)
        target = self.board[to]
        if target == EMPTY:
            mark = "-"
        elif IS_RANGED[cell_kind(self.board[frm])]:
            mark = "*"
        else:
            mark = "x"
        return f"{HEX_NAMES[frm]}{mark}{HEX_NAMES[to]}"

    def position_text(self) -> str:
        from boardlab.games.cyvasse.position import format_position

        return format_position(self)

    def view_text(self, player: int) -> str:
        """The spec §11 view: during a hidden deployment the opponent's zone is written empty."""
        return self.view_state(player).position_text()

    def presets_ahead(self) -> bool:
        """Presets are offered during the deployment only."""
        return self._outcome is None and self.deploying

    def presets(self) -> list[str]:
        """Lineups that fit the army, plus ``random``, before the side's first placement."""
        if self._outcome is not None or not self.deploying or self.placed:
            return []
        from boardlab.games.cyvasse import presets

        fitting = []
        for name, lineup in presets.load_presets().items():
            try:
                presets.lineup_decisions(self, lineup)
            except BoardlabError:
                continue
            fitting.append(name)
        return [*fitting, presets.RANDOM]

    def preset_actions(self, name: str, seed: int | None = None) -> list[int]:
        """The placements of a named lineup, or of a seeded random one for ``random``."""
        from boardlab.games.cyvasse import presets

        if name == presets.RANDOM:
            return presets.random_lineup(self, seed)
        return presets.preset_decisions(self, name)

    def save_preset(self, name: str, player: int) -> str:
        """Save ``player``'s deployed army as a lineup in the user preset file."""
        from boardlab.games.cyvasse import presets

        return str(presets.save_preset(name, presets.lineup_from_state(self, player)))

    def view_state(self, player: int) -> CyvasseState:
        """What ``player`` may see, as a state its bot can search from.

        During a hidden deployment the opponent's zone is emptied and ``veiled`` names the
        opponent. The view's legal decisions are the acting player's real ones (placements do
        not depend on the other zone). If a search completes the deployment from a view, the
        hidden army is assumed to be the point reflection of the visible one, so play can go
        on without the view ever holding hidden information. The spectator's view
        (``render_model.SPECTATOR``) hides both sides' deployments; it is for watching, not
        for searching.
        """
        view = self.clone()
        for zone in self._secret_zones(player):
            if zone in view.hidden_zones:
                continue
            view.hidden_zones = (*view.hidden_zones, zone)
            if any(self.board[h] for h in ZONES[zone]):
                for h in ZONES[zone]:
                    view.board[h] = EMPTY
                if view.veiled < 0:
                    view.veiled = zone
        return view

    def view_hidden_zones(self, player: int) -> tuple[int, ...]:
        """The ``hidden_zones`` of ``view_state(player)``, found without copying the state."""
        hidden = self.hidden_zones
        return (*hidden, *(zone for zone in self._secret_zones(player) if zone not in hidden))

    def _secret_zones(self, player: int) -> tuple[int, ...]:
        """The sides whose zone ``player`` may not see now (every side's for a spectator)."""
        if not (self.deploying and self.game.hidden_setup):
            return ()
        # South deploys first, so its zone is secret all through the deployment phase;
        # North's only once North deploys (until then it is known to be empty).
        started = (0,) if self.side == 0 else (0, 1)
        return tuple(zone for zone in started if zone != player)

    def render(self) -> str:
        from boardlab.games.cyvasse.render import render_state

        return render_state(self)

    def _render_model(self) -> RenderModel:
        from boardlab.games.cyvasse import picture

        return picture.render_model(self)

    def click_path(self, action: int) -> ClickPath:
        from boardlab.games.cyvasse import picture

        return picture.click_path(self, action)

    def heuristic(self, player: int) -> float:
        """Material balance (spec §3 units) in (-1, 1); 0 during deployment."""
        if self._outcome is not None:
            return self._outcome.rewards()[player]
        if self.deploying:
            return 0.0
        material = [0.0, 0.0]
        for cell in self.board:
            if cell > MOUNTAIN:
                material[cell_side(cell)] += VALUE[cell_kind(cell)]
        mine, theirs = material[player], material[1 - player]
        return (mine - theirs) / (mine + theirs + 1.0)

    def _explain_illegal(self, text: str) -> str | None:
        from boardlab.games.cyvasse.notation import explain_illegal

        return explain_illegal(self, text)

    # -- move generation ---------------------------------------------------------------------

    def _turn_actions(self) -> list[int]:
        """Every move, attack and shot of the side to move at the start of a turn."""
        out: list[int] = []
        board = self.board
        low = SIDE_BASE[self.side]
        for h in range(NUM_HEXES):
            cell = board[h]
            if low <= cell < low + 10:
                kind = cell - low
                if kind == DRAGON:
                    self._dragon(h, out)
                else:
                    self._steps(h, kind, MOVEMENT[kind], out)
                    if IS_RANGED[kind]:
                        self._shots(h, kind, out)
        return out

    def _second_jumps(self) -> list[int]:
        assert self.jump is not None
        at = self.jump[1]
        out: list[int] = []
        self._steps(at, cell_kind(self.board[at]), SECOND_JUMP, out)
        return out

    def _steps(self, h: int, kind: int, reach: int, out: list[int]) -> None:
        """Moves through empty hexes up to ``reach`` steps, plus melee attacks as a last step."""
        if not reach:
            return
        board = self.board
        base = MOVE_BASE + h * NUM_HEXES
        enemy = SIDE_BASE[1 - self.side]
        melee = not IS_RANGED[kind]
        suicide = self.game.suicide
        wins = WINS[kind]
        seen = {h}
        frontier = [h]
        for _ in range(reach):
            nxt: list[int] = []
            for x in frontier:
                for n in NEIGHBOURS[x]:
                    if n in seen:
                        continue
                    seen.add(n)
                    cell = board[n]
                    if cell == EMPTY:
                        out.append(base + n)
                        nxt.append(n)
                    elif melee and enemy <= cell < enemy + 10 and (suicide or wins[cell - enemy]):
                        out.append(base + n)
            frontier = nxt

    def _dragon(self, h: int, out: list[int]) -> None:
        """Spec §6.6: straight flights over everything but enemy range units (and Dragons)."""
        board = self.board
        base = MOVE_BASE + h * NUM_HEXES
        enemy = SIDE_BASE[1 - self.side]
        suicide = self.game.suicide
        blocked_by_dragon = self.game.dragon_block
        wins = WINS[DRAGON]
        for ray in RAYS[h]:
            for n in ray:
                cell = board[n]
                if cell == EMPTY:
                    out.append(base + n)
                elif enemy <= cell < enemy + 10:
                    kind = cell - enemy
                    if suicide or wins[kind]:
                        out.append(base + n)
                    if IS_RANGED[kind] or (kind == DRAGON and blocked_by_dragon):
                        break

    def _shots(self, h: int, kind: int, out: list[int]) -> None:
        """Spec §6.4: enemy units within range that the shooter may attack, in line of sight."""
        board = self.board
        base = MOVE_BASE + h * NUM_HEXES
        enemy = SIDE_BASE[1 - self.side]
        reach = RANGE[kind]
        wins = WINS[kind]
        for to, dist, plus, minus in RANGE_TARGETS[h]:
            if dist > reach:
                break
            cell = board[to]
            if not (enemy <= cell < enemy + 10 and wins[cell - enemy]):
                continue
            if any(board[x] == MOUNTAIN for x in plus) and any(board[x] == MOUNTAIN for x in minus):
                continue
            out.append(base + to)

    # -- playing decisions ---------------------------------------------------------------------

    def _apply(self, action: int) -> None:
        if self.deploying:
            self._deploy(action)
            return
        if action == PASS:
            self._end_turn(False)
            self.passed = True
            if not self._turn_actions():
                self._outcome = Outcome.draw(2, Termination.FORCED_PASSES)
            return
        if action == END:
            assert self.jump is not None
            self._end_turn(self.jump[2])
            return
        frm, to = divmod(action - MOVE_BASE, NUM_HEXES)
        board = self.board
        mover = board[frm]
        target = board[to]
        kind = cell_kind(mover)
        captured = target != EMPTY
        alive = True
        if not captured:
            board[to] = mover
            board[frm] = EMPTY
        elif IS_RANGED[kind]:
            board[to] = EMPTY
        elif WINS[kind][cell_kind(target)]:
            board[to] = mover
            board[frm] = EMPTY
        else:
            board[frm] = EMPTY  # losing_attacks=suicide: the attacker dies
            alive = False
        mover_side = self.side
        if captured and alive and cell_kind(target) == KING:
            self._end_turn(True)
            self._outcome = Outcome.win_for(mover_side, 2, Termination.KING_CAPTURED)
            return
        if self.jump is not None:
            self._end_turn(captured or self.jump[2])
            return
        if IS_CAVALRY[kind] and alive:
            self.jump = (frm, to, captured)
            if self._second_jumps():
                return
        self._end_turn(captured)

    def _end_turn(self, captured: bool) -> None:
        self.jump = None
        self.passed = False
        self.no_capture = 0 if captured else self.no_capture + 1
        self.ply += 1
        self.side ^= 1

    def _deploy(self, hex_index: int) -> None:
        order = self.game.order
        item = order[self.placed]
        self.board[hex_index] = MOUNTAIN if item == MOUNTAIN_ITEM else SIDE_BASE[self.side] + item
        self.placed += 1
        if self.placed < len(order):
            return
        self.placed = 0
        self.ply += 1
        if self.side == 0:
            self.side = 1
            return
        if self.veiled >= 0:
            self._assume_mirror_army()
        self.hidden_zones = ()
        self.deploying = False
        self.side = self._first_player()

    def _assume_mirror_army(self) -> None:
        """Fill a view's hidden zone with the point reflection of the visible army."""
        hidden = self.veiled
        board = self.board
        for h in ZONES[hidden]:
            board[h] = EMPTY
        for h in ZONES[1 - hidden]:
            cell = board[h]
            if cell == MOUNTAIN:
                board[reflect(h)] = MOUNTAIN
            elif cell != EMPTY:
                board[reflect(h)] = SIDE_BASE[hidden] + cell_kind(cell)
        self.veiled = -1

    def _first_player(self) -> int:
        """Spec §4.4: the King nearer rank 6 moves first; a tie follows option first_tie."""
        south = abs(RANK_OF[self.board.index(SIDE_BASE[0] + KING)] - 6)
        north = abs(RANK_OF[self.board.index(SIDE_BASE[1] + KING)] - 6)
        if south != north:
            return 0 if south < north else 1
        tie = self.game.first_tie
        if tie == "south":
            return 0
        if tie == "north":
            return 1
        return 0 if random.Random(self.game.seed).random() < 0.5 else 1
