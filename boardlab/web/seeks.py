"""Finding an opponent: post a seek to the lobby, or accept one and the match starts at once.

A seek names a game with its options (two seats, or three to five for Colosseum Offcuts), a
time control, rated or casual and, for a rated seek, the range of ratings it is open to (on the
scale players read, 1500 to start: ``player_ratings``; every other player's rating in the
seek's game and speed must be within it, and every player signed in). A rated seek makes a
rated match between the accounts. Everything is checked as a new match's request is
(``creation.py``), before anything is stored. Posting answers with the seek's secret token: the
page keeps the seek alive over ``/ws/seeks`` (``seeks_live.py``) and, once the seek is taken,
that token is the poster's seat token in the new match. Accepting a seek of two seats takes it;
accepting one of more seats joins it (200 with the joiner's own secret token, which their page
keeps alive the same way) until the last seat is taken. The store decides who takes the last
seat (of two, even through two server processes, exactly one gets it); that accept makes the
match with everyone in a random seat and answers with its own token, and the other pages are
told over their websockets. Seats are held by their tokens and, for a signed-in player, by
the account too.
"""

from __future__ import annotations

import secrets
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from boardlab.core.options import SEED
from boardlab.web.account_cookie import signed_in
from boardlab.web.api import _count, _hub
from boardlab.web.clock import time_control
from boardlab.web.creation import make_game
from boardlab.web.errors import ApiError
from boardlab.web.hub import now
from boardlab.web.limits import request_key
from boardlab.web.player_ratings import START, points, speed_of
from boardlab.web.requests import MATCH_ID_PATTERN, check_tokens, json_body
from boardlab.web.seeks_live import live_since, seek_board
from boardlab.web.seeks_store import Seek, SeekJoin, SeekLimits, SeekRefused
from boardlab.web.sql_store import MAX_SEATS
from boardlab.web.store import Account, MatchConfig, SeatConfig, Store
from boardlab.web.tokens import new_match_id, new_token, token_hash

SEEKS_PER_ADDRESS = 3
SEEKS_PER_ACCOUNT = 3
MAX_SEEKS = 500
"""Open seeks on the server at most (every lobby page lists them all)."""
LIMITS = SeekLimits(SEEKS_PER_ADDRESS, SEEKS_PER_ACCOUNT, MAX_SEEKS)
"""Open seeks and joins one address, and one account, may have; open seeks in all."""
MIN_RATING, MAX_RATING = 0, 4000
"""The bounds of a rating range, on the scale players read (1500 to start, ``player_ratings``)."""
GUEST = "Guest"
GONE = "this seek was just taken or withdrawn"
REFUSED = {
    "gone": (409, GONE),
    "own": (409, "this is your own seek"),
    "twice": (409, "you have joined this seek already"),
    "address": (429, f"you have {SEEKS_PER_ADDRESS} seeks open already: withdraw one first"),
    "account": (429, f"you have {SEEKS_PER_ACCOUNT} seeks open already: withdraw one first"),
    "all": (503, "the lobby is full of seeks right now; try again soon"),
}
"""The answer to each reason the store refuses a seek or a join for."""


def _rating(body: dict[str, Any], key: str) -> int | None:
    value = body.get(key)
    if value is None:
        return None
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or not MIN_RATING <= value <= MAX_RATING
    ):
        raise ApiError(400, f"'{key}' must be null or a rating from {MIN_RATING} to {MAX_RATING}")
    return value


def seek_fields(
    body: dict[str, Any],
) -> tuple[str, dict[str, str], int, str, bool, int | None, int | None]:
    """The game, options, seats, time control, rated flag and rating range of a seek request,
    each checked (400 with the reason)."""
    game = make_game(body.get("game"), body.get("options", {}), 2)
    if not 2 <= game.num_players <= MAX_SEATS:
        raise ApiError(400, f"a seek is for a game of two to {MAX_SEATS} players")
    options = dict(game.option_items())
    if SEED not in (body.get("options") or {}):
        options.pop(SEED, None)  # each match it makes gets a fresh seed
    clock = time_control(body.get("clock")).text
    rated = body.get("rated", False)
    if not isinstance(rated, bool):
        raise ApiError(400, "'rated' must be true or false")
    low, high = _rating(body, "min_rating"), _rating(body, "max_rating")
    if (low is not None or high is not None) and not rated:
        raise ApiError(400, "a rating range is only for rated seeks")
    if low is not None and high is not None and low > high:
        raise ApiError(400, "'min_rating' must not be above 'max_rating'")
    return game.id, options, game.num_players, clock, rated, low, high


def _who(request: Request, account: Account | None) -> tuple[str | None, str, str]:
    """A seek's poster or joiner as a seek keeps them: account id, address and name."""
    if account is None:
        return None, request_key(request), GUEST
    return account.id, request_key(request), account.name


async def post_seek(request: Request) -> Response:
    """``POST /api/seeks`` ``{game, options, clock, rated, min_rating, max_rating}``: a new
    seek (201 with its id and secret token)."""
    _count(request, "creations")
    body = await json_body(request)
    game, options, seats, clock, rated, low, high = seek_fields(body)
    account = signed_in(request, now())
    if rated and account is None:
        raise ApiError(401, "sign in to post a rated seek: ratings belong to accounts")
    hub = _hub(request)
    token = new_token()
    when = now()
    seek = Seek(
        new_match_id(),
        token_hash(token),
        *_who(request, account),
        game,
        options,
        clock,
        rated,
        low,
        high,
        when,
        when,
        seats=seats,
    )
    try:
        # Counted and kept in one transaction: racing posts cannot pass the limits together.
        hub.store.add_seek(seek, LIMITS)
    except SeekRefused as refused:
        raise ApiError(*REFUSED[refused.reason]) from refused
    board = seek_board(request.app.state)
    board.changed()
    return JSONResponse({"id": seek.id, "token": token, "seek": board.entry(seek)}, status_code=201)


