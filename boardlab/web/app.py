"""The ASGI app: pages, static files, the JSON API and the websocket, wired to one hub."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from boardlab.core.render_model import SPECTATOR
from boardlab.render.svg import render_svg
from boardlab.web import accounts, analysis, api, chat, seating, seeks
from boardlab.web.access_log import AccessLog
from boardlab.web.archive import backfill, follow_finished, games_page, get_games
from boardlab.web.archive_records import get_imported_record, get_records_zip, post_import
from boardlab.web.catalogue import build_catalogue
from boardlab.web.client_limits import ClientLimits
from boardlab.web.errors import ApiError
from boardlab.web.hub import DEFAULT_LIVE_MATCHES, Hub
from boardlab.web.limits import Limits, RateLimiter
from boardlab.web.live import match_socket
from boardlab.web.notifications import Notifier
from boardlab.web.notifications_api import (
    get_notifications,
    post_notifications,
    post_unsubscribe,
    unsubscribe_page,
)
from boardlab.web.notifications_settings import MailSettings
from boardlab.web.origin import CrossSiteGuard
from boardlab.web.playtest_routes import PLAYTEST_ROUTES
from boardlab.web.profiles import get_player, profile_page
from boardlab.web.rules import rules_page
from boardlab.web.seeks_live import seeks_socket
from boardlab.web.store import StoreUnavailable
from boardlab.web.stores import open_store

STATIC = Path(__file__).parent / "static"
LOG = logging.getLogger("boardlab.web")

SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        b"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    ),
]


class SecurityHeaders:
    """Adds the same defensive headers to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, adding the headers to the response start."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _page(name: str) -> Response:
    return FileResponse(STATIC / name, media_type="text/html")


async def lobby_page(request: Request) -> Response:
    """``GET /``: the lobby."""
    return _page("index.html")


async def match_page(request: Request) -> Response:
    """``GET /match/<id>``: the game page (the page reads the id from its address)."""
    return _page("match.html")


async def analysis_page(request: Request) -> Response:
    """``GET /analysis``: the analysis board (its source is in the query string)."""
    return _page("analysis.html")


async def account_page(request: Request) -> Response:
    """``GET /account``: sign up, sign in, and the signed-in player's account."""
    return _page("account.html")


async def catalogue(request: Request) -> Response:
    """``GET /api/catalogue``: games, options and bot levels for the lobby."""
    state = request.app.state
    if state.catalogue is None:
        # Built on first use and kept: it changes only when the code does.
        state.catalogue = build_catalogue(
            lambda game: render_svg(game.new_initial_state().render_model(view=SPECTATOR))
        )
    data: dict[str, Any] = state.catalogue
    return JSONResponse(data)


async def api_error(request: Request, exc: Exception) -> Response:
    """A refused request: its status and one sentence."""
    assert isinstance(exc, ApiError)
    return JSONResponse({"error": exc.message}, status_code=exc.status, headers=exc.headers)


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own errors (404, 405) as the API's one-sentence JSON."""
    assert isinstance(exc, HTTPException)
    return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)


async def store_unavailable(request: Request, exc: Exception) -> Response:
    """The store cannot be reached now (its database server is down, which the store's pool
    logs): 503, try again soon. Nothing was changed, or the reloaded match says what was."""
    return JSONResponse(
        {"error": "the match store is unavailable for a moment; try again"},
        status_code=503,
        headers={"Retry-After": "5"},
    )


async def server_error(request: Request, exc: Exception) -> Response:
    """Anything unexpected: logged here, one sentence to the client, never a traceback."""
    LOG.exception("unexpected error on %s %s", request.method, request.url.path)
    # Answered outside the middleware (Starlette's outermost layer): the headers are added here.
    headers = {key.decode(): value.decode() for key, value in SECURITY_HEADERS}
    return JSONResponse(
        {"error": "the server failed; nothing was changed"}, status_code=500, headers=headers
    )


