"""Reading requests: size-limited JSON bodies, bearer tokens, and typed, bounded fields."""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.requests import Request

from boardlab.web.errors import ApiError
from boardlab.web.tokens import MAX_TOKEN_CHARS

MAX_BODY_BYTES = 64 * 1024
MAX_TOKENS = 8
MAX_TURN_CHARS = 4096
MAX_STEPS = 64
MAX_NAME_CHARS = 64
TOKEN_PATTERN = re.compile(rf"[A-Za-z0-9_-]{{1,{MAX_TOKEN_CHARS}}}")
MATCH_ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{16}")


async def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read at most ``MAX_BODY_BYTES`` far (413 beyond, 400 if bad)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY_BYTES):
        raise ApiError(413, f"the request body is larger than {MAX_BODY_BYTES} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise ApiError(413, f"the request body is larger than {MAX_BODY_BYTES} bytes")
        chunks.append(chunk)
    try:
        data = json.loads(b"".join(chunks) or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ApiError(400, "the request body is not valid JSON") from error
    if not isinstance(data, dict):
        raise ApiError(400, "the request body must be a JSON object")
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
    if not raw.isdigit() or not low <= int(raw) <= high:
        raise ApiError(400, f"'{key}' must be an integer from {low} to {high}")
    return int(raw)
