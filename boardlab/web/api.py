"""The JSON API handlers of ``docs/web-api.md``: create, list, view, play, preview and more."""

from __future__ import annotations

import functools
from typing import Any, get_args

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from boardlab.core.registry import game_ids, make
from boardlab.web.abandoned import abandoned
from boardlab.web.account_cookie import session_digest, signed_in
from boardlab.web.clock import TimeControl
from boardlab.web.creation import new_match, rematch_answer, rematch_config
from boardlab.web.errors import ApiError
from boardlab.web.hub import Hub, now, preset_seed
from boardlab.web.limits import RateLimiter, request_key
from boardlab.web.offers import check_answer, check_offer, offer_kind
from boardlab.web.playtest_hook import note_refused_turn
from boardlab.web.requests import (
    MAX_NAME_CHARS,
    MAX_TURN_CHARS,
    bearer_tokens,
    field_int,
    field_steps,
    field_str,
    json_body,
    match_id,
    query_int,
)
from boardlab.web.restore import set_aside
from boardlab.web.session import MatchSession
from boardlab.web.store import Account, Event, MatchConfig, Status

MAX_LIST = 200


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _count(request: Request, limiter: str) -> None:
    """Count the request against the client's allowance (429 once it is spent)."""
    bucket: RateLimiter = getattr(request.app.state, limiter)
    bucket.take(request_key(request))


def _match(request: Request) -> tuple[Hub, MatchSession]:
    """The hub and the match of the path."""
    hub = _hub(request)
    return hub, hub.session(match_id(request))


def held_by_caller(request: Request, session: MatchSession) -> frozenset[int]:
    """The seats of ``session`` that the caller's bearer tokens hold, and those that the
    account of its session cookie holds."""
    return _hub(request).held(session, bearer_tokens(request), session_digest(request.cookies))


def _session(request: Request) -> tuple[Hub, MatchSession, frozenset[int]]:
    """The hub, the match of the path, and the seats the caller's tokens hold."""
    hub, session = _match(request)
    return hub, session, held_by_caller(request, session)


async def _settled(request: Request) -> tuple[Hub, MatchSession, frozenset[int]]:
    """As ``_session``, a flag that is due committed first: the caller sees it."""
    hub, session, held = _session(request)
    session = await hub.settled(session)
    return hub, session, held


def _view_response(session: MatchSession, held: frozenset[int]) -> Response:
    """The caller's view as the answer."""
    return Response(session.view_json(held), media_type="application/json")


def _acting(
    request: Request, session: MatchSession, data: dict[str, Any]
) -> tuple[frozenset[int], int]:
    """The seats the caller's tokens hold now and the ``seat`` it acts for (403 unless held).
    Read once the body has come, under the match's lock where the change is made: an invite
    link claimed meanwhile (the claim takes that lock too) holds nothing any more."""
    held = held_by_caller(request, session)
    return held, _seat(data, session, held)


def _seat(data: dict[str, Any], session: MatchSession, held: frozenset[int]) -> int:
    """The ``seat`` field, which the caller must hold (403 otherwise)."""
    seat = field_int(data, "seat", 0, len(session.config.seats) - 1)
    if seat not in held:
        raise ApiError(403, f"you do not hold the seat of {session.names[seat]}")
    return seat


async def create_match(request: Request) -> Response:
    """``POST /api/matches``: a new match; the answer holds the creator's tokens."""
    _count(request, "creations")
    body = await json_body(request)
    config, answer = new_match(body, now(), signed_in(request, now()) is not None)
    _hub(request).create(config, owner=request_key(request))
    keep_for_account(request, config)
    return JSONResponse(answer, status_code=201)


def keep_for_account(request: Request, config: MatchConfig) -> None:
    """A signed-in creator's account holds their own seats of the new match (not the invited
    ones, nor the bots')."""
    account = signed_in(request, now())
    if account is not None:
        own = [seat for seat, s in enumerate(config.seats) if s.kind == "human"]
        _hub(request).store.hold_seats(account.id, config.id, own)


