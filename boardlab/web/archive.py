"""The archive of finished games (issue 41, item 4): kept as each match ends, and searched.

When a match ends with a result (an aborted one has none and is not kept), the hub's observer
rates it if it is rated (``player_ratings``) and then keeps it in the archive: its game,
options, time control, result, and for each seat the account that held it (or ``guest``, or
the bot's spec). ``GET /api/games`` searches it by game, player, result, date and options,
newest first, a page at a time.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any, get_args

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response

from boardlab.core.errors import BoardlabError
from boardlab.core.registry import game_class, game_ids, make
from boardlab.web.accounts import NAME_PATTERN
from boardlab.web.api import _hub
from boardlab.web.archive_store import ArchivedGame, ArchivedSeat, ArchiveQuery, SeatResult
from boardlab.web.clock import TimeControl
from boardlab.web.errors import ApiError
from boardlab.web.hub import now
from boardlab.web.player_ratings import rate, rated_accounts
from boardlab.web.requests import query_int
from boardlab.web.session import ABORTED, MatchSession
from boardlab.web.store import Event, Store, StoreUnavailable

LOG = logging.getLogger("boardlab.web")
STATIC = Path(__file__).parent / "static"
BACKFILL_BATCH = 50
"""Matches read at a time by :func:`backfill`."""
MAX_PAGE = 100
MAX_OPTION_FILTERS = 8
OPTION_PAIR = re.compile(r"([a-z0-9_]{1,40})=([^,]{1,200})")
CURSOR = re.compile(r"([0-9T:.+-]{10,40})~([A-Za-z0-9_-]{16})")
"""A page's ``after``: the ``ended`` time and id of the previous page's last game."""


def archived(store: Store, session: MatchSession, ended: str) -> ArchivedGame | None:
    """The archive's entry of a match that ended with a result (None otherwise)."""
    outcome = session.outcome
    if session.aborted or outcome is None:
        return None
    holders = store.seat_accounts(session.id)
    seats = []
    for seat, config in enumerate(session.config.seats):
        account = holders.get(seat)
        player = config.bot or ("human" if account is not None else "guest")
        seats.append(ArchivedSeat(seat, account, player, outcome.results[seat].value))
    return ArchivedGame(
        session.id,
        session.config.game,
        ended,
        outcome.describe(session.names),
        session.config.clock,
        rated_accounts(store, session) is not None,
        session.ply,
        tuple(seats),
        dict(session.config.options),
    )


def follow_finished(store: Store) -> Callable[[MatchSession, Event], None]:
    """The hub's observer of finished matches: rate a rated one, then keep it in the archive
    (each at most once, however often it is told)."""

    def follow(session: MatchSession, event: Event) -> None:
        if event.kind == "rematch" or not session.over:
            return
        ended = event.at or now()
        rate(store, session, ended)
        entry = archived(store, session, ended)
        if entry is not None:
            store.archive_game(entry)

    return follow


async def backfill(store: Store) -> int:
    """Rate and keep in the archive the finished matches it lacks (they ended before it
    existed, or in a process stopped before its observer ran), a batch at a time, giving the
    event loop its turn after each match; returns how many were added. Run in the background
    at start: a match that cannot be read is logged and left out."""
    after, added = "", 0
    while ids := await _unarchived(store, after):
        for match_id in ids:
            after = match_id
            try:
                stored = store.load(match_id)
                if stored is None:
                    continue
                session = MatchSession(stored)
                rate(store, session, stored.summary.updated)
                entry = archived(store, session, stored.summary.updated)
                if entry is not None and store.archive_game(entry):
                    added += 1
            except Exception:
                LOG.exception("match %s could not be kept in the archive", match_id)
            await asyncio.sleep(0)
    if added:
        LOG.info("%d finished matches added to the archive", added)
    return added


async def _unarchived(store: Store, after: str) -> list[str]:
    """The next batch of :func:`backfill` (none while the store cannot be reached: the next
    start tries again)."""
    try:
        return store.unarchived_matches(after, BACKFILL_BATCH, ABORTED)
    except StoreUnavailable:
        LOG.warning("the archive's catch-up stopped: the store cannot be reached")
        return []


async def games_page(request: Request) -> Response:
    """``GET /games``: the archive's search page."""
    return FileResponse(STATIC / "games.html", media_type="text/html")


