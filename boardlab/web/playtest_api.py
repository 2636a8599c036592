"""The playtests' JSON API: a designer makes a playtest; playtesters join it (a variant drawn
for them, a seat against a bot or beside other playtesters) and answer its survey once per
seat when their game ends.

A playtest's dashboard token is shown once, at creation, and kept only as its SHA-256; the
dashboard and its exports (``playtest_dashboard.py``) answer that token, compared in constant
time, or the signed-in account that made the playtest, and nobody else.
"""

from __future__ import annotations

import hmac
import random
from dataclasses import replace
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from boardlab.core.registry import game_class
from boardlab.web.account_cookie import session_digest, signed_in
from boardlab.web.api import _count, _hub, held_by_caller, keep_for_account
from boardlab.web.clock import TimeControl
from boardlab.web.creation import make_game, new_match
from boardlab.web.errors import ApiError
from boardlab.web.hub import Hub, now
from boardlab.web.limits import RateLimiter, request_key
from boardlab.web.playtest import (
    PEOPLE,
    PLAYTEST_ID,
    Settings,
    choose_variant,
    label,
    read_answer,
    read_settings,
    utc_today,
)
from boardlab.web.playtest_store import Playtest, PlaytestMatch, SurveyAnswer
from boardlab.web.requests import bearer_tokens, field_int, json_body, match_id
from boardlab.web.tokens import new_match_id, new_token, token_hash

RNG = random.SystemRandom()
NOT_FOUND = "there is no playtest with this id"
DESIGNER_ONLY = "only the playtest's designer may read its dashboard: open the private link"
MAX_SEAT_TRIES = 8
"""Open seats tried by one join before a new match is made (a seat may have gone meanwhile)."""


def playtest_of_path(request: Request) -> tuple[Playtest, Settings]:
    """The playtest of the path (404 if none)."""
    value = str(request.path_params["playtest_id"])
    playtest = _hub(request).store.playtest(value) if PLAYTEST_ID.fullmatch(value) else None
    if playtest is None:
        raise ApiError(404, NOT_FOUND)
    return playtest, Settings.from_text(playtest.settings)


def designer_of(request: Request) -> tuple[Playtest, Settings]:
    """The playtest of the path, for its designer only: the bearer token of its dashboard
    (compared in constant time) or the signed-in account that made it (403 otherwise)."""
    playtest, settings = playtest_of_path(request)
    tokens = bearer_tokens(request)
    if len(tokens) == 1 and hmac.compare_digest(token_hash(tokens[0]), playtest.token_hash):
        return playtest, settings
    if playtest.account_id is not None and session_digest(request.cookies) is not None:
        account = signed_in(request, now())
        if account is not None and account.id == playtest.account_id:
            return playtest, settings
    raise ApiError(403, DESIGNER_ONLY)


def _limit(request: Request, name: str, what: str) -> None:
    """Count the request against this server's allowance ``name`` (made on first use with the
    chat's figures: a few a minute), 429 once spent."""
    state = request.app.state
    bucket = getattr(state, name, None)
    if bucket is None:
        limits = state.limits
        bucket = RateLimiter(what, limits.chat_lines_per_minute, limits.chat_burst)
        setattr(state, name, bucket)
    bucket.take(request_key(request))


async def post_playtest(request: Request) -> Response:
    """``POST /api/playtests``: a new playtest; the answer holds its share link and, once
    only, its private dashboard link."""
    _count(request, "creations")
    body = await json_body(request)
    settings = read_settings(body, utc_today())
    token = new_token()
    account = signed_in(request, now())
    playtest = Playtest(
        new_match_id(),
        settings.game,
        settings.to_text(),
        token_hash(token),
        None if account is None else account.id,
        now(),
        settings.ends,
    )
    _hub(request).store.create_playtest(playtest)
    return JSONResponse(
        {
            "id": playtest.id,
            "link": f"/playtest/{playtest.id}",
            "dashboard": f"/playtest/{playtest.id}/dashboard#token={token}",
            "token": token,
            "owned": account is not None,
        },
        status_code=201,
    )