async def list_matches(request: Request) -> Response:
    """``GET /api/matches``: newest first, filtered by game and status."""
    game = request.query_params.get("game") or None
    if game is not None and game not in game_ids():
        raise ApiError(400, f"'game' must be one of: {', '.join(game_ids())}")
    status = request.query_params.get("status") or None
    if status is not None and status not in get_args(Status):
        raise ApiError(400, "'status' must be active or finished")
    limit = query_int(request, "limit", 50, 1, MAX_LIST)
    hub = _hub(request)
    rows = hub.store.list(game, status if status is None else _status(status), limit)
    matches = []
    for config, summary in rows:
        try:
            names = _player_names(config.game, tuple(config.options.items()))
        except Exception as error:
            # A stored row the code cannot read costs that match only, never the lobby.
            set_aside(hub.store, config.id, f"{type(error).__name__}: {error}", now())
            continue
        matches.append(
            {
                "id": config.id,
                "game": config.game,
                "players": [
                    {
                        "name": names[seat],
                        "kind": seat_config.kind,
                        "bot": seat_config.bot,
                    }
                    for seat, seat_config in enumerate(config.seats)
                ],
                "status": summary.status,
                "abandoned": abandoned(summary),
                "result": summary.result,
                "created": config.created,
                "updated": summary.updated,
                "plies": summary.plies,
                "clock": _clock_label(config.clock),
                "deadline": summary.deadline if summary.status == "active" else None,
            }
        )
    return JSONResponse({"matches": matches})


