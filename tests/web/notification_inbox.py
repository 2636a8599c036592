"""A real SMTP server on 127.0.0.1 (aiosmtpd) that keeps the mails it is given, and a Boardlab
server that mails through it: for the e-mail notification tests."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from tests.web.conftest import UNLIMITED, Server, free_port, start_server

MAIL_SECONDS = 15.0


class Inbox:
    """An aiosmtpd handler keeping every message it is given."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.messages: list[EmailMessage] = []
        self.arrived = threading.Condition()

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        """Keep the message (aiosmtpd's hook for a mail's data)."""
        content = envelope.original_content or b""
        message = message_from_bytes(content, policy=policy.default)
        assert isinstance(message, EmailMessage)
        with self.arrived:
            self.messages.append(message)
            self.arrived.notify_all()
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        with self.arrived:
            return [m for m in self.messages if m["To"] == address]

    def wait_for(self, address: str, count: int = 1) -> list[EmailMessage]:
        """The messages to ``address`` once there are ``count`` (fails after a while)."""
        deadline = time.monotonic() + MAIL_SECONDS
        with self.arrived:
            while len([m for m in self.messages if m["To"] == address]) < count:
                left = deadline - time.monotonic()
                assert left > 0, f"no mail to {address} within {MAIL_SECONDS} s"
                self.arrived.wait(left)
        return self.to(address)


@contextlib.contextmanager
def running_inbox() -> Iterator[Inbox]:
    """An SMTP server on a free port of 127.0.0.1, stopped afterwards."""
    handler = Inbox(free_port())
    controller = Controller(handler, hostname="127.0.0.1", port=handler.port)
    controller.start()
    try:
        yield handler
    finally:
        controller.stop()


def mail_options(inbox: Inbox) -> tuple[str, ...]:
    """The options of ``boardlab serve`` (beside :data:`UNLIMITED`) that mail through ``inbox``
    (no TLS: it is local)."""
    return (
        *UNLIMITED,
        "--smtp",
        f"127.0.0.1:{inbox.port}",
        "--smtp-from",
        "boardlab@example.org",
        "--smtp-security",
        "none",
    )


@contextlib.contextmanager
def mailing_server(inbox: Inbox, folder: Path) -> Iterator[Server]:
    """A Boardlab server in ``folder`` mailing through ``inbox``."""
    port = free_port()
    options = (*mail_options(inbox), "--public-url", f"http://127.0.0.1:{port}/")
    running = start_server(folder / "boardlab.sqlite3", port, options=options)
    try:
        yield running
    finally:
        running.stop()
