"""Hearing what other server processes commit: PostgreSQL's LISTEN on a connection of its own.

Every event appended to a PostgreSQL store, and every change of a match's seats, is announced on
the channel ``boardlab_changes`` by a trigger in the writing transaction (migration step 7), as
``"<match id> <event index>"`` (index -1: the seats changed); every chat line, and every turning
on or off of a match's spectators' chat, on ``boardlab_chat`` (step 8), as ``"<match id> <line
number>"`` (-1: the spectators' chat). A :class:`Listener` thread holds one connection that
listens to both, and hands each announcement to the event loop in the order they committed. A
notification is only a hint to read the store: whenever the connection is (re)made,
``on_connect`` is called first, so that the process catches up with whatever it may have missed
meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any

import psycopg

CHANNEL = "boardlab_changes"
"""Where events and changes of a match's seats are announced."""
CHAT_CHANNEL = "boardlab_chat"
"""Where chat lines and the spectators' chat turned on or off are announced."""
WAKE_SECONDS = 1.0
"""How often the listening thread looks whether it was asked to stop."""
RETRY_SECONDS = 1.0
"""How long the thread waits before it connects again after losing its connection."""

LOG = logging.getLogger("boardlab.web")
Handler = Callable[[str, int], None]
"""Called with the match id and the number an announcement carries."""


def parse(payload: str) -> tuple[str, int] | None:
    """The match id and number of an announcement (None for one this code did not make)."""
    match_id, _, index = payload.partition(" ")
    try:
        return match_id, int(index)
    except ValueError:
        return None


class Listener:
    """A thread that listens on ``settings``' database and calls, on ``loop``,
    ``handlers[channel](match_id, number)`` for each announcement on one of their channels and
    ``on_connect()`` each time it has (re)connected and listens."""

    def __init__(
        self,
        settings: dict[str, Any],
        loop: asyncio.AbstractEventLoop,
        handlers: Mapping[str, Handler],
        on_connect: Callable[[], None],
    ) -> None:
        self.settings = settings
        self.loop = loop
        self.handlers = dict(handlers)
        self.on_connect = on_connect
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="boardlab-listener", daemon=True)

    def start(self) -> None:
        """Start listening."""
        self.thread.start()

    def stop(self) -> None:
        """Stop listening; returns once the thread has ended (within ``WAKE_SECONDS``)."""
        self.stopping.set()
        self.thread.join(WAKE_SECONDS * 5)

    def _run(self) -> None:
        lost = False
        while not self.stopping.is_set():
            try:
                with psycopg.connect(**self.settings, autocommit=True) as connection:
                    for channel in self.handlers:
                        connection.execute(f"LISTEN {channel}")
                    if lost:
                        LOG.warning("listening to the other server processes again")
                    lost = False
                    self._call(self.on_connect)
                    while not self.stopping.is_set():
                        for note in connection.notifies(timeout=WAKE_SECONDS):
                            handler = self.handlers.get(note.channel)
                            found = parse(note.payload)
                            if handler is not None and found is not None:
                                self._call(handler, *found)
            except psycopg.Error as error:
                if not lost:
                    LOG.warning("lost the connection that hears other server processes: %s", error)
                lost = True
                self.stopping.wait(RETRY_SECONDS)

    def _call(self, function: Callable[..., None], *args: Any) -> None:
        """Run ``function(*args)`` on the event loop (nothing once the loop has closed)."""
        try:
            self.loop.call_soon_threadsafe(function, *args)
        except RuntimeError:
            self.stopping.set()  # the loop is closed: the server is stopping
