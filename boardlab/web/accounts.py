"""Optional accounts: sign up, sign in and out, change the password, delete the account.

A name is 3 to 20 letters, digits, ``_`` or ``-``, unique whatever its case; a password is 8
to 200 characters, kept only as an argon2id hash (argon2-cffi's defaults: 3 passes over 64 MiB,
4 lanes), computed in a worker thread, two at a time at most, so the event loop never waits on
it. Every attempt that hashes a password is counted per address and per account name (429 once
spent), so guessing a password is slowed from one address as from many. Signing in always
issues a new session id (a cookie set before, by anyone, is never the one after); changing the
password ends every session of the account and issues a new one. A guest who signs up or in
sends the tokens their browser holds (``matches``, as for ``POST /api/mine``): the seats those
tokens really hold become the account's.
"""

from __future__ import annotations

import asyncio
import re
import secrets
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from boardlab.web.account_cookie import (
    COOKIE,
    clear_session_cookie,
    live_since,
    new_session_id,
    session_digest,
    set_session_cookie,
    signed_in,
)
from boardlab.web.api import _count, _hub
from boardlab.web.errors import ApiError
from boardlab.web.hub import now
from boardlab.web.limits import RateLimiter
from boardlab.web.refusals import REFUSALS
from boardlab.web.requests import json_body
from boardlab.web.seating import held_matches, token_seats
from boardlab.web.store import Account
from boardlab.web.tokens import token_hash

NAME_PATTERN = re.compile(r"[A-Za-z0-9_-]{3,20}")
NAME_RULE = "a name is 3 to 20 letters, digits, _ or -"
MIN_PASSWORD, MAX_PASSWORD = 8, 200
WRONG = "wrong name or password"
TAKEN = "that name is taken; choose another"
HASHER = PasswordHasher()
HASHING = asyncio.Semaphore(2)
"""Hashes computed at once (each takes 64 MiB and tens of milliseconds of a core)."""
_DUMMY: list[str] = []
"""A hash to verify against when the name is unknown, so that the answer takes as long."""


async def _hash(password: str) -> str:
    async with HASHING:
        return await asyncio.to_thread(HASHER.hash, password)


async def _verify(stored: str, password: str) -> bool:
    async with HASHING:
        try:
            return await asyncio.to_thread(HASHER.verify, stored, password)
        except (VerificationError, InvalidHashError):
            return False


async def _checked(account: Account | None, password: str) -> Account:
    """``account`` if ``password`` is its password (401 otherwise, after as long a wait)."""
    if account is None:
        if not _DUMMY:
            _DUMMY.append(await _hash(secrets.token_urlsafe(16)))
        await _verify(_DUMMY[0], password)
    elif await _verify(account.password, password):
        return account
    raise ApiError(401, WRONG)


def _attempt(request: Request, name_key: str) -> None:
    """Count an attempt against the address's and the name's allowances (429 once spent)."""
    _count(request, "account_attempts")
    names: RateLimiter = request.app.state.account_names
    names.take(name_key)


