"""The analysis board's API (``docs/web-api.md``, Analysis): open a match or a record, show any
position a line of decisions reaches, ask a bot about it, and play on against a bot from it.

The server keeps nothing per analysis: every request names its *source* and the *line* of
decisions played from it, and the position is rebuilt from them. A source is a game's start
(``{"game", "options", "start"}``, ``start`` a position text or null) or a match's position
after ``at`` turns (``{"match", "at"}``). While the match hides something from the caller (a
live Cyvasse deployment), that position is the caller's own view of it: everything is derived
from that view, so nothing hidden from the caller can enter an answer, and it can be explored
but not played on (a new match needs the real position).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import Counter
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from boardlab.core.errors import BoardlabError
from boardlab.core.game import Game
from boardlab.core.records import RESIGN, Turn, apply_turn, parse_record
from boardlab.core.registry import game_ids, make
from boardlab.core.render_model import ClickPath
from boardlab.core.state import State
from boardlab.render.palette import seat_colour
from boardlab.render.svg import render_svg
from boardlab.web.analysis_bot import analyse
from boardlab.web.api import held_by_caller, keep_for_account
from boardlab.web.bot_queue import PLAYER
from boardlab.web.creation import bot_specs, make_game, new_match
from boardlab.web.errors import ApiError
from boardlab.web.hub import Hub, now
from boardlab.web.limits import Limits, RateLimiter, request_key
from boardlab.web.off_loop import ANALYSIS_WORK
from boardlab.web.requests import (
    MATCH_ID_PATTERN,
    MAX_NAME_CHARS,
    field_int,
    json_body,
)
from boardlab.web.session import legal_decisions
from boardlab.web.store import Event

MAX_LINE = 4000
"""Decisions a line may hold (a long match's moves and a variation)."""
DECISIONS_PER_MOVE = 100
"""A line costs one move of the client's allowance per this many decisions (a replay of 100
decisions and its picture is about the work of one move), on top of the request itself."""
RECORD_BYTES_PER_MOVE = 1024
"""A record uploaded costs one move per KiB (a KiB holds about 100 decisions)."""
MAX_PLAY_ON_TURNS = 500
"""Turns a match played on from the analysis board may start with: the longest game of the
default options (Cyvasse's 500 plies), and about 1 MiB of a live session."""
MAX_RECORD_BYTES = 48 * 1024
ANALYSIS_SECONDS = 3.0
"""The bot's time budget per analysis request."""
GRACE_SECONDS = 30.0
"""How long past its budget a search may take (a worker's first compile of a kernel) before
the request gives up on it."""
ANALYSES_PER_ADDRESS = 1
"""Analysis searches one address may have waiting or running at once."""
ANALYSES_WAITING = 32
"""Searches (of any kind) waiting for a worker past which the analysis bot is busy (429)."""
LOG = logging.getLogger("boardlab.web")


@dataclass
class Source:
    """What a line starts from: the game, its state as the caller may see it, and how."""

    game: Game
    state: State
    view: int | None = None
    """The view the state is seen in (None: the caller may see everything)."""
    start: str | None = None
    """The start position text of a record that does not begin at the game's start."""
    before: list[Turn] = field(default_factory=list)
    """The turns that led from the game's start to ``state`` (a match's, when all public)."""


@dataclass
class Position:
    """Where a source and a line lead: the state, the line's turns, the last turn's clicks."""

    source: Source
    state: State
    turns: list[Turn]
    last_paths: list[ClickPath]

    @property
    def game(self) -> Game:
        """The game analysed."""
        return self.source.game


# -- reading a request --------------------------------------------------------------------


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _searches(request: Request) -> RateLimiter:
    """The per-address allowance of bot searches (made on first use, from the server's limits,
    so the app's own setup needs no line for it)."""
    state = request.app.state
    if not hasattr(state, "analyses"):
        limits: Limits = state.limits
        state.analyses = RateLimiter("analyses", limits.analyses_per_minute, limits.analysis_burst)
    limiter: RateLimiter = state.analyses
    return limiter


def _count(request: Request, limiter: RateLimiter) -> None:
    limiter.take(request_key(request))


def _charge(request: Request, cost: int) -> None:
    """Count ``cost`` moves of work (a long line's replay) against the client's allowance."""
    if cost:
        moves: RateLimiter = request.app.state.moves
        moves.take(request_key(request), cost)


def _game(game_id: object, options: object) -> Game:
    """The game of a source (400 if it is not one)."""
    if not isinstance(game_id, str) or game_id not in game_ids():
        raise ApiError(400, f"'game' must be one of: {', '.join(game_ids())}")
    # The seat count is the default one unless the options name it (make_game keeps theirs).
    return make_game(game_id, {} if options is None else options, make(game_id).num_players)


def _line(data: dict[str, Any]) -> list[str]:
    """The ``line`` field: decisions in notation (400 otherwise)."""
    line = data.get("line", [])
    if not isinstance(line, list) or len(line) > MAX_LINE:
        raise ApiError(400, f"'line' must be a list of at most {MAX_LINE} decisions")
    for step in line:
        if not isinstance(step, str) or not step or len(step) > MAX_NAME_CHARS:
            raise ApiError(400, "each decision of 'line' must be a decision in notation")
    return line


def _source(request: Request, data: dict[str, Any]) -> Source:
    """What the request's ``source`` names."""
    source = data.get("source")
    if not isinstance(source, dict):
        raise ApiError(400, "'source' must be an object naming a game or a match")
    if "match" in source:
        return _match_source(request, source)
    game = _game(source.get("game"), source.get("options"))
    start = source.get("start")
    if start is None:
        return Source(game, game.new_initial_state())
    if not isinstance(start, str) or len(start) > MAX_RECORD_BYTES:
        raise ApiError(400, "'start' must be a position text")
    try:
        return Source(game, game.state_from_text(start), start=start)
    except BoardlabError as error:
        raise ApiError(400, f"bad start position: {error}") from error
    except ValueError as error:
        # Python's own refusal: a number past its 4,300-digit conversion limit.
        raise ApiError(400, "bad start position: a number in it is far too long") from error


def _match_source(request: Request, source: dict[str, Any]) -> Source:
    """The caller's view of a match's position after ``at`` turns (the position itself, and
    the turns to it, once nothing in the match is hidden from the caller)."""
    match = source.get("match")
    if not isinstance(match, str):
        raise ApiError(400, "'match' must be a match id")
    hub = _hub(request)
    session = hub.session(_match_id(match))
    held = held_by_caller(request, session)
    at = field_int(source, "at", 0, session.ply)
    viewer = session.viewer(held)
    state = session.states[at]
    if session.hides(session.state, viewer):
        return Source(session.game, state.view_state(viewer), view=viewer)
    before = [Turn(turn.seat, list(turn.decisions)) for turn in session.turns[:at]]
    return Source(session.game, state.clone(), before=before)


def _match_id(value: str) -> str:
    """``value`` if it can be a match id (404 otherwise, as for the match pages)."""
    if not MATCH_ID_PATTERN.fullmatch(value):
        raise ApiError(404, "there is no match with this id")
    return value


def follow(
    state: State, line: list[str], at: int | None = None
) -> tuple[State, list[Turn], list[ClickPath]]:
    """Play ``line`` from ``state``, which it changes (422 naming the first decision that is not
    legal); the position after its first ``at`` decisions (default: all), the turns of the
    whole line, and the click paths of the turn that led to that position."""
    turns: list[Turn] = []
    paths: list[ClickPath] = []
    shown: tuple[State, list[ClickPath]] | None = None
    for index, decision in enumerate(line):
        if index == at:
            shown = (state.clone(), list(paths))
        mover = state.current_player
        new_turn = state.turn_start or not turns
        if new_turn:
            paths = []
        try:
            if decision == RESIGN and state.turn_start and not state.is_terminal():
                # A seat that left while the others played on (a record's or a match's turn).
                state = apply_turn(state, Turn(mover, [RESIGN]))
            else:
                action = state.parse_action(decision)
                paths.append(state.click_path(action))
                state.apply_action(action)
        except BoardlabError as error:
            raise ApiError(422, f"decision {index + 1} of the line: {error}") from error
        if new_turn:
            turns.append(Turn(mover, [decision]))
        else:
            turns[-1].decisions.append(decision)
    if shown is None:
        return state, turns, paths
    return shown[0], turns, shown[1]


async def position(request: Request, data: dict[str, Any]) -> Position:
    """The position a request's source and line lead to (after ``at`` decisions of the line,
    when given); the line is charged by its length and replayed off the event loop."""
    source = _source(request, data)
    line = _line(data)
    at = field_int(data, "at", 0, len(line)) if "at" in data else None
    _charge(request, len(line) // DECISIONS_PER_MOVE)
    shown, turns, paths = await ANALYSIS_WORK.run(follow, source.state.clone(), line, at)
    return Position(source, shown, turns, paths)


# -- answers ------------------------------------------------------------------------------


def _play_on_refusal(where: Position) -> str | None:
    """Why no match can start from this position, or None."""
    if where.source.view is not None:
        return "play on is possible once nothing in this match is hidden from you"
    if where.source.start is not None:
        return "play on needs a record that begins at the game's start"
    if len(where.source.before) + len(where.turns) > MAX_PLAY_ON_TURNS:
        return f"play on is possible from the first {MAX_PLAY_ON_TURNS} turns of a game"
    if where.state.is_terminal():
        return "the game is over in this position"
    if not where.state.turn_start:
        return "finish the turn (or step back to its start) to play on from here"
    return None


def _presets(state: State) -> list[str]:
    try:
        return state.presets()
    except BoardlabError:
        return []


def position_answer(where: Position) -> dict[str, Any]:
    """The picture of a position, the words around it, and its legal next decisions."""
    state, game = where.state, where.game
    over = state.is_terminal()
    # Whatever the analyst may see is drawn: everything, unless the source is a view.
    model = state.render_model(view=where.source.view, last_turn=where.last_paths)
    outcome = state.outcome
    refusal = _play_on_refusal(where)
    return {
        "game": game.id,
        "name": game.name,
        "options": dict(game.option_items()),
        "players": list(game.player_names),
        "colours": [seat_colour(model, seat) for seat in range(game.num_players)],
        "svg": render_svg(model),
        "status_text": model.status,
        "phase": model.phase,
        "scores": None if model.scores is None else list(model.scores),
        "notes": list(model.notes),
        "to_move": None if over else state.current_player,
        "turn_start": state.turn_start,
        "result": None if outcome is None else outcome.describe(game.player_names),
        "legal": [] if over else legal_decisions(state),
        "presets": _presets(state) if state.turn_start else [],
        "turns": _turns(where.turns),
        "hidden": where.source.view is not None,
        "play_on": refusal is None,
        "play_on_refusal": refusal,
    }


def _turns(turns: list[Turn]) -> list[dict[str, Any]]:
    """Turns as answers list them: seat, text, and how many decisions of the line end there."""
    listed, end = [], 0
    for turn in turns:
        end += len(turn.decisions)
        listed.append({"seat": turn.seat, "text": turn.text, "end": end})
    return listed


# -- handlers -----------------------------------------------------------------------------


async def post_open(request: Request) -> Response:
    """``POST /api/analysis/open``: the source and main line of a match or an uploaded record."""
    _count(request, request.app.state.moves)
    body = await json_body(request)
    if "record" in body:
        record = body["record"]
        if isinstance(record, str):
            # Charged before it is read: about a move's worth of decisions in each KiB.
            _charge(request, len(record) // RECORD_BYTES_PER_MOVE)
        return JSONResponse(await ANALYSIS_WORK.run(_open_record, record))
    match = body.get("match")
    if not isinstance(match, str):
        raise ApiError(400, "send 'match' (a match id) or 'record' (the text of a record)")
    hub = _hub(request)
    session = hub.session(_match_id(match))
    viewer = session.viewer(held_by_caller(request, session))
    result = session.result()
    answer: dict[str, Any] = {"title": session.game.name, "result": result and result["text"]}
    if session.hides(session.state, viewer):
        # Only this view of the current position: the moves before it are not all public.
        answer |= {"source": {"match": session.id, "at": session.ply}, "main": [], "turns": []}
    else:
        source = {"game": session.game.id, "options": session.config.options, "start": None}
        main = [decision for turn in session.turns for decision in turn.decisions]
        answer |= {
            "source": source,
            "main": main,
            "turns": [len(t.decisions) for t in session.turns],
        }
    return JSONResponse(answer)


def _open_record(text: object) -> dict[str, Any]:
    """The source and main line of a record's text (400 naming what is wrong)."""
    if not isinstance(text, str):
        raise ApiError(400, "'record' must be the text of a record")
    if len(text.encode("utf-8", "replace")) > MAX_RECORD_BYTES:
        raise ApiError(413, f"the record is larger than {MAX_RECORD_BYTES} bytes")
    try:
        record, final = parse_record(text, "the record")
    except BoardlabError as error:
        raise ApiError(400, str(error)) from error
    decisions = record.decisions()
    if len(decisions) > MAX_LINE:
        raise ApiError(400, f"the record has more than {MAX_LINE} decisions")
    outcome = record.outcome(final)
    source = {
        "game": record.game.id,
        "options": dict(record.game.option_items()),
        "start": record.start,
    }
    return {
        "title": record.game.name,
        "result": None if outcome is None else outcome.describe(record.game.player_names),
        "source": source,
        "main": decisions,
        "turns": [len(turn.decisions) for turn in record.turns],
    }


async def post_position(request: Request) -> Response:
    """``POST /api/analysis/position``: the position after a line, optionally with a preset
    (a whole Cyvasse lineup) played on at its end."""
    _count(request, request.app.state.moves)
    body = await json_body(request)
    where = await position(request, body)
    preset = body.get("preset")
    if preset is not None:
        if not isinstance(preset, str) or preset not in _presets(where.state):
            raise ApiError(422, "no such preset can be played here")
        probe = where.state.clone()
        extra = []
        for action in probe.preset_actions(preset, random.SystemRandom().randrange(2**31)):
            extra.append(probe.action_to_str(action))
            probe.apply_action(action)
        # Played where the board stands: whatever of the line came after it gives way.
        kept = _line(body)[: body["at"]] if "at" in body else _line(body)
        where = await position(request, {"source": body.get("source"), "line": [*kept, *extra]})
    return Response(await ANALYSIS_WORK.run(_position_json, where), media_type="application/json")


def _position_json(where: Position) -> bytes:
    """The answer of ``post_position``, encoded (drawing and encoding are most of its work)."""
    answer = position_answer(where)
    answer["line"] = [d for turn in where.turns for d in turn.decisions]
    return bytes(JSONResponse(answer).body)


async def post_evaluate(request: Request) -> Response:
    """``POST /api/analysis/evaluate``: the bot's suggestion, line and evaluations."""
    _count(request, _searches(request))
    body = await json_body(request)
    spec = body.get("bot")
    if spec not in bot_specs():
        raise ApiError(400, f"'bot' must be one of: {', '.join(bot_specs())}")
    where = await position(request, body)
    if where.state.is_terminal():
        raise ApiError(409, "the game is over in this position")
    hub = _hub(request)
    owner = request_key(request)
    state = request.app.state
    if not hasattr(state, "analysing"):
        # Per server: the analysis searches of each address waiting or running.
        state.analysing = Counter()
    analysing: Counter[str] = state.analysing
    if analysing[owner] >= ANALYSES_PER_ADDRESS:
        raise ApiError(
            429,
            "your last analysis is still running; try again in a few seconds",
            {"Retry-After": "3"},
        )
    if len(hub.queue.waiting) >= ANALYSES_WAITING:
        raise ApiError(
            429, "the analysis bot is busy; try again in a few seconds", {"Retry-After": "3"}
        )
    analysing[owner] += 1
    try:
        # Searches wait their turn at the workers fairly between addresses; the bots keep to
        # their time budgets, and this bound only frees the request should one never answer.
        async with hub.queue.slot(PLAYER, owner):
            async with asyncio.timeout(ANALYSIS_SECONDS + GRACE_SECONDS):
                found = await hub.run(
                    analyse,
                    where.state,
                    str(spec),
                    ANALYSIS_SECONDS,
                    random.SystemRandom().randrange(2**31),
                )
    except BrokenProcessPool as error:
        raise ApiError(503, "the analysis bot failed; try again") from error
    except Exception as error:
        LOG.exception("the analysis bot %s failed", spec)
        raise ApiError(503, "the analysis bot failed; try again") from error
    finally:
        analysing[owner] -= 1
        if not analysing[owner]:
            del analysing[owner]
    probe = where.state.clone()
    first = probe.parse_action(found["suggestion"])
    targets = list(probe.click_path(first).targets)
    mover = probe.current_player
    _, turns, _ = follow(probe, found["line"])
    found |= {
        "bot": spec,
        "mover": mover,
        "targets": targets,
        "line_turns": _turns(turns),
    }
    return JSONResponse(found)


async def post_play(request: Request) -> Response:
    """``POST /api/analysis/play``: a new match from this position, the caller's seat human
    and every other seat the bot; the answer is the creation's (tokens)."""
    _count(request, request.app.state.creations)
    body = await json_body(request)
    # The whole line is the new match's moves: it starts where the line ends.
    where = await position(request, {key: value for key, value in body.items() if key != "at"})
    refusal = _play_on_refusal(where)
    if refusal is not None:
        raise ApiError(409, refusal)
    seat = field_int(body, "seat", 0, where.game.num_players - 1)
    spec = body.get("bot")
    if spec not in bot_specs():
        raise ApiError(400, f"'bot' must be one of: {', '.join(bot_specs())}")
    seats = [
        {"kind": "human"} if index == seat else {"kind": "bot", "bot": spec}
        for index in range(where.game.num_players)
    ]
    options = dict(where.game.option_items())
    config, answer = new_match({"game": where.game.id, "options": options, "seats": seats}, now())
    events = [
        Event("resign", turn.seat, "")
        if turn.decisions == [RESIGN]
        else Event("turn", turn.seat, turn.text)
        for turn in [*where.source.before, *where.turns]
    ]
    _hub(request).create(config, events, owner=request_key(request))
    keep_for_account(request, config)
    return JSONResponse(answer, status_code=201)
