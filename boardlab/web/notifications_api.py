"""The account's e-mail notification settings, and the unsubscribe link of every mail.

``GET /api/account/notifications`` tells the signed-in account its address, whether it opted
in, and whether this server sends mail at all (``boardlab serve --smtp``). ``POST`` sets them:
an address is checked strictly (one plain ``local@domain``, no spaces, quotes or line breaks,
at most 254 characters), and a new address gets a new unsubscribe token (the old links stop
working). The link of every mail, ``/unsubscribe/<token>``, needs no sign-in (the link is in
the mail; the token can do nothing else): ``GET`` shows a page with one button, which posts to
it; ``POST`` with the body ``List-Unsubscribe=One-Click`` (that button, or a mail program's
one-click unsubscribe of RFC 8058) turns the mails off and says so. A ``GET`` alone changes
nothing, as a mail scanner that opens every link must not unsubscribe anyone.
"""

from __future__ import annotations

import email
import email.policy
import html
import secrets
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from boardlab.web.account_cookie import signed_in
from boardlab.web.api import _count, _hub
from boardlab.web.errors import ApiError
from boardlab.web.hub import now
from boardlab.web.notifications import ONE_CLICK
from boardlab.web.notifications_settings import MailSettings, plain_address
from boardlab.web.notifications_store import NotifySettings
from boardlab.web.requests import TOKEN_PATTERN, json_body


def _settings_data(request: Request, settings: NotifySettings | None) -> dict[str, Any]:
    mail: MailSettings | None = getattr(request.app.state, "mail", None)
    return {
        "address": settings.address if settings else "",
        "enabled": bool(settings and settings.enabled),
        "available": mail is not None,
    }


async def get_notifications(request: Request) -> Response:
    """``GET /api/account/notifications``: the signed-in account's settings (401 for a guest)."""
    account = signed_in(request, now())
    if account is None:
        raise ApiError(401, "sign in first")
    return JSONResponse(_settings_data(request, _hub(request).store.notify_settings(account.id)))


def checked_address(value: object) -> str:
    """A plain e-mail address (400 for anything else)."""
    if not isinstance(value, str) or not plain_address(value):
        raise ApiError(400, "'address' must be a plain e-mail address such as name@example.org")
    return value


async def post_notifications(request: Request) -> Response:
    """``POST /api/account/notifications`` ``{"address", "enabled"}``: set them; an empty
    address with ``enabled`` false forgets the address."""
    _count(request, "moves")
    body = await json_body(request)
    account = signed_in(request, now())
    if account is None:
        raise ApiError(401, "sign in first")
    enabled = body.get("enabled")
    if not isinstance(enabled, bool):
        raise ApiError(400, "'enabled' must be true or false")
    store = _hub(request).store
    if body.get("address") == "" and not enabled:
        store.forget_notify_settings(account.id)
        return JSONResponse(_settings_data(request, None))
    address = checked_address(body.get("address"))
    old = store.notify_settings(account.id)
    token = old.unsubscribe if old and old.address == address else secrets.token_urlsafe(32)
    settings = NotifySettings(account.id, address, enabled, token, now())
    store.set_notify_settings(settings)
    return JSONResponse(_settings_data(request, settings))


PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>{title} — Boardlab</title>
  <link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/static/style.css">
</head>
<body class="account-page">
  <header class="top"><a class="brand" href="/">Boardlab</a><h1>{title}</h1></header>
  <main class="account"><div class="account-card"><p>{text}</p>
    {form}<p><a class="button" href="/account">Your account</a>
    <a class="button" href="/">Lobby</a></p>
  </div></main>
</body>
</html>
"""
FORM = """<form method="post" action="/unsubscribe/{token}">
      <input type="hidden" name="{name}" value="{value}">
      <p><button type="submit" class="primary">Unsubscribe</button></p>
    </form>
    """
MAX_BODY_BYTES = 1024
"""A one-click POST's body is 26 bytes; more is not read."""
UNKNOWN = (
    "Unknown link",
    "This unsubscribe link is not (or no longer) valid: the address it was sent to "
    "was changed or removed. Your account page shows what is set now.",
)


def _page(title: str, text: str, status: int, form: str = "") -> HTMLResponse:
    return HTMLResponse(
        PAGE.format(title=html.escape(title), text=html.escape(text), form=form), status
    )


async def unsubscribe_page(request: Request) -> Response:
    """``GET /unsubscribe/<token>``: the mail's link shows the button that unsubscribes (a
    link opened by a mail scanner changes nothing); a link no account holds says so."""
    _count(request, "moves")
    token = str(request.path_params["token"])
    if not TOKEN_PATTERN.fullmatch(token) or not _hub(request).store.unsubscribe_known(token):
        return _page(*UNKNOWN, 404)
    name, _, value = ONE_CLICK.partition("=")
    form = FORM.format(token=token, name=name, value=value)
    return _page(
        "Unsubscribe",
        "Stop the e-mails that tell you it is your move? You can turn them on again on your "
        "account page.",
        200,
        form,
    )


async def post_unsubscribe(request: Request) -> Response:
    """``POST /unsubscribe/<token>`` with the form body ``List-Unsubscribe=One-Click``: the
    one-click unsubscribe (RFC 8058), from the page's button or a mail program. The cross-site
    guard lets it through without a JSON body or a same-origin request (``origin.py``): the
    secret token in the URL is its only authority, and it can only turn mails off."""
    _count(request, "moves")
    token = str(request.path_params["token"])
    if not await _one_click(request):
        return _page("Unsubscribe", f"An unsubscribe request must send the form {ONE_CLICK}.", 400)
    if TOKEN_PATTERN.fullmatch(token) and _hub(request).store.unsubscribe(token, now()):
        return _page(
            "Unsubscribed",
            "You will get no more e-mails about your moves. You can turn them on again on "
            "your account page.",
            200,
        )
    return _page(*UNKNOWN, 404)


async def _one_click(request: Request) -> bool:
    """Whether the request's body is RFC 8058's ``List-Unsubscribe=One-Click`` form, sent as
    ``application/x-www-form-urlencoded`` or ``multipart/form-data`` (read up to
    :data:`MAX_BODY_BYTES`)."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            return False
    kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    text = body.decode("latin-1")
    if kind == "application/x-www-form-urlencoded":
        return ONE_CLICK in text.split("&")
    if kind == "multipart/form-data":
        head = f"Content-Type: {request.headers['content-type']}\r\n\r\n".encode("latin-1")
        form = email.message_from_bytes(head + body, policy=email.policy.HTTP)
        name, _, value = ONE_CLICK.partition("=")
        return form.is_multipart() and any(
            part.get_param("name", header="content-disposition") == name
            and part.get_payload() == value
            for part in form.iter_parts()
        )
    return False