def create_app(
    db_path: Path | str,
    bot_workers: int = 2,
    ready: Callable[[], None] | None = None,
    limits: Limits | None = None,
    live_matches: int = DEFAULT_LIVE_MATCHES,
    prepare_bots: bool = True,
    say: Callable[[str], None] = lambda line: None,
    allowed_hosts: Sequence[str] | None = None,
    mail: MailSettings | None = None,
) -> Starlette:
    """The app, storing its matches in the SQLite file ``db_path`` (or the PostgreSQL database
    of a ``postgresql://`` URL: ``boardlab.web.stores``) and keeping at most
    ``live_matches`` of them in memory; ``ready`` is called once it has started and answers
    requests; ``limits`` bound what each client may ask. With ``prepare_bots`` the bot
    workers load every game's compiled bots at start (``say`` tells the operator how it goes).
    ``allowed_hosts`` are the names the ``Host`` header may carry (None: any). With ``mail``
    (an SMTP server), accounts that opted in are mailed when it is their move
    (``boardlab.web.notifications``)."""
    limits = limits or Limits()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        app.state.catalogue = None
        app.state.limits = limits
        app.state.creations = RateLimiter(
            "match creations", limits.creations_per_minute, limits.creation_burst
        )
        app.state.moves = RateLimiter("moves", limits.moves_per_minute, limits.move_burst)
        app.state.chat_lines = RateLimiter(
            "chat lines", limits.chat_lines_per_minute, limits.chat_burst
        )
        app.state.chat_seats = RateLimiter(
            "chat lines for this seat", limits.chat_lines_per_minute, limits.chat_burst
        )
        app.state.account_attempts = RateLimiter(
            "account attempts", limits.account_attempts_per_minute, limits.account_attempt_burst
        )
        app.state.account_names = RateLimiter(
            "attempts for this account name",
            limits.account_attempts_per_minute,
            limits.account_attempt_burst,
        )
        # What is loaded by now lives as long as the server: keep it out of every garbage
        # collection, whose full passes would otherwise stall all matches to scan it.
        gc.collect()
        gc.freeze()
        store = open_store(db_path)
        hub = Hub(store, bot_workers, live_matches, prepare=prepare_bots)
        app.state.hub = hub
        app.state.mail = mail
        notifier = None if mail is None else Notifier(hub, mail)
        if notifier is not None:
            notifier.start()
        hub.start_workers(say)
        hub.share()  # with other processes on a PostgreSQL store: follow them, share the work
        hub.observers.append(follow_finished(store))  # ratings and the archive
        archiving = asyncio.create_task(backfill(store))  # finished matches it lacks
        resumed = hub.resume_bots()
        if resumed:
            LOG.warning("resumed %d pending bot turn(s)", resumed)
        if ready is not None:
            ready()
        try:
            yield
        finally:
            archiving.cancel()
            if notifier is not None:
                notifier.stop()
            await hub.close()
            store.close()

    routes = [
        Route("/", lobby_page),
        Route("/match/{match_id}", match_page),
        Route("/rules/{game}", rules_page),
        Route("/analysis", analysis_page),
        Route("/account", account_page),
        Route("/players/{name}", profile_page),
        Route("/games", games_page),
        Route("/api/catalogue", catalogue),
        Route("/api/health", api.get_health),
        Route("/api/matches", api.create_match, methods=["POST"]),
        Route("/api/matches", api.list_matches, methods=["GET"]),
        Route("/api/matches/{match_id}", api.get_view),
        Route("/api/matches/{match_id}/position", api.get_position),
        Route("/api/matches/{match_id}/preview", api.post_preview, methods=["POST"]),
        Route("/api/matches/{match_id}/turn", api.post_turn, methods=["POST"]),
        Route("/api/matches/{match_id}/resign", api.post_resign, methods=["POST"]),
        Route("/api/matches/{match_id}/takeback", api.post_takeback, methods=["POST"]),
        Route("/api/matches/{match_id}/offer", api.post_offer, methods=["POST"]),
        Route("/api/matches/{match_id}/accept", api.post_accept, methods=["POST"]),
        Route("/api/matches/{match_id}/decline", api.post_decline, methods=["POST"]),
        Route("/api/matches/{match_id}/rematch", api.post_rematch, methods=["POST"]),
        Route("/api/matches/{match_id}/record", api.get_record),
        Route("/api/matches/{match_id}/abort", api.post_abort, methods=["POST"]),
        Route("/api/matches/{match_id}/chat", chat.get_chat, methods=["GET"]),
        Route("/api/matches/{match_id}/chat", chat.post_chat, methods=["POST"]),
        Route(
            "/api/matches/{match_id}/chat/spectators", chat.post_spectator_chat, methods=["POST"]
        ),
        Route("/api/matches/{match_id}/claim", seating.post_claim, methods=["POST"]),
        Route("/api/mine", seating.post_mine, methods=["POST"]),
        Route("/api/seeks", seeks.list_seeks, methods=["GET"]),
        Route("/api/seeks", seeks.post_seek, methods=["POST"]),
        Route("/api/seeks/withdraw", seeks.post_withdraw, methods=["POST"]),
        Route("/api/seeks/{seek_id}/accept", seeks.post_accept, methods=["POST"]),
        Route("/api/account", accounts.get_account),
        Route("/api/account/signup", accounts.post_signup, methods=["POST"]),
        Route("/api/account/signin", accounts.post_signin, methods=["POST"]),
        Route("/api/account/signout", accounts.post_signout, methods=["POST"]),
        Route("/api/account/password", accounts.post_password, methods=["POST"]),
        Route("/api/account/delete", accounts.post_delete, methods=["POST"]),
        Route("/api/account/notifications", get_notifications, methods=["GET"]),
        Route("/api/account/notifications", post_notifications, methods=["POST"]),
        Route("/unsubscribe/{token}", unsubscribe_page, methods=["GET"]),
        Route("/unsubscribe/{token}", post_unsubscribe, methods=["POST"]),
        Route("/api/account/records.zip", get_records_zip),
        Route("/api/account/import", post_import, methods=["POST"]),
        Route("/api/players/{name}", get_player),
        Route("/api/games", get_games),
        Route("/api/games/{game_id}/record", get_imported_record),
        Route("/api/analysis/open", analysis.post_open, methods=["POST"]),
        Route("/api/analysis/position", analysis.post_position, methods=["POST"]),
        Route("/api/analysis/evaluate", analysis.post_evaluate, methods=["POST"]),
        Route("/api/analysis/play", analysis.post_play, methods=["POST"]),
        *PLAYTEST_ROUTES,
        WebSocketRoute("/ws/matches/{match_id}", match_socket),
        WebSocketRoute("/ws/seeks", seeks_socket),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    return Starlette(
        routes=routes,
        # The headers go on every answer, refusals of the guard included.
        middleware=[
            Middleware(AccessLog),
            Middleware(SecurityHeaders),
            Middleware(ClientLimits, limits=limits),
            Middleware(CrossSiteGuard, hosts=allowed_hosts),
        ],
        exception_handlers={
            ApiError: api_error,
            HTTPException: http_error,
            StoreUnavailable: store_unavailable,
            Exception: server_error,
        },
        lifespan=lifespan,
    )
