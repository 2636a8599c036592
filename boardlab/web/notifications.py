"""E-mail when it is your move and no page of yours is open on the match (issue 41, item 5).

Who is told: an account that gave an address and opted in (``/account``), holding the seat to
move after a turn, with no websocket open on the match that holds that seat (a page open on it
shows the turn already), in this process nor, with several on one store, in any other
(:mod:`boardlab.web.open_pages`). Which matches: correspondence (days per move), matches with
no clock, and real-time clocks of at least :data:`LONG_CLOCK_SECONDS` base; a faster game is
over before mail is read. A mail says only which match, which side and against whom, never
anything of the position (a hidden Cyvasse deployment included), and carries an unsubscribe
link, also as a ``List-Unsubscribe`` header with ``List-Unsubscribe-Post:
List-Unsubscribe=One-Click``: a mail program unsubscribes in one click by a POST to that link
(RFC 8058, ``notifications_api``).

Mail is sent off the event loop: the hub's observer (``hub.observers``) only queues a notice on
a bounded queue; one thread asks the store whether another process has a page of the account
open on the match (with several processes only), and sends the rest through the operator's
SMTP server (stdlib ``smtplib``). An account gets at most one mail per
:data:`MAIL_GAP_SECONDS`; turns meanwhile are gathered into its next mail, one line per match.
A full queue or a failing server is logged and the notice dropped: a mail is a courtesy, the
match never waits for it.
"""

from __future__ import annotations

import logging
import queue
import smtplib
import ssl
import threading
import time
from dataclasses import dataclass
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import make_msgid

from boardlab.core.registry import game_class
from boardlab.web.clock import TimeControl
from boardlab.web.hub import Hub
from boardlab.web.notifications_settings import MailSettings
from boardlab.web.session import MatchSession
from boardlab.web.store import Event, StoreUnavailable

LOG = logging.getLogger("boardlab.web")
LONG_CLOCK_SECONDS = 1800
"""A real-time clock with at least this base (30 minutes a side) counts as long."""
MAIL_GAP_SECONDS = 600.0
"""An account gets at most one mail per this many seconds; turns meanwhile wait for the next."""
MAIL_QUEUE = 1000
"""Notices waiting to be sent at most; beyond, new ones are dropped (and logged)."""
SMTP_TIMEOUT = 30.0
ONE_CLICK = "List-Unsubscribe=One-Click"
"""The body of RFC 8058's one-click unsubscribe POST, and its header's value."""


@dataclass(frozen=True)
class Notice:
    """It is ``account_id``'s move in ``match_id``: what its mail says of that match."""

    account_id: str
    address: str
    unsubscribe: str
    match_id: str
    game: str
    line: str


def is_slow(session: MatchSession) -> bool:
    """True for correspondence, no clock, or a real-time base of at least 30 minutes."""
    control = TimeControl.from_text(session.config.clock)
    return control.kind != "realtime" or control.base >= LONG_CLOCK_SECONDS


def notice_line(hub: Hub, session: MatchSession, seat: int) -> str:
    """One line naming the match, the seat's side and its opponents: nothing of the position."""
    accounts = hub.store.seat_accounts(session.id)
    opponents = []
    for other, config in enumerate(session.config.seats):
        if other == seat:
            continue
        name = hub.store.account_name(accounts[other]) if other in accounts else None
        if config.kind == "bot":
            opponents.append(f"a bot ({session.names[other]})")
        else:
            opponents.append(name or f"a guest ({session.names[other]})")
    game = game_class(session.config.game).name
    return f"{game}, you play {session.names[seat]}, against {' and '.join(opponents)}"