@functools.lru_cache(maxsize=256)
def _player_names(game_id: str, options: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    return make(game_id, **dict(options)).player_names


@functools.lru_cache(maxsize=64)
def _clock_label(text: str) -> str | None:
    return TimeControl.from_text(text).label if text else None


def _status(value: str) -> Status:
    return "active" if value == "active" else "finished"


async def get_view(request: Request) -> Response:
    """``GET /api/matches/<id>``: the caller's view."""
    _, session, held = await _settled(request)
    return _view_response(session, held)


async def get_position(request: Request) -> Response:
    """``GET /api/matches/<id>/position?at=N``: the picture after N turns."""
    _, session, held = await _settled(request)
    at = query_int(request, "at", session.ply, 0, session.ply)
    return JSONResponse(session.position(at, held))


async def post_preview(request: Request) -> Response:
    """``POST /api/matches/<id>/preview``: legal next steps of an unfinished turn."""
    _count(request, "moves")
    hub, session = _match(request)
    body = await json_body(request)
    _, seat = _acting(request, session, body)
    await hub.settle(session)
    return JSONResponse(session.preview(seat, field_steps(body)))


async def post_turn(request: Request) -> Response:
    """``POST /api/matches/<id>/turn``: a whole turn (or a preset), committed then answered."""
    _count(request, "moves")
    hub, session = _match(request)
    body = await json_body(request)
    ply = field_int(body, "ply", 0, 10**6)
    preset = field_str(body, "preset", MAX_NAME_CHARS, required=False)
    async with session.lock:
        held, seat = _acting(request, session, body)
        await hub.flag_if_due(session)
        if preset is not None:
            event = session.check_preset(seat, ply, preset, preset_seed())
        else:
            turn = field_str(body, "turn", MAX_TURN_CHARS)
            assert turn is not None
            try:
                event = session.check_turn(seat, ply, turn)
            except ApiError as error:
                note_refused_turn(hub.store, session, seat, ply, turn, error, now())
                raise
        await hub.commit(session, event)
        return _view_response(session, held)


async def post_resign(request: Request) -> Response:
    """``POST /api/matches/<id>/resign``: the seat gives up."""
    _count(request, "moves")
    hub, session = _match(request)
    body = await json_body(request)
    async with session.lock:
        held, seat = _acting(request, session, body)
        await hub.flag_if_due(session)
        if session.over:
            raise ApiError(409, "the game is over")
        if session.game.num_players > 2 and session.to_move != seat:
            # The others play on without a resigning seat, so it leaves on its own turn.
            raise ApiError(409, "with more than two seats, resign on your own turn")
        await hub.commit(session, Event("resign", seat, ""))
        return _view_response(session, held)


async def post_takeback(request: Request) -> Response:
    """``POST /api/matches/<id>/takeback``: undo the seat's last turn and the bot replies."""
    _count(request, "moves")
    hub, session = _match(request)
    body = await json_body(request)
    async with session.lock:
        held, seat = _acting(request, session, body)
        await hub.flag_if_due(session)
        await hub.commit(session, session.check_takeback(seat, held))
        return _view_response(session, held)


async def post_abort(request: Request) -> Response:
    """``POST /api/matches/<id>/abort``: end the match with no result, while some side has
    not made a decision yet."""
    _count(request, "moves")
    hub, session = _match(request)
    body = await json_body(request)
    async with session.lock:
        held, seat = _acting(request, session, body)
        await hub.flag_if_due(session)
        await hub.commit(session, session.check_abort(seat))
        return _view_response(session, held)


async def post_offer(request: Request) -> Response:
    """``POST /api/matches/<id>/offer``: offer a draw, or ask to take back your last turn."""
    _count(request, "moves")
    hub, session = _match(request)
    body = await json_body(request)
    kind = offer_kind(body.get("kind"))
    async with session.lock:
        held, seat = _acting(request, session, body)
        await hub.flag_if_due(session)
        await hub.commit(session, check_offer(session, seat, held, kind))
        return _view_response(session, held)


async def post_accept(request: Request) -> Response:
    """``POST /api/matches/<id>/accept``: accept the other player's offer."""
    return await _answer(request, accept=True)


async def post_decline(request: Request) -> Response:
    """``POST /api/matches/<id>/decline``: decline the other player's offer."""
    return await _answer(request, accept=False)


async def _answer(request: Request, accept: bool) -> Response:
    _count(request, "moves")
    hub, session = _match(request)
    body = await json_body(request)
    kind = offer_kind(body.get("kind"))
    ply = field_int(body, "ply", 0, 10**6)
    async with session.lock:
        held, seat = _acting(request, session, body)
        await hub.flag_if_due(session)
        await hub.commit(session, check_answer(session, seat, held, kind, ply, accept))
        return _view_response(session, held)


async def post_rematch(request: Request) -> Response:
    """``POST /api/matches/<id>/rematch``: the next game, seats rotated (made once)."""
    hub, session, held = _session(request)
    tokens = bearer_tokens(request)
    if not held:
        raise ApiError(403, "only a player of this match can ask for a rematch")
    _count(request, "creations")
    account = signed_in(request, now())
    async with session.lock:
        await hub.flag_if_due(session)
        if session.rematch is not None:
            config = hub.session(session.rematch).config
            _rematch_seats(hub, session, config, account, held)
            return JSONResponse(rematch_answer(config, tokens))
        if not session.over:
            raise ApiError(409, "the game is not over yet")
        config = rematch_config(session.config, now())
        hub.create(config, owner=request_key(request))
        # Whoever's account held seat i holds seat i + 1 of the rematch, as tokens do.
        count = len(config.seats)
        for seat, holder in hub.store.seat_accounts(session.id).items():
            hub.store.hold_seats(holder, config.id, [(seat + 1) % count])
        _rematch_seats(hub, session, config, account, held)
        await hub.commit(session, Event("rematch", min(held), config.id))
        return JSONResponse(rematch_answer(config, tokens), status_code=201)


def _rematch_seats(
    hub: Hub,
    session: MatchSession,
    config: MatchConfig,
    account: Account | None,
    held: frozenset[int],
) -> None:
    """A signed-in caller's account holds in the rematch the seats it held here, rotated (a
    seat that another account holds already stays that account's)."""
    if account is not None:
        count = len(config.seats)
        hub.store.hold_seats(account.id, config.id, [(seat + 1) % count for seat in held])


async def get_record(request: Request) -> Response:
    """``GET /api/matches/<id>/record``: the game record as a download."""
    _, session, held = await _settled(request)
    text = session.record_text(held)
    filename = f"{session.game.id}-{session.id}.txt"
    return PlainTextResponse(
        text, headers={"Content-Disposition": f'attachment; filename="{filename}"'}
    )


async def get_health(request: Request) -> Response:
    """``GET /api/health``: the server answers; the matches it set aside (id and since when);
    whether the bots are ready, per game, and how many bot searches failed; how many matches
    and turns the server keeps in memory."""
    hub = _hub(request)
    aside = hub.store.set_aside_matches()
    bots = {
        "ready": hub.bots_ready.is_set(),
        "games": hub.readiness,
        "failures": hub.bot_failures,
    }
    live = {"matches": len(hub.sessions), "turns": hub.live_turns()}
    return JSONResponse(
        {
            "status": "ok",
            "set_aside": [{"id": id_, "since": since} for id_, _, since in aside],
            "bots": bots,
            "live": live,
        }
    )