def _password(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not MIN_PASSWORD <= len(value) <= MAX_PASSWORD:
        raise ApiError(
            400, f"'{key}' must be a password of {MIN_PASSWORD} to {MAX_PASSWORD} characters"
        )
    return value


def _name(data: dict[str, Any]) -> str:
    value = data.get("name")
    if not isinstance(value, str) or not NAME_PATTERN.fullmatch(value):
        raise ApiError(400, f"'name': {NAME_RULE}")
    return value


def _public(account: Account | None) -> dict[str, Any]:
    if account is None:
        return {"account": None}
    return {"account": {"name": account.name, "created": account.created}}


def _current(request: Request) -> Account:
    """The signed-in caller's account (401 for a guest)."""
    account = signed_in(request, now())
    if account is None:
        raise ApiError(401, "sign in first")
    return account


async def _start_session(
    request: Request, account: Account, body: dict[str, Any], status: int = 200
) -> Response:
    """A new session of ``account`` in a fresh cookie (the request's old session ended), with
    the seats the body's tokens hold recorded for the account."""
    hub = _hub(request)
    old = session_digest(request.cookies)
    if old is not None:
        hub.store.close_session(old)
    for match, seats in token_seats(hub, held_matches(body, required=False)).items():
        hub.store.hold_seats(account.id, match, seats)
    session_id = new_session_id()
    hub.store.open_session(token_hash(session_id), account.id, now(), live_since())
    response = JSONResponse(_public(account), status_code=status)
    set_session_cookie(response, session_id, request)
    return response


async def get_account(request: Request) -> Response:
    """``GET /api/account``: the signed-in account's name, or null for a guest. A live
    session's cookie is given again, so that the browser keeps it 30 days from now: it
    expires when the session does, 30 days after its last use."""
    account = signed_in(request, now())
    response = JSONResponse(_public(account))
    if account is not None:
        set_session_cookie(response, request.cookies[COOKIE], request)
    return response


async def post_signup(request: Request) -> Response:
    """``POST /api/account/signup``: a new account, signed in (201)."""
    body = await json_body(request)
    name = _name(body)
    _attempt(request, name.lower())
    held_matches(body, required=False)  # a malformed body is refused before anything is made
    password = _password(body, "password")
    store = _hub(request).store
    # Asked first to spare a hash; the store's unique name decides a race all the same.
    if store.account_named(name.lower()) is not None:
        raise ApiError(409, TAKEN)
    account = Account(secrets.token_urlsafe(12), name, name.lower(), await _hash(password), now())
    if not store.create_account(account):
        raise ApiError(409, TAKEN)
    return await _start_session(request, account, body, 201)


async def post_signin(request: Request) -> Response:
    """``POST /api/account/signin``: sign in with name and password (a new session)."""
    body = await json_body(request)
    name = body.get("name")
    password = body.get("password")
    if not isinstance(name, str) or not isinstance(password, str):
        raise ApiError(400, "'name' and 'password' must be strings")
    key = name.lower() if NAME_PATTERN.fullmatch(name) else ""
    _attempt(request, key)
    held_matches(body, required=False)
    if not key or len(password) > MAX_PASSWORD:
        raise ApiError(401, WRONG)
    store = _hub(request).store
    try:
        account = await _checked(store.account_named(key), password)
    except ApiError:
        REFUSALS.refused(
            "a sign-in (wrong name or password)", request.client.host if request.client else ""
        )
        raise
    if HASHER.check_needs_rehash(account.password):
        # Hashed with older parameters than the hasher's: hashed again now that the password
        # is at hand (a password changed meanwhile is kept).
        store.rehash_password(account.id, account.password, await _hash(password))
    return await _start_session(request, account, body)


async def post_signout(request: Request) -> Response:
    """``POST /api/account/signout``: end this browser's session."""
    digest = session_digest(request.cookies)
    if digest is not None:
        _hub(request).store.close_session(digest)
    response = JSONResponse(_public(None))
    clear_session_cookie(response, request)
    return response


async def post_password(request: Request) -> Response:
    """``POST /api/account/password``: a new password (the old one given); every session of
    the account ends, and this browser gets a new one."""
    body = await json_body(request)
    account = _current(request)
    _attempt(request, account.name_key)
    old = _password(body, "old")
    new = _password(body, "new")
    account = await _checked(account, old)
    _hub(request).store.set_password(account.id, await _hash(new))
    return await _start_session(request, account, {})


async def post_delete(request: Request) -> Response:
    """``POST /api/account/delete``: delete the account (its password given). Its seats are
    held by their tokens alone from now on; its games stay."""
    body = await json_body(request)
    account = _current(request)
    _attempt(request, account.name_key)
    account = await _checked(account, _password(body, "password"))
    store = _hub(request).store
    # Its e-mail address and open seeks go with it.
    store.forget_notify_settings(account.id)
    store.drop_account_seeks(account.id)
    store.delete_account(account.id)
    response = JSONResponse(_public(None))
    clear_session_cookie(response, request)
    return response
