"""A match's chat: the players' channel, which only the seats' holders read, and the
spectators' channel, which everyone reads unless a player turned it off.

A line is what a person typed, cleaned of control characters and kept in the store beside the
match (never among its events, so never in its record); the server adds no line of its own, so
nothing in the chat can tell what a position hides. Lines reach the match's websockets as
``{"type": "chat", ...}`` messages, each client getting only the channels it may read, its
seats read again for every line (an invite link claimed since holds nothing any more). With
other server processes on the store, a line said through any of them reaches this one's
clients too (:mod:`boardlab.web.sharing`), by the same rules.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from boardlab.web.account_cookie import signed_in
from boardlab.web.api import _count, _match, held_by_caller
from boardlab.web.errors import ApiError
from boardlab.web.hub import Hub, now
from boardlab.web.limits import RateLimiter
from boardlab.web.requests import json_body
from boardlab.web.session import MatchSession, to_json
from boardlab.web.store import Channel, ChatLine

MAX_CHAT_CHARS = 300
"""The longest chat line, in characters, once cleaned."""
CHAT_HISTORY = 100
"""Lines a page gets when it opens (the last of the channels it may read)."""
CHANNELS: tuple[Channel, ...] = ("players", "spectators")
BIDI_CONTROLS = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Format characters that reorder the text around them (a line could pass for another's)."""
SPECTATOR = "Spectator"
"""The name of a spectator who is not signed in."""
CLOSED = "the players have turned the spectators' chat off"


def clean_text(text: str) -> str:
    """``text`` without control characters (line breaks and tabs become spaces) or bidi
    controls, trimmed."""
    kept = []
    for char in text:
        if char in "\n\r\t":
            kept.append(" ")
        elif unicodedata.category(char) != "Cc" and char not in BIDI_CONTROLS:
            kept.append(char)
    return "".join(kept).strip()


def line_data(line: ChatLine) -> dict[str, Any]:
    """A chat line as the API sends it."""
    return {
        "index": line.index,
        "channel": line.channel,
        "seat": line.seat,
        "name": line.name,
        "text": line.text,
        "at": line.at,
    }


def may_read(channel: Channel, held: frozenset[int], spectators: bool) -> bool:
    """Whether a client holding ``held`` may read ``channel``, the spectators' chat being on
    or not: the players' chat is the seats' alone, the spectators' everyone's while it is on."""
    return bool(held) if channel == "players" else spectators


def readable(hub: Hub, session: MatchSession, held: frozenset[int]) -> tuple[Channel, ...]:
    """The channels a client holding ``held`` may read now."""
    spectators = not hub.store.spectator_chat_closed(session.id)
    return tuple(channel for channel in CHANNELS if may_read(channel, held, spectators))


def chat_message(lines: list[ChatLine], spectators_open: bool) -> str:
    """The websocket message carrying ``lines`` and whether the spectators' chat is on."""
    data = [line_data(line) for line in lines]
    return to_json({"type": "chat", "lines": data, "spectators": spectators_open})


def deliver(hub: Hub, session: MatchSession, lines: Sequence[ChatLine], spectators: bool) -> None:
    """Queue for every client of the match the ``lines`` it may read, each client's seats
    read now, with whether the spectators' chat is on; a client who may read none of them gets
    nothing, unless there are none (the spectators' chat was turned on or off)."""
    for client in hub.followers(session.id):
        held = hub.held_by(session, client)
        shown = [line for line in lines if may_read(line.channel, held, spectators)]
        if shown or not lines:
            hub.push(session.id, client, chat_message(shown, spectators))


def said_after(hub: Hub, session: MatchSession, number: int) -> list[ChatLine]:
    """The lines of the match's chat (of its last ``CHAT_HISTORY``, every channel) after line
    ``number``, oldest first."""
    lines = hub.store.chat(session.id, CHANNELS, CHAT_HISTORY)
    return [line for line in lines if line.index > number]


async def get_chat(request: Request) -> Response:
    """``GET /api/matches/<id>/chat``: the last lines of the channels the caller may read."""
    hub, session = _match(request)
    channels = readable(hub, session, held_by_caller(request, session))
    lines = hub.store.chat(session.id, channels, CHAT_HISTORY)
    return JSONResponse(
        {"lines": [line_data(line) for line in lines], "spectators": "spectators" in channels}
    )


def _channel(value: object) -> Channel:
    if value == "players":
        return "players"
    if value == "spectators":
        return "spectators"
    raise ApiError(400, "'channel' must be players or spectators")


async def post_chat(request: Request) -> Response:
    """``POST /api/matches/<id>/chat`` ``{"channel", "text"}``: say a line (201 with it)."""
    _count(request, "chat_lines")
    hub, session = _match(request)
    body = await json_body(request)
    channel = _channel(body.get("channel"))
    raw = body.get("text")
    if not isinstance(raw, str) or len(raw) > MAX_CHAT_CHARS * 4:
        raise ApiError(400, f"'text' must be a line of at most {MAX_CHAT_CHARS} characters")
    text = clean_text(raw)
    if not text:
        raise ApiError(400, "a chat line needs some text")
    if len(text) > MAX_CHAT_CHARS:
        raise ApiError(400, f"a chat line is at most {MAX_CHAT_CHARS} characters")
    held = held_by_caller(request, session)
    if channel == "players" and not held:
        raise ApiError(403, "only the players read and write the players' chat")
    if channel == "spectators" and hub.store.spectator_chat_closed(session.id):
        raise ApiError(409, CLOSED)
    seat = min(held) if held else None
    if seat is not None:
        # A seat's allowance too, whatever the addresses its holder writes from.
        seats: RateLimiter = request.app.state.chat_seats
        seats.take(f"{session.id}/{seat}")
    account = signed_in(request, now())
    name = account.name if account else SPECTATOR if seat is None else session.names[seat]
    line = hub.store.add_chat(session.id, channel, seat, name, text, now())
    deliver(hub, session, [line], "spectators" in readable(hub, session, held))
    if hub.sharing is not None:
        hub.sharing.chat_sent(session.id, line.index)
    return JSONResponse({"line": line_data(line)}, status_code=201)


async def post_spectator_chat(request: Request) -> Response:
    """``POST /api/matches/<id>/chat/spectators`` ``{"open": bool}``: a player turns the
    spectators' chat on or off for everyone."""
    _count(request, "moves")
    hub, session = _match(request)
    body = await json_body(request)
    wanted = body.get("open")
    if not isinstance(wanted, bool):
        raise ApiError(400, "'open' must be true or false")
    held = held_by_caller(request, session)
    if not held:
        raise ApiError(403, "only the players can turn the spectators' chat on or off")
    hub.store.close_spectator_chat(session.id, None if wanted else min(held), now())
    deliver(hub, session, [], wanted)
    return JSONResponse({"spectators": wanted})
