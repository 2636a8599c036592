"""Reading requests: size-limited JSON bodies, bearer tokens, and typed, bounded fields."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from starlette.requests import ClientDisconnect, Request

from boardlab.web.errors import ApiError
from boardlab.web.tokens import MAX_TOKEN_CHARS

MAX_BODY_BYTES = 64 * 1024
MAX_TOKENS = 8
MAX_TURN_CHARS = 4096
MAX_STEPS = 64
MAX_NAME_CHARS = 64
TOKEN_PATTERN = re.compile(rf"[A-Za-z0-9_-]{{1,{MAX_TOKEN_CHARS}}}")
MATCH_ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{16}")
MAX_QUERY_DIGITS = 9
"""Every integer of a query is far below a billion; longer digit strings are refused unread."""


async def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read at most ``MAX_BODY_BYTES`` far (413 beyond, 400 if bad)
    within the server's body time limit (408 after it)."""
    declared = request.headers.get("content-length")
    if declared is not None and (
        not (declared.isascii() and declared.isdigit())
        or len(declared) > MAX_QUERY_DIGITS
        or int(declared) > MAX_BODY_BYTES
    ):
        raise ApiError(413, f"the request body is larger than {MAX_BODY_BYTES} bytes")
    seconds = request.app.state.limits.body_seconds
    try:
        async with asyncio.timeout(seconds):
            raw = await _read_body(request)
    except TimeoutError as error:
        # The rest of the body may still come: close the connection rather than read it.
        raise ApiError(
            408,
            f"the request body did not arrive within {seconds:g} s",
            {"Connection": "close"},
        ) from error
    return parse_object(raw, "the request body")


async def _read_body(request: Request) -> bytes:
    """The body, refused (413) as soon as it grows past ``MAX_BODY_BYTES``."""
    chunks, size = [], 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY_BYTES:
                raise ApiError(413, f"the request body is larger than {MAX_BODY_BYTES} bytes")
            chunks.append(chunk)
    except ClientDisconnect as error:
        # Nobody reads the answer; this only ends the request without a logged traceback.
        raise ApiError(400, "the client left before sending its whole request") from error
    return b"".join(chunks)


def parse_object(raw: str | bytes, what: str) -> dict[str, Any]:
    """``raw`` decoded as one JSON object (400 naming ``what`` otherwise)."""
    try:
        data = json.loads(raw or b"{}")
    except RecursionError as error:
        raise ApiError(400, f"{what} is nested too deeply") from error
    except (ValueError, UnicodeDecodeError) as error:
        # ValueError also covers integers beyond Python's 4300-digit conversion limit.
        raise ApiError(400, f"{what} is not valid JSON") from error
    if not isinstance(data, dict):
        raise ApiError(400, f"{what} must be a JSON object")
    return data


def bearer_tokens(request: Request) -> list[str]:
    """The tokens of ``Authorization: Bearer t1[,t2...]`` (none: a spectator)."""
    header = request.headers.get("authorization", "")
    if not header:
        return []
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer":
        raise ApiError(400, "the Authorization header must be 'Bearer <token>[,<token>...]'")
    return check_tokens([part.strip() for part in value.split(",") if part.strip()])


def check_tokens(tokens: object) -> list[str]:
    """A list of well-formed tokens (400 otherwise)."""
    if not isinstance(tokens, list) or len(tokens) > MAX_TOKENS:
        raise ApiError(400, f"tokens must be a list of at most {MAX_TOKENS} strings")
    for token in tokens:
        if not isinstance(token, str) or not TOKEN_PATTERN.fullmatch(token):
            raise ApiError(400, "a token is malformed")
    return tokens


def match_id(request: Request) -> str:
    """The match id of the path (404 if it cannot be one)."""
    value = str(request.path_params["match_id"])
    if not MATCH_ID_PATTERN.fullmatch(value):
        raise ApiError(404, "there is no match with this id")
    return value


def field_int(data: dict[str, Any], key: str, low: int, high: int) -> int:
    """An integer field within ``low..high`` (400 otherwise)."""
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ApiError(400, f"'{key}' must be an integer from {low} to {high}")
    return value


def field_str(data: dict[str, Any], key: str, limit: int, required: bool = True) -> str | None:
    """A string field of at most ``limit`` characters (400 otherwise)."""
    value = data.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value or len(value) > limit:
        raise ApiError(400, f"'{key}' must be a non-empty string of at most {limit} characters")
    return value


def field_steps(data: dict[str, Any]) -> list[str]:
    """The ``steps`` list of a preview (possibly empty)."""
    steps = data.get("steps", [])
    if not isinstance(steps, list) or len(steps) > MAX_STEPS:
        raise ApiError(400, f"'steps' must be a list of at most {MAX_STEPS} decisions")
    for step in steps:
        if not isinstance(step, str) or not step or len(step) > MAX_NAME_CHARS:
            raise ApiError(400, "each step must be a decision in notation")
    return steps


def query_int(request: Request, key: str, default: int, low: int, high: int) -> int:
    """An integer query parameter within ``low..high``."""
    raw = request.query_params.get(key)
    if raw is None or raw == "":
        return default
    # isdigit() alone accepts digits int() refuses, such as superscripts.
    digits = raw.isascii() and raw.isdigit() and len(raw) <= MAX_QUERY_DIGITS
    if not digits or not low <= int(raw) <= high:
        raise ApiError(400, f"'{key}' must be an integer from {low} to {high}")
    return int(raw)
