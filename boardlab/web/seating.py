"""A player's own games: claiming an invite once, and listing the matches that a browser's
tokens or a signed-in player's account hold."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from boardlab.web.abandoned import abandoned
from boardlab.web.account_cookie import signed_in
from boardlab.web.api import _count, _hub
from boardlab.web.creation import check_rated_claim
from boardlab.web.errors import ApiError
from boardlab.web.hub import Hub, now
from boardlab.web.requests import (
    MATCH_ID_PATTERN,
    check_tokens,
    field_int,
    field_str,
    json_body,
    match_id,
)
from boardlab.web.session import MatchSession
from boardlab.web.store import Summary
from boardlab.web.tokens import MAX_TOKEN_CHARS, new_token, token_hash

MAX_MINE = 100
USED = "this invite link has already been used, so it only lets you watch"


async def post_claim(request: Request) -> Response:
    """``POST /api/matches/<id>/claim``: swap an invite link's token for a fresh seat token.

    The first caller with the link's token gets the seat (200 with the new token); the link's
    token then holds nothing, so every later caller is told the link only watches (409).
    """
    _count(request, "moves")
    hub = _hub(request)
    session = hub.session(match_id(request))
    body = await json_body(request)
    seat = field_int(body, "seat", 0, len(session.config.seats) - 1)
    token = field_str(body, "token", MAX_TOKEN_CHARS)
    assert token is not None
    check_tokens([token])
    if session.config.seats[seat].kind != "invite":
        raise ApiError(400, f"the seat of {session.names[seat]} is not an invited seat")
    account = signed_in(request, now())
    async with session.lock:
        was = token_hash(token)
        if session.config.seats[seat].token_hash != was:
            raise ApiError(409, USED)
        holders = hub.store.seat_accounts(session.id)
        check_rated_claim(session.config, seat, None if account is None else account.id, holders)
        fresh = new_token()
        # The store decides: of two servers' or requests' claims only one swaps the hash.
        if not hub.store.claim_seat(session.id, seat, was, token_hash(fresh)):
            raise ApiError(409, USED)
        seats = list(session.config.seats)
        seats[seat] = replace(seats[seat], token_hash=token_hash(fresh), claimed=True)
        claimed = replace(session.config, seats=tuple(seats))
        # The copy served now may differ from this one if the match was reloaded meanwhile.
        for copy in (session, hub.sessions.get(session.id)):
            if copy is not None:
                copy.reseat(claimed)
        if account is not None:
            # The claimer's account holds the seat from now on, whoever's it was.
            hub.store.hold_seats(account.id, session.id, [seat], take=True)
        # A socket still naming the link's token is a spectator from now on: told at once.
        hub.broadcast(hub.sessions.get(session.id) or session)
    return JSONResponse({"seat": seat, "token": fresh})


def held_matches(body: dict[str, Any], required: bool = True) -> dict[str, list[str]]:
    """The ``matches`` field: at most ``MAX_MINE`` match ids, each with its tokens (400 if
    malformed, or absent when ``required``; absent otherwise: none)."""
    held = body.get("matches", None if required else {})
    if not isinstance(held, dict) or len(held) > MAX_MINE:
        raise ApiError(400, f"'matches' must map at most {MAX_MINE} match ids to their tokens")
    for key, tokens in held.items():
        if not MATCH_ID_PATTERN.fullmatch(key):
            raise ApiError(400, "'matches' holds a malformed match id")
        check_tokens(tokens)
    return held


def token_seats(hub: Hub, held: dict[str, list[str]]) -> dict[str, frozenset[int]]:
    """The seats that each match's tokens of ``held`` hold (matches gone, set aside or where
    they hold nothing left out)."""
    seats = {}
    for key, tokens in held.items():
        try:
            session = hub.session(key)
        except ApiError:
            continue  # gone or set aside: nothing to show
        found = hub.held(session, tokens)
        if found:
            seats[key] = found
    return seats


async def post_mine(request: Request) -> Response:
    """``POST /api/mine``: the matches that the given tokens, and the signed-in caller's
    account, hold a seat in; the caller's turns first, then those in progress, abandoned and
    finished, each newest first."""
    _count(request, "moves")  # it may load up to 200 matches: counted like a move
    body = await json_body(request)
    hub = _hub(request)
    seats = token_seats(hub, held_matches(body))
    account = signed_in(request, now())
    if account is not None:
        for key, found in hub.store.account_matches(account.id, MAX_MINE).items():
            seats[key] = seats.get(key, frozenset()) | found
    mine = []
    for key, found in seats.items():
        try:
            session = hub.session(key)
        except ApiError:
            continue
        # The stored summary: its time of the last change is the one the lobby lists.
        stored = hub.store.load(key)
        if stored is not None:
            mine.append(_entry(session, found, stored.summary))
    mine.sort(key=lambda entry: entry["updated"], reverse=True)
    mine.sort(key=lambda entry: _RANK[entry["state"]])
    return JSONResponse({"matches": mine})


_RANK = {"your turn": 0, "in progress": 1, "abandoned": 2, "finished": 3}


def _entry(session: MatchSession, seats: frozenset[int], summary: Summary) -> dict[str, Any]:
    to_move = session.to_move
    if summary.status == "finished":
        state = "finished"
    elif abandoned(summary):
        state = "abandoned"
    else:
        state = "your turn" if to_move in seats else "in progress"
    return {
        "id": session.id,
        "game": session.config.game,
        "players": list(session.names),
        "you": sorted(seats),
        "to_move": to_move,
        "state": state,
        "result": summary.result,
        "plies": summary.plies,
        "updated": summary.updated,
    }