async def list_seeks(request: Request) -> Response:
    """``GET /api/seeks``: the open seeks (the lobby's websocket sends the same list)."""
    return JSONResponse({"seeks": seek_board(request.app.state).listing()})


def _open_seek(request: Request) -> Seek:
    seek_id = str(request.path_params["seek_id"])
    if MATCH_ID_PATTERN.fullmatch(seek_id):
        for seek in _hub(request).store.open_seeks(live_since()):
            if seek.id == seek_id:
                return seek
    raise ApiError(404, GONE)


def rating_of(store: Store, account_id: str, seek: Seek) -> int:
    """The account's rating in the seek's game at its speed, on the players' scale (the
    starting rating if it has played no rated game there)."""
    speed = speed_of(seek.clock)
    for rating in store.ratings(account_id):
        if rating.game == seek.game and rating.speed == speed:
            return points(rating.skill)
    return points(START)


async def post_accept(request: Request) -> Response:
    """``POST /api/seeks/<id>/accept``: take a seat in the seek. The last seat starts the match
    for everyone (201 with the accepter's seat and token, as ``POST /api/matches`` answers);
    another seat is joined (200 with the seek as listed and the joiner's secret token)."""
    _count(request, "creations")
    body = await json_body(request)
    own = {token_hash(token) for token in check_tokens(body.get("tokens", []))}
    seek = _open_seek(request)
    account = signed_in(request, now())
    if seek.token_hash in own or (account is not None and account.id == seek.account_id):
        raise ApiError(*REFUSED["own"])
    if seek.rated and account is None:
        raise ApiError(401, "sign in to accept a rated seek")
    hub = _hub(request)
    if account is not None and (seek.min_rating is not None or seek.max_rating is not None):
        mu = rating_of(hub.store, account.id, seek)
        low = MIN_RATING if seek.min_rating is None else seek.min_rating
        high = MAX_RATING if seek.max_rating is None else seek.max_rating
        if not low <= mu <= high:
            raise ApiError(
                403, f"your rating here ({mu}) is outside this seek's range ({low} to {high})"
            )
    game = make_game(seek.game, seek.options, seek.seats)
    token = new_token()
    when = now()
    join = SeekJoin(
        seek.id,
        token_hash(token),
        *_who(request, account),
        when,
        when,
    )
    match_id = new_match_id()
    order = secrets.SystemRandom().sample(range(seek.seats), seek.seats)
    try:
        # The store decides: of two accepts of the last seat, here or through another
        # process, one takes it; a page's tokens name the joins it made already.
        joined = hub.store.join_seek(seek.id, join, live_since(), match_id, order, own, LIMITS)
    except SeekRefused as refused:
        raise ApiError(*REFUSED[refused.reason]) from refused
    board = seek_board(request.app.state)
    taken = joined.seek
    if taken.match_id is None:
        board.changed()
        return JSONResponse({"joined": seek.id, "token": token, "seek": board.entry(taken)})
    seats = [SeatConfig("human", None, "")] * seek.seats
    seats[taken.seat or 0] = SeatConfig("human", None, taken.token_hash)
    for one in joined.joins:
        seats[one.seat or 0] = SeatConfig("human", None, one.token_hash)
    config = MatchConfig(
        match_id, game.id, dict(game.option_items()), tuple(seats), now(), seek.clock, seek.rated
    )
    hub.create(config, owner=request_key(request))
    for holder, seat in [
        (taken.account_id, taken.seat),
        *((one.account_id, one.seat) for one in joined.joins),
    ]:
        if holder is not None and seat is not None:
            hub.store.hold_seats(holder, match_id, [seat])
    board.tell_matched(taken.token_hash, seek.id, match_id, taken.seat or 0)
    for one in joined.joins[:-1]:
        board.tell_matched(one.token_hash, seek.id, match_id, one.seat or 0)
    board.changed()
    seat = joined.joins[-1].seat
    answer = {"id": match_id, "seats": [{"seat": seat, "kind": "human", "token": token}]}
    return JSONResponse(answer, status_code=201)


async def post_withdraw(request: Request) -> Response:
    """``POST /api/seeks/withdraw`` ``{"tokens": [...]}``: remove the open seeks of these
    tokens, and leave the seeks they joined (closing the page does both too)."""
    _count(request, "moves")
    body = await json_body(request)
    digests = {token_hash(token) for token in check_tokens(body.get("tokens"))}
    hub = _hub(request)
    gone = [seek.id for seek in hub.store.seeks_by_token(digests) if seek.match_id is None]
    hub.store.drop_seeks(gone)
    left = hub.store.leave_seeks(digests)
    board = seek_board(request.app.state)
    for client in board.clients:
        client.held.difference_update(gone)
        client.joins.difference_update(digests)
    board.changed()
    return JSONResponse({"withdrawn": len(gone), "left": len(left)})