async def get_mine(request: Request) -> Response:
    """``GET /api/playtests``: the playtests of the signed-in designer (none for a guest, whose
    playtests are known only by their dashboard links)."""
    account = signed_in(request, now())
    rows = [] if account is None else _hub(request).store.account_playtests(account.id)
    return JSONResponse(
        {
            "playtests": [
                {"id": p.id, "title": Settings.from_text(p.settings).title, "game": p.game}
                for p in rows
            ]
        }
    )


async def get_playtest(request: Request) -> Response:
    """``GET /api/playtests/<id>``: what a playtester may know before playing."""
    playtest, settings = playtest_of_path(request)
    game = game_class(settings.game)()
    return JSONResponse(
        {
            "id": playtest.id,
            "title": settings.title,
            "game": settings.game,
            "game_name": game.name,
            "summary": game.summary,
            "opponent": "other playtesters" if settings.opponent == PEOPLE else "a bot",
            "clock": TimeControl.from_text(settings.clock).label if settings.clock else None,
            "open": settings.open_on(utc_today()),
            "ends": settings.ends,
            "variants": len(settings.variants),
            "show_variant": settings.show_variant,
            "questions": len(settings.questions),
        }
    )


def _variant_answer(settings: Settings, variant: int) -> dict[str, Any]:
    """What the playtester is told of their variant: its neutral name and options, or
    nothing when the designer keeps it from them."""
    if not settings.show_variant:
        return {"variant": None, "options": None}
    return {"variant": label(variant), "options": settings.variants[variant].options}


async def post_join(request: Request) -> Response:
    """``POST /api/playtests/<id>/join``: a seat for a playtester: an open seat of a match
    waiting for people if there is one, else a new match of the variant with the fewest
    matches (201); the answer holds the seat's token."""
    _count(request, "creations")
    playtest, settings = playtest_of_path(request)
    await json_body(request)
    if not settings.open_on(utc_today()):
        raise ApiError(410, f"this playtest ended on {settings.ends}; thank you for coming")
    hub = _hub(request)
    if settings.opponent == PEOPLE:
        for _ in range(MAX_SEAT_TRIES):
            taken = hub.store.take_open_seat(playtest.id, None)
            if taken is None:
                break
            seated = await _claim_open_seat(request, hub, *taken)
            if seated is not None:
                row = hub.store.playtest_of(taken[0])
                variant = 0 if row is None else row.variant
                waiting = any(m == taken[0] for m, _ in hub.store.open_seats(playtest.id))
                return JSONResponse(
                    {
                        "match": taken[0],
                        "seat": taken[1],
                        "token": seated,
                        "waiting": waiting,
                        **_variant_answer(settings, variant),
                    }
                )
    return _new_match(request, hub, playtest, settings)


async def _claim_open_seat(request: Request, hub: Hub, match: str, seat: int) -> str | None:
    """A fresh token for the open ``seat`` of ``match``, or None if it cannot be had (the
    match is gone or over, or the seat was taken by another way)."""
    try:
        session = hub.session(match)
    except ApiError:
        return None
    async with session.lock:
        config = session.config
        if session.over or config.seats[seat].kind != "invite" or config.seats[seat].claimed:
            return None
        fresh = new_token()
        was = config.seats[seat].token_hash
        if was is None or not hub.store.claim_seat(match, seat, was, token_hash(fresh)):
            return None
        seats = list(config.seats)
        seats[seat] = replace(seats[seat], token_hash=token_hash(fresh), claimed=True)
        claimed = replace(config, seats=tuple(seats))
        for copy in (session, hub.sessions.get(session.id)):
            if copy is not None:
                copy.reseat(claimed)
        account = signed_in(request, now())
        if account is not None:
            hub.store.hold_seats(account.id, match, [seat], take=True)
        hub.broadcast(hub.sessions.get(session.id) or session)
    return fresh


