"""The websocket: a client names its tokens once, then receives its view after every change."""

from __future__ import annotations

import json

from starlette.websockets import WebSocket, WebSocketDisconnect

from boardlab.web.errors import ApiError
from boardlab.web.hub import Client, Hub
from boardlab.web.requests import MATCH_ID_PATTERN, check_tokens

MAX_MESSAGE_CHARS = 4096
POLICY_VIOLATION = 1008
TOO_BIG = 1009


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
    try:
        async with session.lock:
            await socket.send_text(session.view_message(client.held))
        while True:
            message = await socket.receive_text()
            if len(message) > MAX_MESSAGE_CHARS:
                await socket.close(TOO_BIG, "message too large")
                return
    except WebSocketDisconnect:
        pass
    finally:
        hub.leave(session, client)
