"""One server process among several on one PostgreSQL database (issue 40, ``docs/deploy.md``).

The append of an event at its index is where the processes are ordered: of two that commit a
change at the same index, one wins and the other is refused (409), whichever they are. Around
it, each process:

- catches a live session up with the store before serving it and before checking a change
  (events committed elsewhere are applied, the seats re-read), so that a decision is checked
  against the match as stored, not as this process last saw it;
- hears every change committed anywhere (:mod:`boardlab.web.fanout`), catches up the matches it
  serves and sends its own websocket clients their views; on every (re)connection of the
  listener it catches up all of them, so a missed notification loses nothing;
- hears every chat line said anywhere, and every turning of a spectators' chat off or on, and
  sends the lines its clients of the match have not been sent yet, each client those it may
  read (:mod:`boardlab.web.chat`'s rules); on every (re)connection, the lines after the last
  one sent, and whether the spectators' chat is on;
- searches a bot turn only while it holds the turn's lease (:mod:`boardlab.web.leases`),
  renewed every ``RENEW_SECONDS`` while it lives: once a holder died its leases run out and
  the sweep of any other process takes the turns over; a lease it could not take is another
  process's search, so its clients are told that the bot thinks, until the turn's event comes
  (or, if the holder's search failed, the next event);
- sweeps for running clocks past their deadline that no process flagged (their process died):
  the flag is an event like any other, so of two processes flagging at once one wins;
- keeps in the store which accounts have a page open on which match here, renewed by the
  sweep (:mod:`boardlab.web.open_pages`), so that the process committing a turn mails no player
  whose page is open on another.

The hub's observers are told only of the events this process commits, never of those it
catches up with: each event is observed once, by the process that committed it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from boardlab.web.abandoned import ABANDONED_AFTER
from boardlab.web.chat import CHANNELS, deliver, said_after
from boardlab.web.errors import ApiError
from boardlab.web.fanout import CHANNEL, CHAT_CHANNEL, Listener
from boardlab.web.open_pages import OpenPages
from boardlab.web.session import MatchSession
from boardlab.web.sql_store import config_from_text
from boardlab.web.store import StoreUnavailable

if TYPE_CHECKING:
    from boardlab.web.hub import Client, Hub

LOG = logging.getLogger("boardlab.web")
LEASE_SECONDS = 6.0
"""How long a bot turn's lease runs unless renewed: a dead holder's turns are taken over
within about this long (plus ``SWEEP_SECONDS``)."""
RENEW_SECONDS = 2.0
"""How often a process renews its leases (and sweeps)."""
SWEEP_SECONDS = RENEW_SECONDS
FLAG_GRACE_SECONDS = 1.0
"""How long past a deadline the sweep leaves the flag to the process whose timer it is."""
SWEEP_LIMIT = 100
"""Overdue matches flagged at most per sweep (the next sweep takes the rest)."""


def stamp(moment: datetime) -> str:
    """A time in the store's format."""
    return moment.isoformat(timespec="microseconds")