def _new_match(request: Request, hub: Hub, playtest: Playtest, settings: Settings) -> Response:
    """A new match of the least played variant: the playtester in a seat drawn at random, the
    others the bot's, or open for the next playtesters."""
    played = [row.variant for row in hub.store.playtest_matches(playtest.id)]
    variant = choose_variant(played, len(settings.variants), RNG)
    options = settings.variants[variant].options
    seats = make_game(settings.game, options, _seat_count(settings, variant)).num_players
    mine = RNG.randrange(seats)
    people = settings.opponent == PEOPLE
    seat_list = [
        {"kind": "human"}
        if seat == mine
        else {"kind": "invite"}
        if people
        else {"kind": "bot", "bot": settings.opponent}
        for seat in range(seats)
    ]
    config, answer = new_match(
        {"game": settings.game, "options": options, "seats": seat_list}, now()
    )
    config = replace(config, clock=settings.clock)
    hub.create(config, owner=request_key(request))
    keep_for_account(request, config)
    open_seats = [seat for seat in range(seats) if seat != mine] if people else []
    hub.store.add_playtest_match(
        PlaytestMatch(config.id, playtest.id, variant, config.created), open_seats
    )
    token = next(entry["token"] for entry in answer["seats"] if entry["seat"] == mine)
    return JSONResponse(
        {
            "match": config.id,
            "seat": mine,
            "token": token,
            "waiting": bool(open_seats),
            **_variant_answer(settings, variant),
        },
        status_code=201,
    )


def _seat_count(settings: Settings, variant: int) -> int:
    players = settings.variants[variant].options.get("players")
    return int(players) if players is not None else game_class(settings.game)().num_players


def _playtest_match(request: Request, playtest: Playtest) -> str:
    """The match of the path, which must be one of the playtest's (404 otherwise)."""
    match = match_id(request)
    row = _hub(request).store.playtest_of(match)
    if row is None or row.playtest_id != playtest.id:
        raise ApiError(404, "this match is not one of this playtest's")
    return match


async def get_open(request: Request) -> Response:
    """``GET /api/playtests/<id>/matches/<match>``: how many of the match's seats still wait
    for a playtester."""
    playtest, _ = playtest_of_path(request)
    match = _playtest_match(request, playtest)
    waiting = [seat for m, seat in _hub(request).store.open_seats(playtest.id) if m == match]
    return JSONResponse({"open": len(waiting)})


async def get_survey(request: Request) -> Response:
    """``GET /api/playtests/<id>/matches/<match>/survey``: the survey's questions, the seats
    the caller's tokens hold, which of them answered, and whether the game is over."""
    playtest, settings = playtest_of_path(request)
    match = _playtest_match(request, playtest)
    hub = _hub(request)
    session = await hub.settled(hub.session(match))
    held = held_by_caller(request, session)
    answered = {a.seat for a in hub.store.answers(playtest.id) if a.match_id == match}
    return JSONResponse(
        {
            "title": settings.title,
            "questions": list(settings.questions),
            "seats": sorted(held),
            "answered": sorted(held & answered),
            "over": session.over,
        }
    )


async def post_survey(request: Request) -> Response:
    """``POST /api/playtests/<id>/matches/<match>/survey``: a seat's answers, once, after
    its game ended (201)."""
    _limit(request, "playtest_answers", "survey answers")
    playtest, settings = playtest_of_path(request)
    match = _playtest_match(request, playtest)
    body = await json_body(request)
    hub = _hub(request)
    session = hub.session(match)
    seat = field_int(body, "seat", 0, len(session.config.seats) - 1)
    if seat not in held_by_caller(request, session):
        raise ApiError(403, "only the player of this seat may answer its survey")
    scores, text = read_answer(body, len(settings.questions))
    if not session.over:
        raise ApiError(409, "the survey opens when the game ends")
    answer = SurveyAnswer(match, seat, playtest.id, _scores_text(scores), text, now())
    if not hub.store.add_answer(answer):
        raise ApiError(409, "this seat has answered the survey already; thank you")
    return JSONResponse({"thanks": True}, status_code=201)


def _scores_text(scores: list[int | None]) -> str:
    return "[" + ", ".join("null" if s is None else str(s) for s in scores) + "]"
