"""The operator's mail settings: ``boardlab serve --smtp HOST:PORT --smtp-from ADDRESS
[--smtp-user USER] [--smtp-security starttls|ssl|none] [--public-url URL]``, the password only
from the environment (:data:`PASSWORD_VARIABLE`), never printed. Standard library only:
``boardlab serve`` reads its arguments before it knows the web extra is installed."""

from __future__ import annotations

import argparse
import os
import re
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import urlsplit

from boardlab.core.errors import BoardlabError

Security = Literal["starttls", "ssl", "none"]
PASSWORD_VARIABLE = "BOARDLAB_SMTP_PASSWORD"
"""The environment variable holding the SMTP password (a command line is visible to all)."""
MAX_ADDRESS = 254
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
ADDRESS_PATTERN = re.compile(rf"[A-Za-z0-9.!#$%&'*+/=?^_`{{|}}~-]{{1,64}}@{_LABEL}(?:\.{_LABEL})+")
"""A plain address: no display name, no quoting, no comments, nothing that could end a line."""


def plain_address(value: object) -> bool:
    """True for a plain ``local@domain`` address of at most 254 characters."""
    return (
        isinstance(value, str)
        and len(value) <= MAX_ADDRESS
        and bool(ADDRESS_PATTERN.fullmatch(value))
    )


@dataclass(frozen=True)
class MailSettings:
    """The SMTP server, the sender address, the login, and this site's address for links."""

    host: str
    port: int
    sender: str
    public_url: str
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    security: Security = "starttls"


def add_mail_arguments(parser: argparse.ArgumentParser) -> None:
    """The mail options of ``boardlab serve``."""
    group = parser.add_argument_group(
        "e-mail notifications", "tell players by mail that it is their move (docs/web.md)"
    )
    group.add_argument("--smtp", metavar="HOST:PORT", help="the SMTP server to send through")
    group.add_argument("--smtp-from", metavar="ADDRESS", help="the sender address of the mails")
    group.add_argument(
        "--smtp-user",
        metavar="USER",
        help=f"log in as USER, with the password in the environment variable {PASSWORD_VARIABLE}",
    )
    group.add_argument(
        "--smtp-security",
        choices=("starttls", "ssl", "none"),
        default="starttls",
        help="STARTTLS on a plain connection (default), TLS from the start (ssl), or none "
        "(only for a server on this machine)",
    )
    group.add_argument(
        "--public-url",
        metavar="URL",
        help="this site's address as players reach it, for the links in mails (default: the "
        "address it listens on)",
    )


def mail_settings(args: argparse.Namespace, listening: str) -> MailSettings | None:
    """The settings the arguments give (None without ``--smtp``); ``listening`` is the URL the
    server listens on. Raises BoardlabError with the reason for a bad or missing value."""
    if args.smtp is None:
        if args.smtp_from or args.smtp_user:
            raise BoardlabError("--smtp-from and --smtp-user need --smtp HOST:PORT")
        return None
    host, _, port = args.smtp.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise BoardlabError(f"--smtp {args.smtp!r} is not HOST:PORT")
    if not plain_address(args.smtp_from):
        raise BoardlabError(
            "--smtp needs --smtp-from, a plain address such as boardlab@example.org"
        )
    password = None
    if args.smtp_user:
        password = os.environ.get(PASSWORD_VARIABLE)
        if not password:
            raise BoardlabError(f"--smtp-user needs the password in {PASSWORD_VARIABLE}")
    url = args.public_url or listening
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise BoardlabError(f"--public-url {url!r} is not an http(s) address")
    return MailSettings(
        host.strip("[]"),
        int(port),
        args.smtp_from,
        url.rstrip("/"),
        args.smtp_user,
        password,
        args.smtp_security,
    )