async def get_games(request: Request) -> Response:
    """``GET /api/games``: finished games, newest first, filtered by ``game``, ``player``,
    ``result``, ``from`` and ``to`` (dates, both included), ``options`` (``key=value``
    pairs, comma-separated); ``limit`` per page and ``after`` (the ``next`` of the last page)."""
    store = _hub(request).store
    query = archive_query(request, store)
    games = store.search_games(query)
    page = [game_json(game) for game in games]
    full = len(games) == query.limit
    return JSONResponse(
        {"games": page, "next": f"{games[-1].ended}~{games[-1].id}" if full else None}
    )


def archive_query(request: Request, store: Store) -> ArchiveQuery:
    """The search of the request's query string (400 naming a malformed part; 404 for a
    player who does not exist)."""
    params = request.query_params
    game = params.get("game") or None
    if game is not None and game not in game_ids():
        raise ApiError(400, f"'game' must be one of: {', '.join(game_ids())}")
    account_id = None
    name = params.get("player") or None
    if name is not None:
        account_id = account_of(store, name)
    result = params.get("result") or None
    if result is not None and result not in get_args(SeatResult):
        raise ApiError(400, "'result' must be win, loss or draw")
    since = _day(params.get("from"), "from")
    until = _day(params.get("to"), "to")
    after = None
    if params.get("after"):
        found = CURSOR.fullmatch(params["after"])
        if found is None:
            raise ApiError(400, "'after' must be the 'next' of the previous page")
        after = (found[1], found[2])
    return ArchiveQuery(
        game,
        account_id,
        _result(result),
        None if since is None else since.isoformat(),
        None if until is None else (until + timedelta(days=1)).isoformat(),
        _options(params.get("options") or ""),
        after,
        query_int(request, "limit", 20, 1, MAX_PAGE),
    )


def account_of(store: Store, name: str) -> str:
    """The id of the account named ``name`` (400 if no name could be it, 404 if none is)."""
    if not NAME_PATTERN.fullmatch(name):
        raise ApiError(400, "a player's name is 3 to 20 letters, digits, _ or -")
    account = store.account_named(name.lower())
    if account is None:
        raise ApiError(404, f"there is no player named {name}")
    return account.id


def _day(text: str | None, key: str) -> date | None:
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ApiError(400, f"'{key}' must be a date written YYYY-MM-DD") from None


def _result(text: str | None) -> SeatResult | None:
    for result in get_args(SeatResult):
        if text == result:
            return result  # type: ignore[no-any-return]
    return None


def _options(text: str) -> tuple[tuple[str, str], ...]:
    """``key=value,key=value`` as pairs (400 if malformed or too many)."""
    if not text:
        return ()
    pairs = text.split(",")
    found = [OPTION_PAIR.fullmatch(pair.strip()) for pair in pairs]
    if len(pairs) > MAX_OPTION_FILTERS or any(match is None for match in found):
        raise ApiError(
            400, f"'options' must be at most {MAX_OPTION_FILTERS} key=value pairs, comma-separated"
        )
    return tuple((match[1], match[2]) for match in found if match is not None)


def game_json(game: ArchivedGame) -> dict[str, Any]:
    """A game of the archive as the API lists it."""
    sides = _sides(game.game, tuple(sorted(game.options.items())))
    return {
        "id": game.id,
        "game": game.game,
        "game_name": _game_name(game.game),
        "ended": game.ended,
        "result": game.result,
        "clock": _clock_label(game.clock),
        "rated": game.rated,
        "plies": game.plies,
        "imported": game.imported_by is not None,
        "options": game.options,
        "players": [
            {
                "seat": seat.seat,
                "side": sides[seat.seat] if seat.seat < len(sides) else str(seat.seat),
                "name": seat.name,
                "player": seat.player,
                "result": seat.result,
            }
            for seat in game.seats
        ],
    }


@functools.lru_cache(maxsize=256)
def _sides(game_id: str, options: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    try:
        return make(game_id, **dict(options)).player_names
    except Exception:
        return ()  # options this code no longer reads: the seats are numbered instead


@functools.lru_cache(maxsize=16)
def _game_name(game_id: str) -> str:
    try:
        return game_class(game_id).name
    except BoardlabError:
        return game_id  # a game this code no longer has: its id


@functools.lru_cache(maxsize=64)
def _clock_label(text: str) -> str:
    return TimeControl.from_text(text).label if text else "no clock"
