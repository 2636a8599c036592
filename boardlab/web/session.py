"""One match in memory: its events replayed into positions, its rules checks, and its views.

The session is rebuilt from the store's events, so a restarted server has the same sessions.
It never writes anything itself: the hub checks a change here, commits it to the store, then
applies it here and tells the clients.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from boardlab.core.errors import BoardlabError
from boardlab.core.game import Game
from boardlab.core.outcome import Outcome, Termination
from boardlab.core.records import RESIGN, Record, Turn
from boardlab.core.registry import make
from boardlab.core.render_model import SPECTATOR, ClickPath, RenderModel
from boardlab.core.state import State
from boardlab.render.palette import seat_colour
from boardlab.render.svg import render_svg
from boardlab.web.clock import Clocks, TimeControl, moment
from boardlab.web.errors import ApiError
from boardlab.web.offers import Offers, allowed_offers
from boardlab.web.store import Event, MatchConfig, StoredMatch, Summary

VIEW_CACHE_SIZE = 16
ABORTED = "Aborted: no result"
"""The result text of an aborted match (the view's and the lobby line's)."""
ABORTED_CAPTION = "Game over: aborted, no result."
NOT_ABORTABLE = (
    "the match can no longer be aborted: every side has made a decision (resign instead)"
)
HIDDEN_TURN = "(hidden)"
"""What a client sees instead of a turn it may not read (a secret deployment)."""
REVEALED = "hidden information has been revealed since: that turn cannot be taken back"
NEW_TURN = ("turn", "resign", "takeback", "flag", "draw", "abort")
"""Events that end the turn under way (for the clocks): another one begins, or the game ends."""


class MatchSession:
    """A match: configuration, the positions after every turn, and who may see what.

    ``states[i]`` is the position after the first ``i`` turns; ``turns`` the turns in
    notation. ``thinking`` is the bot seat searching right now, if any; ``searched`` the
    version whose bot search was started (a search is started once per version).
    ``resigned`` is an end the moves do not show: a resignation, a flag or an agreed draw;
    ``aborted`` an end with no result (``over`` is true after either).
    ``clocks`` follow the time control (None without one); ``offers`` the draw offer or
    takeback request waiting for an answer.
    """

    def __init__(self, stored: StoredMatch) -> None:
        self.config: MatchConfig = stored.config
        self.game: Game = make(self.config.game, **self.config.options)
        self.names = self.game.player_names
        self.states: list[State] = [self.game.new_initial_state()]
        self.turns: list[Turn] = []
        self.events: list[Event] = []
        self.resigned: Outcome | None = None
        self.aborted = False
        self.rematch: str | None = None
        self.thinking: int | None = None
        # What the players are told of the bot to move: "preparing", "thinking" or "failed"
        # (with the words to show), and how many of its searches failed in a row.
        self.bot_state: str | None = None
        self.bot_note: str | None = None
        self.bot_attempts = 0
        self.bot_task: asyncio.Task[None] | None = None
        self.searched: int | None = None
        self.lock = asyncio.Lock()
        self.offers = Offers()
        self.clocks: Clocks | None = None
        # Each seat's time left when the position after N turns began, by N.
        self._clock_marks: dict[int, list[float]] = {}
        if self.config.clock:
            control = TimeControl.from_text(self.config.clock)
            self.clocks = Clocks(control, len(self.names), self.config.created)
            self._clock_marks[0] = list(self.clocks.remaining)
            self._turn_begins(self.clocks.since)
        self._views: dict[tuple[int, int | None, str | None, str | None, frozenset[int]], str] = {}
        self._shared: dict[tuple[int, int | None, str | None, str | None, int], str] = {}
        self._drawings: dict[tuple[int, int, int, bool], tuple[RenderModel, str]] = {}
        for event in stored.events:
            self.apply(event)

    # -- where the match stands -----------------------------------------------------------

    @property
    def id(self) -> str:
        """The match id."""
        return self.config.id

    @property
    def version(self) -> int:
        """Events applied so far: the store's index of the next event."""
        return len(self.events)

    @property
    def state(self) -> State:
        """The current position."""
        return self.states[-1]

    @property
    def ply(self) -> int:
        """Turns played so far: the ``ply`` a client must send with its next turn."""
        return len(self.turns)

    @property
    def outcome(self) -> Outcome | None:
        """The result: by the rules, or by a resignation; None while the game goes on."""
        return self.state.outcome or self.resigned

    @property
    def over(self) -> bool:
        """True once the match has ended: with a result, or aborted without one."""
        return self.aborted or self.outcome is not None

    @property
    def to_move(self) -> int | None:
        """The seat to move, None once the game is over."""
        return None if self.over else self.state.current_player

    def bot_to_move(self) -> int | None:
        """The seat to move if a bot plays it."""
        seat = self.to_move
        if seat is not None and self.config.seats[seat].kind == "bot":
            return seat
        return None

    def player_specs(self) -> list[str]:
        """Each seat's player as the record names it: ``human`` or the bot spec."""
        return [seat.bot or "human" for seat in self.config.seats]

    def result(self) -> dict[str, Any] | None:
        """The result object of the view, or None."""
        if self.aborted:
            return {"text": ABORTED, "termination": "aborted", "results": None, "scores": None}
        outcome = self.outcome
        if outcome is None:
            return None
        return {
            "text": outcome.describe(self.names),
            "termination": outcome.termination.value,
            "results": [result.value for result in outcome.results],
            "scores": None if outcome.scores is None else list(outcome.scores),
        }

    def summary_now(self, updated: str) -> Summary:
        """The lobby line of the match as it stands."""
        result = self.result()
        deadline = self.clocks.deadline() if self.clocks else None
        return Summary(
            "finished" if result else "active",
            result["text"] if result else None,
            self.ply,
            updated,
            None if deadline is None else deadline.isoformat(timespec="microseconds"),
            self.to_move,
        )

    # -- changes --------------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Apply an event already checked (or read back from the store)."""
        if event.kind == "turn":
            state = self.state.clone()
            decisions = event.text.split("+")
            for decision in decisions:
                state.apply_action(state.parse_action(decision))
            self.turns.append(Turn(event.seat, decisions))
            self.states.append(state)
        elif event.kind in ("resign", "flag"):
            # In a game that lets the others play on, the resignation is a turn of the record;
            # so is a flag there: the seat out of time leaves as if it resigned.
            record = Record(self.game)
            after = record.resign(event.seat, self.state.clone())
            if after is None:
                assert record.resigned is not None
                self.resigned = (
                    record.resigned
                    if event.kind == "resign"
                    else Outcome(record.resigned.results, Termination.TIMEOUT)
                )
            else:
                self.turns.extend(record.turns)
                self.states.append(after)
        elif event.kind == "abort":
            self.aborted = True
        elif event.kind == "draw":
            self.resigned = Outcome.draw(len(self.names), Termination.AGREEMENT)
        elif event.kind == "takeback":
            kept = int(event.text)
            del self.turns[kept:]
            del self.states[kept + 1 :]
        elif event.kind == "rematch":
            self.rematch = event.text
        self.offers.apply(event)
        if self.clocks is not None and event.kind in NEW_TURN and event.at:
            at = moment(event.at)
            self.clocks.turn_ends(at, moved=event.kind == "turn")
            kept = len(self.turns)
            then = self._clock_marks.get(kept)
            if event.kind == "takeback" and then is not None:
                # Nobody gains time by a takeback: each seat keeps the less of what it has and
                # what it had when that position began (the increments of the undone turns go).
                self.clocks.remaining = list(map(min, self.clocks.remaining, then))
            for later in [index for index in self._clock_marks if index > kept]:
                del self._clock_marks[later]
            self._clock_marks[kept] = list(self.clocks.remaining)
            self._turn_begins(at)
        self.events.append(event)
        # Cached drawings and views are keyed by the event count: older ones are never used again.
        self._drawings.clear()
        self._views.clear()
        self._shared.clear()

    def reseat(self, config: MatchConfig) -> None:
        """Take the configuration after an invite was claimed (its seat's token and flag)."""
        self.config = config
        self._views.clear()

    def _turn_begins(self, at: datetime) -> None:
        """Start the clock of the seat to move (none once the game is over): timed with days
        per move, and on a real-time clock once the seat has a turn on the board."""
        assert self.clocks is not None
        seat = self.to_move
        timed = bool(self.clocks.control.days) or any(turn.seat == seat for turn in self.turns)
        self.clocks.turn_begins(seat, timed, at)

    def overdue(self, now: datetime) -> Event | None:
        """The flag of the seat to move if its time ran out by ``now``, dated when it did."""
        if self.clocks is None or self.over or self.clocks.left(now) > 0:
            return None
        seat, deadline = self.clocks.running, self.clocks.deadline()
        assert seat is not None and deadline is not None
        return Event("flag", seat, "", deadline.isoformat(timespec="microseconds"))

    def check_turn(self, seat: int, ply: int, text: str) -> Event:
        """The event of a whole turn by ``seat``, or an ApiError saying why it is refused."""
        self.check_can_act(seat, ply)
        try:
            actions = self.state.parse_turn(text)
        except BoardlabError as error:
            raise ApiError(422, str(error)) from error
        probe, decisions = self._probe(actions)
        if not (probe.is_terminal() or probe.turn_start):
            raise ApiError(
                422,
                f"the turn is not complete: {self.names[seat]} still has a decision to make "
                f"(send the whole turn, decisions joined by '+')",
            )
        return Event("turn", seat, "+".join(decisions))

    def check_preset(self, seat: int, ply: int, name: str, seed: int) -> Event:
        """The event of playing preset ``name`` as ``seat``'s whole turn."""
        self.check_can_act(seat, ply)
        if name not in self._presets():
            offered = ", ".join(self._presets()) or "none"
            raise ApiError(422, f"no preset {name!r} can be played here; presets: {offered}")
        try:
            actions = self.state.preset_actions(name, seed)
        except BoardlabError as error:
            raise ApiError(422, str(error)) from error
        return self.check_turn(seat, ply, "+".join(self._probe(actions)[1]))

    def _probe(self, actions: list[int]) -> tuple[State, list[str]]:
        """The position after ``actions`` from the current one, and their notation in turn."""
        probe = self.state.clone()
        decisions = []
        for action in actions:
            decisions.append(probe.action_to_str(action))
            probe.apply_action(action)
        return probe, decisions

    def check_can_act(self, seat: int, ply: int | None = None) -> None:
        """Refuse (409) a decision after the end, with a stale ply, or out of turn."""
        if self.over:
            raise ApiError(409, "the game is over")
        if ply is not None and ply != self.ply:
            raise ApiError(
                409, f"the position has changed (you sent ply {ply}, it is {self.ply}); reload it"
            )
        if seat != self.to_move:
            mover = self.names[self.state.current_player]
            raise ApiError(409, f"it is not {self.names[seat]}'s turn: {mover} is to move")

    def check_takeback(self, seat: int, held: frozenset[int]) -> Event:
        """The event that undoes ``seat``'s last turn and every turn after it."""
        if self.over:
            raise ApiError(409, "the game is over")
        seats = self.config.seats
        if not any(s.kind == "bot" for s in seats) or any(
            s.kind != "bot" and i not in held for i, s in enumerate(seats)
        ):
            raise ApiError(409, "takebacks are only allowed against a bot")
        for index in range(len(self.turns) - 1, -1, -1):
            if self.turns[index].seat == seat:
                self.check_no_reveal_since(index)
                return Event("takeback", seat, str(index))
        raise ApiError(409, f"{self.names[seat]} has no turn to take back")

    def abortable(self) -> bool:
        """True while the match may be aborted: unfinished, and some seat has not made a
        decision yet (a Cyvasse deployment is one)."""
        return not self.over and {turn.seat for turn in self.turns} != set(range(len(self.names)))

    def check_abort(self, seat: int) -> Event:
        """The event of ``seat`` aborting the match, or an ApiError saying why not."""
        if self.over:
            raise ApiError(409, "the game is over")
        if not self.abortable():
            raise ApiError(409, NOT_ABORTABLE)
        return Event("abort", seat, "")

    def check_no_reveal_since(self, kept: int) -> None:
        """Refuse (409) to go back to the position after ``kept`` turns if something hidden
        from a seat has been shown to it since: its decisions from there would be made with
        what it was not to know (a Cyvasse lineup revealed is a one-way door)."""
        seats = range(len(self.names))
        hid = [self.hides(self.states[kept], seat) for seat in seats]
        for state in self.states[kept + 1 :]:
            hides = [self.hides(state, seat) for seat in seats]
            if any(before and not now for before, now in zip(hid, hides, strict=True)):
                raise ApiError(409, REVEALED)
            hid = hides

    # -- what a client may see ------------------------------------------------------------

    def viewer(self, held: frozenset[int]) -> int:
        """The seat whose view a client gets: the seat to move if it holds it (hot-seat), else
        its lowest seat, else the spectator's."""
        if not held:
            return SPECTATOR
        to_move = self.to_move
        return to_move if to_move in held else min(held)

    def drawn_as(self, view: int) -> int:
        """The view a picture is drawn in: in a game without hidden information every seat
        sees the same, so all share the spectator's picture (drawn once, see ``drawing``)."""
        return view if self.game.has_hidden_information else SPECTATOR

    def hides(self, state: State, view: int) -> bool:
        """True when ``view`` may not see all of ``state``."""
        if not self.game.has_hidden_information:
            return False
        return state.view_text(view) != state.position_text()

    def turn_hidden(self, index: int, view: int) -> bool:
        """True when ``view`` may not read turn ``index``: another seat's turn played while
        the current position still hides something from ``view``."""
        return self.turns[index].seat != view and self.hides(self.state, view)

    def drawing(self, at: int, view: int) -> tuple[RenderModel, str]:
        """The render model of ``states[at]`` in ``view`` and its SVG, its last turn marked if
        ``view`` may see it. Kept until the match changes: every client that sees the same
        picture shares it.
        """
        visible = self.last_turn_visible(at, view)
        key = (len(self.events), at, self.drawn_as(view), visible)
        drawn = self._drawings.get(key)
        if drawn is None:
            if len(self._drawings) >= VIEW_CACHE_SIZE:
                self._drawings.clear()
            paths = self.last_turn_paths(at) if visible else ()
            model = self.states[at].render_model(view=self.drawn_as(view), last_turn=paths)
            if (self.resigned is not None or self.aborted) and at == self.ply:
                # The position is not over by the rules: its caption would name a side to move.
                status = (
                    ABORTED_CAPTION
                    if self.resigned is None
                    else game_over(self.resigned, self.names)
                )
                model = replace(model, status=status)
            drawn = self._drawings[key] = (model, render_svg(model))
        return drawn

    def last_turn_visible(self, at: int, view: int) -> bool:
        """True when ``view`` may see the turn that led to ``states[at]``."""
        return not (at == 0 or self.turn_hidden(at - 1, view) or self.hides(self.states[at], view))

    def last_turn_paths(self, at: int) -> Sequence[ClickPath]:
        """Click paths of the turn that led to ``states[at]`` (``at`` > 0; none for a resign)."""
        state = self.states[at - 1].clone()
        paths = []
        decisions = self.turns[at - 1].decisions
        for decision in [] if decisions == [RESIGN] else decisions:
            action = state.parse_action(decision)
            paths.append(state.click_path(action))
            state.apply_action(action)
        return paths

    def view_json(self, held: frozenset[int]) -> str:
        """The view object (``docs/web-api.md``) for a client holding ``held``, as JSON.

        Views are kept until the match changes. What every client with the same view sees (the
        picture, the move list, the words) is encoded once and shared; only the fields that
        depend on the seats held are encoded per client, and spliced in front.
        """
        key = (len(self.events), self.thinking, self.bot_state, self.bot_note, held)
        cached = self._views.get(key)
        if cached is None:
            if len(self._views) >= VIEW_CACHE_SIZE:
                self._views.clear()
            personal = to_json(self._held_fields(held))
            shared = self._shared_json(self.drawn_as(self.viewer(held)))
            cached = self._views[key] = f"{personal[:-1]},{shared[1:]}"
        if self.clocks is not None:
            # The server's time as it answers: the page counts the clocks down from it.
            return f'{{"now":{time.time():.3f},{cached[1:]}'
        return cached

    def view_message(self, held: frozenset[int]) -> str:
        """The websocket message that carries the view."""
        return f'{{"type":"view","view":{self.view_json(held)}}}'

    def _shared_json(self, view: int) -> str:
        """The fields of the view object that depend only on whose view it is, as JSON
        (``view`` as ``drawn_as`` gives it: every client of a game without hidden information
        shares one)."""
        key = (len(self.events), self.thinking, self.bot_state, self.bot_note, view)
        cached = self._shared.get(key)
        if cached is None:
            if len(self._shared) >= VIEW_CACHE_SIZE:
                self._shared.clear()
            cached = self._shared[key] = to_json(self._shared_fields(view))
        return cached

    def _shared_fields(self, view: int) -> dict[str, Any]:
        """The fields of the view object that every client with view ``view`` gets."""
        state = self.state
        model, svg = self.drawing(self.ply, view)
        hiding = self.hides(state, view)
        return {
            "id": self.id,
            "game": self.game.id,
            "name": self.game.name,
            "options": self.config.options,
            "rated": self.config.rated,
            "status": "finished" if self.over else "active",
            "ply": self.ply,
            "to_move": self.to_move,
            "phase": model.phase,
            "status_text": model.status,
            "thinking": self.thinking is not None,
            "bot": None if self.over else self.bot_state,
            "bot_note": None if self.over else self.bot_note,
            "result": self.result(),
            "colours": [seat_colour(model, seat) for seat in range(len(self.names))],
            "scores": None if model.scores is None else list(model.scores),
            "notes": list(model.notes),
            "moves": [
                {
                    "n": index + 1,
                    "seat": turn.seat,
                    "turn": HIDDEN_TURN if hiding and turn.seat != view else turn.text,
                }
                for index, turn in enumerate(self.turns)
            ],
            "svg": svg,
            "rematch": self.rematch,
            "clock": self._clock_view(),
            "offer": self.offers.view(),
        }

    def _clock_view(self) -> dict[str, Any] | None:
        """The clocks as the view shows them: each seat's seconds left when the current turn
        began (``since``, Unix seconds), the seat whose clock runs, and the control."""
        clocks = self.clocks
        if clocks is None:
            return None
        control = clocks.control
        return {
            "kind": control.kind,
            "label": control.label,
            "base": control.base,
            "increment": control.increment,
            "days": control.days,
            "remaining": [round(left, 3) for left in clocks.remaining],
            "running": clocks.running,
            "since": round(clocks.since.timestamp(), 3),
        }

    def _held_fields(self, held: frozenset[int]) -> dict[str, Any]:
        """The fields of the view object that depend on the seats the client holds."""
        acting = self.to_move is not None and self.to_move in held
        return {
            "players": [
                {
                    "seat": seat,
                    "name": self.names[seat],
                    "kind": config.kind,
                    "bot": config.bot,
                    "held": seat in held,
                    "claimed": config.claimed,
                }
                for seat, config in enumerate(self.config.seats)
            ],
            "legal": self.legal(self.state) if acting else [],
            "presets": self._presets() if acting else [],
            "you": sorted(held),
            "may_offer": allowed_offers(self, held),
            "may_abort": bool(held) and self.abortable(),
        }

    def legal(self, state: State) -> list[dict[str, Any]]:
        """The legal next decisions of ``state`` with their click paths."""
        return legal_decisions(state)

    def position(self, at: int, held: frozenset[int]) -> dict[str, Any]:
        """The picture after the first ``at`` turns, in the client's view."""
        if not 0 <= at <= self.ply:
            raise ApiError(400, f"'at' must be a turn number from 0 to {self.ply}")
        model, svg = self.drawing(at, self.viewer(held))
        return {
            "at": at,
            "svg": svg,
            "status": model.status,
        }

    def preview(self, seat: int, steps: list[str]) -> dict[str, Any]:
        """The picture, the words around it and the next legal decisions after ``steps`` of
        ``seat``'s unfinished turn (the side panel shows the position the board shows).

        The steps are played on what ``seat`` may see of the committed position, so nothing
        hidden from it can enter the answer. A turn that would reveal something hidden (the
        last placement of a secret deployment) is drawn before its last decision: what comes
        after depends on what the seat may not see until the turn is committed.
        """
        self.check_can_act(seat)
        probe = self.seen_by(seat)
        revealing = self.hides(self.state, seat)
        drawn = probe
        paths = []
        for index, step in enumerate(steps):
            if index and (probe.is_terminal() or probe.turn_start):
                raise ApiError(422, f"the turn ends after {'+'.join(steps[:index])}")
            try:
                action = probe.parse_action(step)
            except BoardlabError as error:
                raise ApiError(422, str(error)) from error
            paths.append(probe.click_path(action))
            if revealing:
                drawn = probe.clone()
            probe.apply_action(action)
        complete = bool(steps) and (probe.is_terminal() or probe.turn_start)
        if not (complete and revealing):
            drawn = probe
        model = drawn.render_model(view=self.drawn_as(seat), last_turn=paths)
        return {
            "svg": render_svg(model),
            "phase": model.phase,
            "status_text": model.status,
            "scores": None if model.scores is None else list(model.scores),
            "notes": list(model.notes),
            "legal": [] if complete else self.legal(probe),
            "turn_complete": complete,
        }

    def seen_by(self, view: int) -> State:
        """A copy of the current position holding only what ``view`` may see."""
        if self.game.has_hidden_information:
            return self.state.view_state(view)
        return self.state.clone()

    def record_text(self, held: frozenset[int]) -> str:
        """The game record (``boardlab replay`` reads it), unless it would reveal a secret."""
        if self.hides(self.state, self.viewer(held)):
            raise ApiError(409, "the record is available once nothing is hidden from you")
        record = Record(self.game, None, self.player_specs(), self.config.created)
        record.turns = [Turn(turn.seat, list(turn.decisions)) for turn in self.turns]
        record.resigned = self.resigned
        record.aborted = self.aborted
        return record.to_text(self.state)

    def _presets(self) -> list[str]:
        try:
            return self.state.presets()
        except BoardlabError:
            return []


def game_over(outcome: Outcome, names: tuple[str, ...]) -> str:
    """The caption of a finished game: ``Game over: Gauls won.`` or ``Game over: Draw.``"""
    winners = " and ".join(names[seat] for seat in outcome.winners)
    return f"Game over: {winners} won." if winners else "Game over: Draw."


def legal_decisions(state: State) -> list[dict[str, Any]]:
    """The legal next decisions of ``state`` with their click paths, as views list them."""
    return [
        {
            "text": state.action_to_str(action),
            "targets": list(path.targets),
            "button": path.button,
        }
        for action, path in state.click_paths().items()
    ]


def to_json(data: Any) -> str:
    """Compact JSON, as the API sends it."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
