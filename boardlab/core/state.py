"""The State: one position of a game, with the shared end-of-game checks implemented once.

A state is mutable: :meth:`State.apply_action` plays one decision in place, and
:meth:`State.clone` gives an independent copy cheaply. Decisions are integer action ids; their
human notation comes from :meth:`State.action_to_str` and :meth:`State.parse_action`.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar, Self

from boardlab.core.errors import IllegalMoveError, NotationError, shown
from boardlab.core.outcome import Outcome, Termination
from boardlab.core.render_model import ClickPath, Occupancy, RenderModel

if TYPE_CHECKING:
    from boardlab.core.game import Game


class State(ABC):
    """One position. Subclasses hold the game's fields and implement the abstract members.

    Contract for subclasses:

    * after setting their own fields, constructors call :meth:`_start`, which records the
      position for repetition and applies the shared end checks to it;
    * :meth:`_apply` plays a legal action, updates ``ply`` (turns completed), and sets
      ``_outcome`` for the game's own end conditions and its no-legal-action draw (rules README
      §6.2 steps 1-2); the base class then checks repetition, the no-progress cap and the ply
      cap, in that order, at the start of each turn;
    * :meth:`_legal_actions` is only called while the game is not over.
    """

    NOTATION: ClassVar[re.Pattern[str]]
    """Full-match pattern of a well-formed decision string."""
    NOTATION_HELP: ClassVar[str]
    """How a decision is written, for error messages."""
    MARKERS: ClassVar[re.Pattern[str]] = re.compile(r"[x*-]")
    """Characters ignored when suggesting the canonical form of a mis-marked decision."""
    NEGATED_HEURISTIC: ClassVar[bool] = False
    """True for a two-seat game whose seat 1 :meth:`heuristic` is seat 0's negated (an
    antisymmetric score, an odd squashing): :meth:`heuristics` evaluates once, and the lab's
    compiled path traces the compiled evaluation the same way, bit for bit."""

    game: Game
    ply: int
    _outcome: Outcome | None
    _seen: dict[Hashable, int]
    _seen_owned: bool

    # -- what each game implements -------------------------------------------------------

    @property
    @abstractmethod
    def current_player(self) -> int:
        """Seat of the side to move (meaningless once the game is over)."""

    @abstractmethod
    def _legal_actions(self) -> list[int]:
        """Legal action ids of a state that is not over."""

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Play a legal action in place (see the class contract)."""

    @abstractmethod
    def action_to_str(self, action: int) -> str:
        """Canonical notation of a legal action in this position."""

    @abstractmethod
    def position_text(self) -> str:
        """The one-line position text of the game's spec."""

    @abstractmethod
    def render(self) -> str:
        """A multi-line terminal drawing: board with coordinates, side to move, game info."""

    @abstractmethod
    def heuristic(self, player: int) -> float:
        """Evaluation from ``player``'s point of view in [-1, 1], for bots."""

    def search_key(self) -> Hashable:
        """A key equal exactly for equal position texts, for a search's table; by default the
        text itself (games whose fields are cheaper to compare than to write override it)."""
        return self.position_text()

    def _repetition_key(self) -> Hashable:
        """What repetition compares; by default the position text (games drop counters)."""
        return self.position_text()

    @property
    def turn_start(self) -> bool:
        """True when the next decision is the first of a turn (not inside a compound turn)."""
        return True

    def _repetition_point(self) -> bool:
        """Asked only at the start of a turn: False during a setup phase (no repetition)."""
        return True

    def _progress_cap_reached(self) -> bool:
        """True when the game's no-progress cap ends the game now."""
        return False

    def _draw_outcome(self, termination: Termination) -> Outcome:
        """The outcome when a draw rule ends the game; games with rankings override."""
        return Outcome.draw(self.game.num_players, termination)

    def _copy_mutables(self, other: Self) -> None:  # noqa: B027 - optional hook
        """Give ``other`` (a fresh shallow copy) its own copies of mutable containers."""

    def _explain_illegal(self, text: str) -> str | None:
        """Why a well-formed decision is illegal here, when the game can say more."""
        return None

    def presets(self) -> list[str]:
        """Names of whole-turn presets the side to move may play now (e.g. Cyvasse lineups)."""
        return []

    def presets_ahead(self) -> bool:
        """Whether :meth:`presets` may offer a preset here or later in the game (a game with
        presets overrides it to say when they are over: bots then choose decision by
        decision, which the lab can do on the compiled engine)."""
        return type(self).presets is not State.presets

    def preset_actions(self, name: str, seed: int | None = None) -> list[int]:
        """The decisions of preset ``name`` to play in order (``seed`` drives random ones)."""
        raise IllegalMoveError(f"no preset {name!r} can be played here")

    def save_preset(self, name: str, player: int) -> str:
        """Save ``player``'s setup on the board as preset ``name``; returns where it went."""
        raise IllegalMoveError("this game has no presets to save")

    def after_resignation(self, seat: int) -> Self | None:
        """The position once ``seat`` resigns, when the other seats play on without it.

        None (the default) means the resignation ends the game: ``seat`` loses and every other
        seat wins. Games for three or more seats may override this to let the rest play on.
        """
        return None

    def view_state(self, player: int) -> State:
        """What ``player`` may see: the state itself unless the game hides information.

        ``player`` may be ``render_model.SPECTATOR`` (-1): what a watcher who holds no seat
        may see, with every seat's hidden information hidden.
        """
        return self.clone()

    def _render_model(self) -> RenderModel:
        """The picture of this state as it is (a view state draws what its view may see)."""
        raise NotImplementedError(f"{self.game.id} has no render model yet")

    def click_path(self, action: int) -> ClickPath:
        """What a person clicks to make the legal decision ``action`` here."""
        raise NotImplementedError(f"{self.game.id} has no click paths yet")

    def view_text(self, player: int) -> str:
        """Position text of ``player``'s view."""
        return self.position_text()

    # -- shared machinery -----------------------------------------------------------------

    def render_model(
        self, view: int | None = None, last_turn: Sequence[ClickPath] = ()
    ) -> RenderModel:
        """The picture of this position as seen by seat ``view`` (None: everything).

        ``last_turn`` holds the click paths of the previous turn's decisions, each taken in the
        position it was played from (the state does not keep its history).
        """
        state = self if view is None else self.view_state(view)
        return replace(state._render_model(), view=view, last_turn=tuple(last_turn))

    def heuristics(self) -> list[float]:
        """Every seat's :meth:`heuristic` at once (what the lab traces at each decision); with
        :attr:`NEGATED_HEURISTIC` seat 1's is seat 0's negated, evaluated once."""
        if self.NEGATED_HEURISTIC:
            first = self.heuristic(0)
            return [first, -first]
        return [self.heuristic(seat) for seat in range(self.game.num_players)]

    def occupancy(self) -> Occupancy:
        """What the board holds per seat (see :class:`Occupancy`), from the render model; a game
        that can say it without drawing the picture overrides it. NotImplementedError without a
        render model."""
        return Occupancy.of(self._render_model(), self.game.num_players)

    def _repr_svg_(self) -> str:
        """The picture of this position, so a notebook (Jupyter) shows a state as its board."""
        # Imported here: the renderer builds on core, and core must not import it at load.
        from boardlab.render.svg import render_svg

        return render_svg(self.render_model())

    def click_paths(self) -> dict[int, ClickPath]:
        """The click path of every legal decision, by action id."""
        return {action: self.click_path(action) for action in self.legal_actions()}

    def _start(self) -> None:
        """Begin repetition history at this position and apply the shared end checks."""
        self._seen = {}
        self._seen_owned = True
        if self._outcome is None and self.turn_start:
            self._check_shared_rules()

    def legal_actions(self) -> list[int]:
        """Legal action ids; empty exactly when the game is over."""
        return [] if self._outcome is not None else self._legal_actions()

    def legal_mask(self) -> list[bool]:
        """One flag per action id of the game's action space."""
        mask = [False] * self.game.num_actions
        for action in self.legal_actions():
            mask[action] = True
        return mask

    def legal_moves(self) -> list[str]:
        """Legal decisions in notation, sorted by code point (rules README §8.2)."""
        return sorted(self.action_to_str(a) for a in self.legal_actions())

    def apply_action(self, action: int) -> None:
        """Play a legal action id in place. The caller guarantees legality (see play)."""
        self._apply(action)
        if self._outcome is None and self.turn_start:
            self._check_shared_rules()

    def parse_turn(self, text: str) -> list[int]:
        """The action ids of one decision or a ``+``-joined part of one turn (README §8.3).

        Every decision is checked in the position it would be played in; the state itself is
        not changed. A string that runs past the end of the turn is an IllegalMoveError. Spaces
        around a ``+`` are allowed (``d1-d3 + a7-a5``), since people type them.
        """
        parts = [part.strip() for part in text.split("+")]
        if len(parts) == 1:
            return [self.parse_action(text)]
        probe = self.clone()
        actions: list[int] = []
        for index, part in enumerate(parts):
            if index and (probe.is_terminal() or probe.turn_start):
                done = "+".join(parts[:index])
                raise IllegalMoveError(f"the turn ends after {done}; nothing was played")
            action = probe.parse_action(part)
            probe.apply_action(action)
            actions.append(action)
        return actions

    def play(self, text: str) -> list[int]:
        """Check and play one decision or a ``+``-joined part of one turn; returns the ids."""
        actions = self.parse_turn(text)
        for action in actions:
            self.apply_action(action)
        return actions

    def child(self, action: int) -> Self:
        """A copy with ``action`` played."""
        new = self.clone()
        new.apply_action(action)
        return new

    def _check_shared_rules(self) -> None:
        """Repetition, no-progress cap, ply cap (rules README §6.2 steps 3-5), at a turn start."""
        game = self.game
        limit = game.repetition_draw
        if limit and self._repetition_point():
            key = self._repetition_key()
            if not self._seen_owned:
                self._seen = dict(self._seen)
                self._seen_owned = True
            count = self._seen.get(key, 0) + 1
            self._seen[key] = count
            if count >= limit:
                self._outcome = self._draw_outcome(Termination.REPETITION)
                return
        if self._progress_cap_reached():
            self._outcome = self._draw_outcome(Termination.NO_CAPTURE)
            return
        cap = game.max_plies
        if cap and self.ply >= cap:
            self._outcome = self._draw_outcome(Termination.PLY_CAP)

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self._outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        """The outcome of a finished game, else None."""
        return self._outcome

    def returns(self) -> tuple[float, ...]:
        """Per-seat rewards: +1 win, 0 draw, -1 loss; zeros while the game goes on."""
        if self._outcome is None:
            return (0.0,) * self.game.num_players
        return self._outcome.rewards()

    def repetition_count(self) -> int:
        """How often the current position has occurred (0 where repetition is not counted)."""
        if not self.turn_start or not self._repetition_point():
            return 0
        return self._seen.get(self._repetition_key(), 0)

    def clone(self) -> Self:
        """An independent copy; the repetition history is shared until either side writes."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        self._seen_owned = False
        new._seen_owned = False
        self._copy_mutables(new)
        return new

    def parse_action(self, text: str) -> int:
        """The action id of a canonical decision string that is legal here.

        Raises NotationError for a malformed string and IllegalMoveError for a well-formed one
        that is not legal, suggesting the canonical form when only a marker is wrong.
        """
        legal = {self.action_to_str(a): a for a in self.legal_actions()}
        if text in legal:
            return legal[text]
        if not self.NOTATION.fullmatch(text):
            raise NotationError(f"malformed move {shown(text)}: {self.NOTATION_HELP}")
        if self._outcome is not None:
            raise IllegalMoveError(f"illegal move {shown(text)}: the game is over")
        loose = self.MARKERS.sub("", text)
        near = sorted(s for s in legal if self.MARKERS.sub("", s) == loose)
        if near:
            raise IllegalMoveError(f"illegal move {shown(text)}: did you mean {' or '.join(near)}?")
        reason = self._explain_illegal(text) or _legal_summary(sorted(legal))
        raise IllegalMoveError(f"illegal move {shown(text)}: {reason}")

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and isinstance(other, State)
            and other.game == self.game
            and other.position_text() == self.position_text()
        )

    def __hash__(self) -> int:
        return hash(self.position_text())

    def __repr__(self) -> str:
        return f"{self.game!r}.state_from_text({self.position_text()!r})"


def _legal_summary(moves: list[str], shown: int = 12) -> str:
    if not moves:
        return "no move is legal here"
    head = " ".join(moves[:shown])
    more = f" … ({len(moves)} in all)" if len(moves) > shown else ""
    return f"legal moves are {head}{more}"
