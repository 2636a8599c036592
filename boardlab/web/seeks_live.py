"""The lobby's live list of seeks: a websocket per lobby page, which also keeps the seeks that
page posted alive.

A page opens ``/ws/seeks`` and names the tokens of the seeks it posted and joined
(``{"tokens": [...]}``, first and whenever it posts or joins another). It receives
``{"type": "seeks", "seeks": [...]}`` at once and after every change, and
``{"type": "matched", "seek", "match", "seat"}`` when the last seat of one of its seeks is
taken: the token it posted or joined with is then the page's seat token in that match. While
the socket is open this process notes its seeks and joins as seen every few seconds; when it
closes its seeks are removed and its joins left. A seek or join that no process has seen for
:data:`SEEK_TTL_SECONDS` (its page and server gone) is removed by whichever process looks next,
and every process re-reads the list every :data:`TICK_SECONDS`, so seeks posted, joined or
taken through another process show too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from starlette.datastructures import State
from starlette.websockets import WebSocket, WebSocketDisconnect

from boardlab.core.options import SEED
from boardlab.core.registry import game_class
from boardlab.web.clock import TimeControl
from boardlab.web.errors import ApiError
from boardlab.web.hub import Hub, now
from boardlab.web.live import MAX_MESSAGE_CHARS, POLICY_VIOLATION, TOO_BIG, _first_message
from boardlab.web.player_ratings import START, shown, speed_of
from boardlab.web.requests import check_tokens, parse_object
from boardlab.web.seeks_store import Seek
from boardlab.web.store import Store, StoreUnavailable
from boardlab.web.tokens import token_hash

LOG = logging.getLogger("boardlab.web")
SEEK_TTL_SECONDS = 30.0
"""A seek not seen for this long is gone (its page's process no longer renews it)."""
TICK_SECONDS = 5.0
"""How often a process renews its pages' seeks and re-reads the list."""
OUTBOX_MESSAGES = 8
"""Messages queued for one lobby page; a page this far behind is dropped (it reconnects)."""
SEND_SECONDS = 5.0
MAX_HELD = 8
"""Seeks one socket may keep (more than the per-address limit allows to post)."""


def live_since() -> str:
    """The oldest ``seen`` of a seek still alive, in the store's format."""
    moment = datetime.now(UTC) - timedelta(seconds=SEEK_TTL_SECONDS)
    return moment.isoformat(timespec="microseconds")


_DEFAULTS: dict[str, dict[str, str]] = {}


def changed_options(game: str, options: dict[str, str]) -> dict[str, str]:
    """The options of ``options`` that differ from ``game``'s defaults (what a seek shows)."""
    if game not in _DEFAULTS:
        _DEFAULTS[game] = dict(game_class(game)().option_items())
    defaults = _DEFAULTS[game]
    return {k: v for k, v in options.items() if k != SEED and defaults.get(k) != v}


def seek_entry(seek: Seek) -> dict[str, Any]:
    """A seek as the lobby lists it (never its token, address or account id), with its seats
    and how many are taken (the poster's included)."""
    cls = game_class(seek.game)
    return {
        "id": seek.id,
        "name": seek.name,
        "account": seek.account_id is not None,
        "game": seek.game,
        "game_name": cls.name,
        "options": changed_options(seek.game, seek.options),
        "clock": TimeControl.from_text(seek.clock).label,
        "rated": seek.rated,
        "min_rating": seek.min_rating,
        "max_rating": seek.max_rating,
        "created": seek.created,
        "seats": seek.seats,
        "taken": seek.joined + 1,
    }


def poster_rating(store: Store, account_id: str, seek: Seek) -> str:
    """The poster's rating in the seek's game and speed as players read it (``25.0 ± 16.7?``;
    the starting rating before any rated game there)."""
    speed = speed_of(seek.clock)
    for rating in store.ratings(account_id):
        if rating.game == seek.game and rating.speed == speed:
            return shown(rating.skill)
    return shown(START)


@dataclass(eq=False)
class SeekClient:
    """One lobby page's socket, the seeks it keeps alive (``held``: their ids; ``joins``: the
    token hashes of its open joins), the token hashes it named, and its queued messages."""

    socket: WebSocket
    held: set[str] = field(default_factory=set)
    joins: set[str] = field(default_factory=set)
    digests: set[str] = field(default_factory=set)
    outbox: asyncio.Queue[str | None] = field(
        default_factory=lambda: asyncio.Queue(OUTBOX_MESSAGES)
    )


@dataclass
class SeekBoard:
    """This process's lobby pages and the seeks they keep; the list they were last sent."""

    hub: Hub
    clients: set[SeekClient] = field(default_factory=set)
    shown: str = ""
    ticker: asyncio.Task[None] | None = None

    def listing(self) -> list[dict[str, Any]]:
        """The open seeks as the lobby lists them."""
        return [self.entry(seek) for seek in self.hub.store.open_seeks(live_since())]

    def entry(self, seek: Seek) -> dict[str, Any]:
        """A seek as the lobby lists it, a rated one with its poster's rating."""
        entry = seek_entry(seek)
        if seek.rated and seek.account_id is not None:
            entry["rating"] = poster_rating(self.hub.store, seek.account_id, seek)
        return entry

    def changed(self) -> None:
        """Send the list to every page if it changed since it was last sent."""
        text = json.dumps({"type": "seeks", "seeks": self.listing()})
        if text == self.shown:
            return
        self.shown = text
        for client in list(self.clients):
            self.push(client, text)

    def current(self) -> str:
        """The list as last sent while pages are open (kept up to date by every change here and
        by the tick for changes elsewhere), else read now: a page that opens costs no reads."""
        if not self.shown or self.ticker is None or self.ticker.done():
            self.changed()
        return self.shown

    def push(self, client: SeekClient, text: str) -> None:
        """Queue ``text`` for ``client``; a client too far behind is dropped."""
        try:
            client.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.clients.discard(client)
            with contextlib.suppress(asyncio.QueueFull):
                client.outbox.get_nowait()
                client.outbox.put_nowait(None)

    def keep(self, client: SeekClient, tokens: list[str]) -> None:
        """Make ``client`` keep the seeks and joins of ``tokens``; one whose seek was taken
        already is told at once, one that is gone is ignored."""
        digests = {token_hash(token) for token in tokens} - client.digests
        if len(client.digests | digests) > MAX_HELD:
            raise ApiError(400, f"a page keeps at most {MAX_HELD} seeks")
        client.digests |= digests
        # Taken while the page was away (its connection dropped just then): told now.
        for seek in self.hub.store.seeks_by_token(digests):
            if seek.match_id is None:
                client.held.add(seek.id)
            else:
                self.push(client, matched_message(seek.id, seek.match_id, seek.seat or 0))
        for join, match_id in self.hub.store.joins_by_token(digests):
            if match_id is None:
                client.joins.add(join.token_hash)
            else:
                self.push(client, matched_message(join.seek_id, match_id, join.seat or 0))

    def tell_matched(self, digest: str, seek_id: str, match_id: str, seat: int) -> None:
        """Tell the page that posted or joined ``seek_id`` with the token of hash ``digest``
        (if it is this process's) that the seek made ``match_id``, the page in ``seat``."""
        for client in list(self.clients):
            if digest in client.digests:
                client.held.discard(seek_id)
                client.joins.discard(digest)
                self.push(client, matched_message(seek_id, match_id, seat))

    def release(self, client: SeekClient) -> None:
        """The page left: its seeks go with it and its joins free their seats (or, if the
        store cannot be reached now, once nobody has renewed them for
        :data:`SEEK_TTL_SECONDS`)."""
        self.clients.discard(client)
        if client.held or client.joins:
            try:
                self.hub.store.drop_seeks(client.held)
                self.hub.store.leave_seeks(client.joins)
                self.changed()
            except StoreUnavailable:
                LOG.warning("seeks of a page that left are dropped once they expire instead")

    def tick(self) -> None:
        """Renew this process's seeks and joins, tell pages of seeks taken elsewhere, sweep
        the seeks and joins nobody renews, and send the list if it changed."""
        held = [seek for client in self.clients for seek in client.held]
        joins = [digest for client in self.clients for digest in client.joins]
        if held or joins:
            self.hub.store.touch_seeks(held, joins, now())
        for seek in self.hub.store.seeks_by_token(
            digest for client in self.clients for digest in client.digests
        ):
            if seek.match_id is not None and any(seek.id in c.held for c in self.clients):
                self.tell_matched(seek.token_hash, seek.id, seek.match_id, seek.seat or 0)
        for join, match_id in self.hub.store.joins_by_token(joins):
            if match_id is not None:
                self.tell_matched(join.token_hash, join.seek_id, match_id, join.seat or 0)
        self.hub.store.drop_stale_seeks(live_since())
        self.changed()

    async def run(self) -> None:
        """Tick while pages are open."""
        while self.clients:
            await asyncio.sleep(TICK_SECONDS)
            try:
                self.tick()
            except Exception:
                LOG.exception("the seeks' tick failed; it runs again in %g s", TICK_SECONDS)

    def join(self, client: SeekClient) -> None:
        """Add a page; the ticker runs while there is one."""
        self.clients.add(client)
        if self.ticker is None or self.ticker.done():
            self.ticker = asyncio.create_task(self.run())


def matched_message(seek_id: str, match_id: str, seat: int) -> str:
    """The message telling a page that its seek made ``match_id``, the page in ``seat``."""
    return json.dumps({"type": "matched", "seek": seek_id, "match": match_id, "seat": seat})


def seek_board(state: State) -> SeekBoard:
    """The app's seek board, made on first use."""
    board: SeekBoard | None = getattr(state, "seek_board", None)
    if board is None:
        board = SeekBoard(state.hub)
        state.seek_board = board
    return board


async def seeks_socket(socket: WebSocket) -> None:
    """``/ws/seeks``: messages ``{"tokens": [...]}`` name the seeks and joins this page keeps;
    the list
    comes back at once and after every change."""
    board = seek_board(socket.app.state)
    await socket.accept()
    client = SeekClient(socket)
    try:
        first = await _first_message(socket, socket.app.state.limits.first_message_seconds)
        if len(first) > MAX_MESSAGE_CHARS:
            await socket.close(TOO_BIG, "message too large")
            return
        board.keep(client, _tokens(first))
    except ApiError as error:
        await socket.send_json({"type": "error", "status": error.status, "error": error.message})
        await socket.close(POLICY_VIOLATION, error.message[:100])
        return
    except WebSocketDisconnect:
        return
    client.outbox.put_nowait(board.current())  # read before join: its ticker may not run yet
    board.join(client)
    sender = asyncio.create_task(_send(client))
    reader = asyncio.create_task(_read(board, client))
    try:
        try:
            await asyncio.wait((sender, reader), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (sender, reader):
                task.cancel()
            board.release(client)
            await asyncio.gather(sender, reader, return_exceptions=True)
    except asyncio.CancelledError:
        # The server is stopping and cancels what outlived its grace period: the page
        # reconnects to the next one, and there is nothing to report.
        return
    with contextlib.suppress(Exception):
        await asyncio.wait_for(socket.close(), SEND_SECONDS)


def _tokens(text: str) -> list[str]:
    return check_tokens(parse_object(text, "the message").get("tokens", []))


async def _send(client: SeekClient) -> None:
    while True:
        text = await client.outbox.get()
        if text is None:
            return
        await asyncio.wait_for(client.socket.send_text(text), SEND_SECONDS)


async def _read(board: SeekBoard, client: SeekClient) -> None:
    """Read the page's messages until it leaves; a malformed one ends the socket."""
    try:
        while True:
            message = await client.socket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text") or ""
            if len(text) > MAX_MESSAGE_CHARS:
                return
            try:
                board.keep(client, _tokens(text))
            except ApiError as error:
                await client.socket.send_json(
                    {"type": "error", "status": error.status, "error": error.message}
                )
                return
    except WebSocketDisconnect:
        pass
