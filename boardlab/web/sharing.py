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
- searches a bot turn only while it holds the turn's lease (:mod:`boardlab.web.leases`),
  renewed every ``RENEW_SECONDS`` while it lives: once a holder died its leases run out and
  the sweep of any other process takes the turns over;
- sweeps for running clocks past their deadline that no process flagged (their process died):
  the flag is an event like any other, so of two processes flagging at once one wins.

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
from boardlab.web.errors import ApiError
from boardlab.web.fanout import Listener
from boardlab.web.session import MatchSession
from boardlab.web.sql_store import config_from_text
from boardlab.web.store import StoreUnavailable

if TYPE_CHECKING:
    from boardlab.web.hub import Hub

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

    def start(self, settings: dict[str, Any]) -> None:
        """Listen to the other processes and start the sweep."""
        loop = asyncio.get_running_loop()
        self.listener = Listener(settings, loop, self.changed, self.catch_up_all)
        self.listener.start()
        self.hub.keep_task(self._sweep_forever())

    def stop(self) -> None:
        """Stop listening (the sweep is one of the hub's tasks, cancelled with them)."""
        if self.listener is not None:
            self.listener.stop()

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
        """Catch up every live session (the listener has just (re)connected: notifications
        may have been missed meanwhile)."""
        for session in list(self.hub.sessions.values()):
            self.catch_up(session)

    # -- bot turns ------------------------------------------------------------------------

    def lease(self, session: MatchSession) -> bool:
        """Take the lease of the bot turn at ``session``'s index; False if another process
        holds it (or the store cannot say: the sweep tries again)."""
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
        return taken

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
        """Renew this process's leases, take over the bot turns whose lease ran out, and flag
        the running clocks past their deadline."""
        now = datetime.now(UTC)
        store = self.hub.store
        if self.leases:
            store.renew_leases(self.holder, stamp(now + timedelta(seconds=LEASE_SECONDS)))
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
