"""The websocket: a client names its tokens once, then receives its view after every change."""

from __future__ import annotations

import asyncio
import contextlib
import json

from starlette.websockets import WebSocket, WebSocketDisconnect

from boardlab.web.errors import ApiError
from boardlab.web.hub import Client, Hub
from boardlab.web.requests import MATCH_ID_PATTERN, check_tokens

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
        first = await socket.receive_text()
        if len(first) > MAX_MESSAGE_CHARS:
            await socket.close(TOO_BIG, "message too large")
            return
        if not MATCH_ID_PATTERN.fullmatch(match_id):
            raise ApiError(404, "there is no match with this id")
        try:
            hello = json.loads(first)
        except json.JSONDecodeError as error:
            raise ApiError(400, "the first message must be JSON") from error
        tokens = check_tokens(hello.get("tokens") if isinstance(hello, dict) else None)
        session = hub.session(match_id)
    except ApiError as error:
        await socket.send_json({"type": "error", "status": error.status, "error": error.message})
        await socket.close(POLICY_VIOLATION, error.message[:100])
        return
    except WebSocketDisconnect:
        return
    client = Client(socket, hub.held(session, tokens))
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
            message = await socket.receive_text()
            if len(message) > MAX_MESSAGE_CHARS:
                await socket.close(TOO_BIG, "message too large")
                return
    except WebSocketDisconnect:
        pass