@dataclass
class Sharing:
    """What makes ``hub`` one process among several on its store."""

    hub: Hub
    holder: str = field(
        default_factory=lambda: f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
    )
    """This process's name on the leases it holds."""
    leases: dict[str, int] = field(default_factory=dict)
    """The bot turns this process holds the lease of: match id to event index."""
    listener: Listener | None = None
    flagging: set[str] = field(default_factory=set)
    """Matches whose overdue flag a sweep is committing now."""
    told: dict[str, int] = field(default_factory=dict)
    """The event index of the last views sent to each match's clients here: a copy of the
    match read afresh is sent to them only if they have not seen it."""
    chat_told: dict[str, int] = field(default_factory=dict)
    """The number of the last chat line sent to each match's clients here (every line before
    it was sent too, or was said before they came): a line announced is sent only if later."""
    pages: OpenPages = field(init=False)
    """The accounts whose pages are open here, as the store tells the other processes."""

    def __post_init__(self) -> None:
        self.pages = OpenPages(self.hub.store, self.holder)

    def start(self, settings: dict[str, Any]) -> None:
        """Listen to the other processes and start the sweep."""
        loop = asyncio.get_running_loop()
        handlers = {CHANNEL: self.changed, CHAT_CHANNEL: self.chat_said}
        self.listener = Listener(settings, loop, handlers, self.catch_up_all)
        self.listener.start()
        self.hub.keep_task(self._sweep_forever())

    def stop(self) -> None:
        """Stop listening (the sweep is one of the hub's tasks, cancelled with them)."""
        if self.listener is not None:
            self.listener.stop()
        self.pages.forget()

    def joined(self, session: MatchSession, client: Client, seats: frozenset[int]) -> None:
        """``client`` here follows the match, holding ``seats``: its accounts' page is open
        here; if it is the first, note what they have been told so far (the view's event
        index, the number of the chat's last line)."""
        self.pages.opened(session.id, client, seats)
        self.told.setdefault(session.id, session.version)
        if session.id not in self.chat_told:
            # Unread if the store is out of reach: the first line announced is then sent
            # from the store, this process's own too (a page keeps a line once).
            with contextlib.suppress(StoreUnavailable):
                last = self.hub.store.chat(session.id, CHANNELS, 1)
                self.chat_told[session.id] = last[-1].index if last else -1

    def left(self, match_id: str, client: Client, last: bool) -> None:
        """``client`` here follows the match no more (``last``: nor does any other here)."""
        self.pages.closed(match_id, client)
        if last:
            self.told.pop(match_id, None)
            self.chat_told.pop(match_id, None)

    # -- catching up ----------------------------------------------------------------------

    def catch_up(self, session: MatchSession) -> bool:
        """Apply to ``session`` what other processes committed since it was read (and its seats
        as stored), and tell its clients; True if anything changed. A store out of reach
        changes nothing here: the append will refuse a change checked on a stale copy."""
        try:
            found = self.hub.store.events_since(session.id, session.version)
        except StoreUnavailable:
            return False
        if found is None:
            return False
        text, events = found
        config = config_from_text(text)
        changed = config != session.config
        if changed:
            session.reseat(config)
        for event in events:
            session.apply(event)
        if events and session.bot_task is None:
            session.thinking = None  # another process's search ended (its turn, or void)
        if events:
            self.hub.caught_up(session)
        elif changed:
            self.hub.broadcast(session)
        return changed or bool(events)

    def changed(self, match_id: str, index: int) -> None:
        """Another process (or this one) committed event ``index`` of a match (-1: its seats
        changed): catch up the live session, if this process serves the match."""
        session = self.hub.sessions.get(match_id)
        if session is None:
            if match_id in self.hub.clients:
                # Clients here follow it, but its copy was dropped: read it afresh.
                with contextlib.suppress(ApiError):
                    self.hub.broadcast(self.hub.session(match_id))
            return
        if 0 <= index < session.version:
            return  # committed here, or caught up already
        self.catch_up(session)

    def catch_up_all(self) -> None:
        """Catch up every live session, and the chat of every match followed here (the
        listener has just (re)connected: notifications may have been missed meanwhile)."""
        for session in list(self.hub.sessions.values()):
            self.catch_up(session)
        for match_id in list(self.hub.clients):
            self._tell_chat(match_id, self.chat_told.get(match_id, -1), toggled=True)

    # -- chat -----------------------------------------------------------------------------

    def chat_sent(self, match_id: str, number: int) -> None:
        """Line ``number`` of the match's chat, said through this process, was sent to its
        clients here: its announcement is passed over. Unless a line said elsewhere before it
        is still to be sent: that one's announcement sends both (this one again, which a page
        keeps once: lines are kept by number)."""
        if match_id in self.hub.clients and self.chat_told.get(match_id) == number - 1:
            self.chat_told[match_id] = number

    def chat_said(self, match_id: str, number: int) -> None:
        """Line ``number`` of a match's chat was committed, here or elsewhere (-1: its
        spectators' chat was turned off or on): send the match's clients here what they have
        not been sent."""
        if match_id not in self.hub.clients:
            return
        if number < 0:
            self._tell_chat(match_id, None, toggled=True)
            return
        told = self.chat_told.get(match_id, number - 1)
        if number > told:
            self._tell_chat(match_id, told, toggled=False)

    def _tell_chat(self, match_id: str, after: int | None, toggled: bool) -> None:
        """Send the match's clients here the chat lines after line ``after`` (None: none),
        each those it may read, and if ``toggled``, whether the spectators' chat is on to
        every one of them; all read from the store (the seats too: a claimed link reads no
        more players' lines)."""
        try:
            session = self.hub.session(match_id)
            spectators = not self.hub.store.spectator_chat_closed(match_id)
            lines = [] if after is None else said_after(self.hub, session, after)
        except (ApiError, StoreUnavailable):
            return  # the next announcement, or the listener's reconnection, reads it again
        if toggled:
            deliver(self.hub, session, [], spectators)
        if lines:
            deliver(self.hub, session, lines, spectators)
            self.chat_told[match_id] = lines[-1].index

    # -- bot turns ------------------------------------------------------------------------

    def lease(self, session: MatchSession) -> bool:
        """Take the lease of the bot turn at ``session``'s index; False if another process
        holds it (its search: the clients here are told the bot thinks) or the store cannot
        say (the sweep tries again)."""
        now = datetime.now(UTC)
        until = stamp(now + timedelta(seconds=LEASE_SECONDS))
        try:
            taken = self.hub.store.take_lease(
                session.id, session.version, self.holder, stamp(now), until
            )
        except StoreUnavailable:
            return False
        if taken:
            self.leases[session.id] = session.version
        else:
            self._searched_elsewhere(session)
        return taken

    def _searched_elsewhere(self, session: MatchSession) -> None:
        """Another process holds the lease of the bot turn at ``session``'s index (or the
        turn was played, which the catch-up shows next): tell the match's clients here that
        the bot thinks, as the holder tells its own."""
        seat = session.bot_to_move()
        if seat is not None and session.thinking != seat:
            session.thinking = seat
            self.hub.send_all(session, {"type": "thinking", "seat": seat})

    def release(self, match_id: str, version: int) -> None:
        """Give up the lease of a bot turn searched (committed or failed)."""
        if self.leases.get(match_id) == version:
            del self.leases[match_id]
        # Left to run out if the store cannot be reached: nothing is lost either way.
        with contextlib.suppress(StoreUnavailable):
            self.hub.store.release_lease(match_id, version, self.holder)

    # -- the sweep ------------------------------------------------------------------------

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                self.sweep()
            except StoreUnavailable:
                continue  # the store's outage is told by the requests; the next sweep retries

    def sweep(self) -> None:
        """Renew this process's leases and open pages, take over the bot turns whose lease
        ran out, and flag the running clocks past their deadline."""
        now = datetime.now(UTC)
        store = self.hub.store
        if self.leases:
            store.renew_leases(self.holder, stamp(now + timedelta(seconds=LEASE_SECONDS)))
        self.pages.renew()
        for match_id in store.expired_leases(stamp(now)):
            self._take_over(match_id, stamp(now))
        due = stamp(now - timedelta(seconds=FLAG_GRACE_SECONDS))
        since = stamp(now - ABANDONED_AFTER)
        for match_id in store.overdue_matches(due, since, SWEEP_LIMIT):
            if match_id not in self.flagging:
                self.flagging.add(match_id)
                self.hub.keep_task(self._flag(match_id))

    def _take_over(self, match_id: str, now: str) -> None:
        """Load a match whose bot turn's holder died: loading starts its search here if the
        bot is still to move and the lease is taken; a lease left by a turn done or void is
        removed."""
        try:
            session = self.hub.session(match_id)
        except ApiError:
            self.hub.store.drop_expired_lease(match_id, now)
            return
        if session.bot_task is None:
            self.hub.start_bot(session)
        if session.bot_task is None and session.bot_to_move() is None:
            self.hub.store.drop_expired_lease(match_id, now)
        elif session.bot_task is not None:
            LOG.warning("took over the bot turn of match %s from a process that stopped", match_id)

    async def _flag(self, match_id: str) -> None:
        try:
            await self.hub.flag(match_id)
        finally:
            self.flagging.discard(match_id)