class Notifier:
    """The hub observer that queues a notice when a turn leaves an opted-in account to move
    with no page open on the match, and the thread that mails them."""

    def __init__(self, hub: Hub, settings: MailSettings, gap: float = MAIL_GAP_SECONDS) -> None:
        self.hub = hub
        self.settings = settings
        self.gap = gap
        self.notices: queue.Queue[Notice | None] = queue.Queue(MAIL_QUEUE)
        self.thread = threading.Thread(target=self._run, name="boardlab-mail", daemon=True)

    def start(self) -> None:
        """Follow the hub's matches and start the mail thread."""
        self.hub.observers.append(self)
        self.thread.start()

    def stop(self) -> None:
        """Stop following and end the mail thread (notices still waiting are dropped)."""
        if self in self.hub.observers:
            self.hub.observers.remove(self)
        try:
            self.notices.put_nowait(None)
        except queue.Full:
            LOG.warning("mail: %d notices dropped at shutdown", self.notices.qsize())
            while not self.notices.empty():
                self.notices.get_nowait()
            self.notices.put_nowait(None)
        self.thread.join(SMTP_TIMEOUT)

    def __call__(self, session: MatchSession, event: Event) -> None:
        """After a committed turn: queue a notice for the account to move, if it wants one."""
        seat = session.to_move
        if event.kind != "turn" or seat is None or not is_slow(session):
            return
        if session.config.seats[seat].kind == "bot":
            return
        holders = self.hub.store.seat_accounts(session.id)
        account = holders.get(seat)
        # Nobody to tell, the player just moved themselves (both seats theirs), or watching.
        if account is None or holders.get(event.seat) == account or self._watching(session, seat):
            return
        settings = self.hub.store.notify_settings(account)
        if settings is None or not settings.enabled:
            return
        game = game_class(session.config.game).name
        line = notice_line(self.hub, session, seat)
        notice = Notice(account, settings.address, settings.unsubscribe, session.id, game, line)
        try:
            self.notices.put_nowait(notice)
        except queue.Full:
            LOG.warning("mail: the queue is full; a notice of match %s is dropped", session.id)

    def _watching(self, session: MatchSession, seat: int) -> bool:
        """True when a websocket open on the match holds ``seat`` (by token or account)."""
        return any(seat in self.hub.held_by(session, c) for c in self.hub.followers(session.id))

    def _run(self) -> None:
        """Gather notices per account and mail each account at most once per ``gap``."""
        waiting: dict[str, dict[str, Notice]] = {}
        last: dict[str, float] = {}
        while True:
            due = [a for a in waiting if time.monotonic() - last.get(a, -self.gap) >= self.gap]
            for account in due:
                self._mail(list(waiting.pop(account).values()))
                last[account] = time.monotonic()
            timeout = None
            if waiting:
                soonest = min(last.get(a, 0.0) + self.gap for a in waiting)
                timeout = max(0.05, soonest - time.monotonic())
            try:
                notice = self.notices.get(timeout=timeout)
            except queue.Empty:
                continue
            if notice is None:
                return
            if self._page_open(notice):
                continue
            # One line per match: a second turn there before the mail goes adds nothing.
            waiting.setdefault(notice.account_id, {})[notice.match_id] = notice

    def _page_open(self, notice: Notice) -> bool:
        """With several processes on the store, True when a page of the notice's account is
        open on its match in any of them (a store that cannot say: False, the mail goes).
        Alone, False: the observer asked this process's websockets."""
        sharing = self.hub.sharing
        if sharing is None:
            return False
        try:
            return sharing.pages.open_anywhere(notice.match_id, notice.account_id)
        except StoreUnavailable:
            return False

    def _mail(self, notices: list[Notice]) -> None:
        try:
            message = build_message(self.settings, notices)
            send(self.settings, message)
        except (OSError, smtplib.SMTPException, ValueError) as error:
            LOG.warning("mail: a notice to an account could not be sent: %s", error)


def unsubscribe_url(settings: MailSettings, token: str) -> str:
    """The one-click unsubscribe link of a mail."""
    return f"{settings.public_url.rstrip('/')}/unsubscribe/{token}"


def build_message(settings: MailSettings, notices: list[Notice]) -> EmailMessage:
    """The mail telling one account of its moves in ``notices`` (all to one address). Header
    values are set through ``email``'s SMTP policy, which refuses a line break in any of them
    (ValueError), so no text can add a header."""
    first = notices[0]
    message = EmailMessage(policy=SMTP)
    message["From"] = settings.sender
    message["To"] = Address(addr_spec=first.address)
    count = len(notices)
    message["Subject"] = (
        f"Your move in {first.game}" if count == 1 else f"Your move in {count} games"
    )
    message["Message-ID"] = make_msgid(domain=settings.sender.rpartition("@")[2] or None)
    link = unsubscribe_url(settings, first.unsubscribe)
    message["List-Unsubscribe"] = f"<{link}>"
    message["List-Unsubscribe-Post"] = ONE_CLICK
    site = settings.public_url.rstrip("/")
    lines = ["It is your move on Boardlab:", ""]
    for notice in notices:
        lines += [f"- {notice.line}", f"  {site}/match/{notice.match_id}", ""]
    lines += [
        "You get this mail because you asked for it on your account page.",
        f"To get no more of them, open {link}",
    ]
    message.set_content("\n".join(lines))
    return message


def send(settings: MailSettings, message: EmailMessage) -> None:
    """Send ``message`` through the operator's SMTP server (TLS as configured)."""
    context = ssl.create_default_context()
    smtp: smtplib.SMTP
    if settings.security == "ssl":
        smtp = smtplib.SMTP_SSL(settings.host, settings.port, timeout=SMTP_TIMEOUT, context=context)
    else:
        smtp = smtplib.SMTP(settings.host, settings.port, timeout=SMTP_TIMEOUT)
    with smtp:
        if settings.security == "starttls":
            smtp.starttls(context=context)
        if settings.user:
            smtp.login(settings.user, settings.password or "")
        smtp.send_message(message)
