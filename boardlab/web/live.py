"""The websocket: a client names its tokens once (and its handshake carries the session cookie
of a signed-in player), then receives its view after every change."""

from __future__ import annotations

import asyncio
import contextlib

from starlette.websockets import WebSocket, WebSocketDisconnect

from boardlab.web.account_cookie import session_digest
from boardlab.web.errors import ApiError
from boardlab.web.hub import Client, Hub
from boardlab.web.requests import MATCH_ID_PATTERN, check_tokens, parse_object
from boardlab.web.tokens import token_hash

MAX_MESSAGE_CHARS = 4096
POLICY_VIOLATION = 1008
TOO_BIG = 1009
TRY_AGAIN = 1013
CLOSE_SECONDS = 1.0


async def match_socket(socket: WebSocket) -> None:
    """``/ws/matches/<id>``: first message ``{"tokens": [...]}``, then views as they change."""
    hub: Hub = socket.app.state.hub
    await socket.accept()
    match_id = str(socket.path_params["match_id"])
    try:
        first = await _first_message(socket, socket.app.state.limits.first_message_seconds)
        if len(first) > MAX_MESSAGE_CHARS:
            await socket.close(TOO_BIG, "message too large")
            return
        if not MATCH_ID_PATTERN.fullmatch(match_id):
            raise ApiError(404, "there is no match with this id")
        hello = parse_object(first, "the first message")
        tokens = check_tokens(hello.get("tokens"))
        session = await hub.settled(hub.session(match_id))
    except ApiError as error:
        await socket.send_json({"type": "error", "status": error.status, "error": error.message})
        await socket.close(POLICY_VIOLATION, error.message[:100])
        return
    except WebSocketDisconnect:
        return
    # The handshake's session cookie: a signed-in player's seats follow their account.
    account = session_digest(socket.cookies)
    client = Client(socket, tuple(token_hash(token) for token in tokens), account)
    hub.join(session, client)
    # The client's own task sends its messages; this one reads until the client goes away.
    sender = asyncio.create_task(hub.pump(match_id, client))
    reader = asyncio.create_task(_read_until_closed(socket))
    try:
        await asyncio.wait((sender, reader), return_when=asyncio.FIRST_COMPLETED)
    finally:
        hub.leave(match_id, client)
        for task in (sender, reader):
            task.cancel()
        await asyncio.gather(sender, reader, return_exceptions=True)
    if sender.done() and not reader.done():
        # Dropped (too slow) or failed: a close frame if it can still be written, then the
        # server closes the connection (the page reconnects and reads the view afresh).
        with contextlib.suppress(Exception):
            await asyncio.wait_for(socket.close(TRY_AGAIN, "too slow; reconnect"), CLOSE_SECONDS)


async def _read_until_closed(socket: WebSocket) -> None:
    """Read (and ignore) what the client sends until it closes or sends too much."""
    try:
        while True:
            # Later messages mean nothing; they are read only to notice the client leaving.
            message = await socket.receive()
            if message["type"] == "websocket.disconnect":
                return
            if len(message.get("text") or message.get("bytes") or "") > MAX_MESSAGE_CHARS:
                await socket.close(TOO_BIG, "message too large")
                return
    except WebSocketDisconnect:
        pass


async def _first_message(socket: WebSocket, seconds: float) -> str:
    """The text of the first message, which must come within ``seconds`` (an ApiError if it
    does not, or is binary)."""
    try:
        async with asyncio.timeout(seconds):
            message = await socket.receive()
    except TimeoutError as error:
        raise ApiError(408, f"no first message within {seconds:g} s") from error
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        raise ApiError(400, "the first message must be JSON text, not binary")
    return str(text)
