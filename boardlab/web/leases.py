"""What several server processes on one database ask of the store (issue 40), both backends.

The append of an event is where processes are ordered (``StoreConflict`` for the loser); these
calls let each process catch up with what the others committed and share the work that must be
done once: a bot turn is searched by the process holding its lease (a row of ``bot_leases``
naming the match's event index, the holder and when the lease runs out). A holder renews its
leases while it lives; once a lease has run out, any process may take it over. Lease times are
the processes' own clocks in the store's format (UTC ISO 8601): the machines' clocks must agree
to well within ``LEASE_SECONDS`` (NTP does).

Only a store that several processes share (``shared``: PostgreSQL) needs them; the SQLite store
has the table too, so that both keep one schema, but one server per file never uses it.
"""

from __future__ import annotations

from abc import abstractmethod
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Protocol

from boardlab.web.migrations import Run

if TYPE_CHECKING:
    from boardlab.web.store import Event


class SharedStore(Protocol):
    """The store's calls for several processes on one database."""

    shared: bool
    """True when other server processes may write to the same store (PostgreSQL)."""

    def events_since(self, match_id: str, index: int) -> tuple[str, tuple[Event, ...]] | None:
        """The match's configuration text and its events from number ``index`` on, read in
        one snapshot (None if there is no such match)."""

    def take_lease(self, match_id: str, version: int, holder: str, now: str, until: str) -> bool:
        """Hold the bot turn of the match at event index ``version`` until ``until``, unless
        another holder's lease of that turn or a later one runs beyond ``now``, or the match
        has an event at that index already (the turn was played)."""

    def renew_leases(self, holder: str, until: str) -> None:
        """Every lease of ``holder`` runs until ``until``."""

    def release_lease(self, match_id: str, version: int, holder: str) -> None:
        """Give up the lease of that turn (nothing if another holder took it since)."""

    def expired_leases(self, now: str) -> list[str]:
        """The matches whose bot turn's lease ran out before ``now`` (its holder died)."""

    def drop_expired_lease(self, match_id: str, now: str) -> None:
        """Remove the match's lease if it ran out before ``now`` (a turn done or void)."""

    def overdue_matches(self, now: str, since: str, limit: int) -> list[str]:
        """Unfinished matches, changed since ``since``, whose seat to move ran out of time
        before ``now``: at most ``limit``, the longest overdue first."""


class SqlLeases:
    """:class:`SharedStore` in SQL that both backends run."""

    shared = False

    @abstractmethod
    def _transaction(self, reading: bool = False) -> AbstractContextManager[Run]:
        """A transaction (see :class:`~boardlab.web.sql_store.SqlStore`)."""

    def events_since(self, match_id: str, index: int) -> tuple[str, tuple[Event, ...]] | None:
        """One statement (its own snapshot), in as few round trips as the backend allows: a
        process runs it before every request on a match it keeps in memory."""
        from boardlab.web.store import Event  # the store's protocol is built on this one's

        with self._transaction() as run:
            rows = run(
                "SELECT matches.config, events.kind, events.seat, events.text, events.at "
                "FROM matches LEFT JOIN events ON events.match_id = matches.id "
                "AND events.idx >= ? WHERE matches.id = ? ORDER BY events.idx",
                (index, match_id),
            )
        if not rows:
            return None
        events = tuple(Event(*row[1:]) for row in rows if row[1] is not None)
        return str(rows[0][0]), events

    def take_lease(self, match_id: str, version: int, holder: str, now: str, until: str) -> bool:
        """One insert that takes the row over only where it may (of two processes racing for
        it, the second waits for the first's row and then finds it held), read back in the
        same transaction; then the turn is looked for among the events. In that order: a
        holder releases its lease only after its turn was stored, so a lease found free was
        either never taken or its turn is seen here."""
        with self._transaction() as run:
            run(
                "INSERT INTO bot_leases (match_id, version, holder, expires) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (match_id) DO UPDATE SET version = excluded.version, "
                "holder = excluded.holder, expires = excluded.expires "
                "WHERE bot_leases.holder = excluded.holder OR bot_leases.expires < ? "
                "OR bot_leases.version < excluded.version",
                (match_id, version, holder, until, now),
            )
            row = run("SELECT version, holder FROM bot_leases WHERE match_id = ?", (match_id,))
            if not row or (int(row[0][0]), str(row[0][1])) != (version, holder):
                return False
            if run("SELECT 1 FROM events WHERE match_id = ? AND idx = ?", (match_id, version)):
                run("DELETE FROM bot_leases WHERE match_id = ? AND holder = ?", (match_id, holder))
                return False
        return True

    def renew_leases(self, holder: str, until: str) -> None:
        """One update."""
        with self._transaction() as run:
            run("UPDATE bot_leases SET expires = ? WHERE holder = ?", (until, holder))

    def release_lease(self, match_id: str, version: int, holder: str) -> None:
        """One delete of that very lease."""
        with self._transaction() as run:
            run(
                "DELETE FROM bot_leases WHERE match_id = ? AND version = ? AND holder = ?",
                (match_id, version, holder),
            )

    def expired_leases(self, now: str) -> list[str]:
        """One read."""
        with self._transaction(reading=True) as run:
            rows = run("SELECT match_id FROM bot_leases WHERE expires < ? ORDER BY expires", (now,))
        return [str(match_id) for (match_id,) in rows]

    def drop_expired_lease(self, match_id: str, now: str) -> None:
        """One delete, of a lease still run out."""
        with self._transaction() as run:
            run("DELETE FROM bot_leases WHERE match_id = ? AND expires < ?", (match_id, now))

    def overdue_matches(self, now: str, since: str, limit: int) -> list[str]:
        """One read of the lobby's lines (the deadline is kept with each change)."""
        with self._transaction(reading=True) as run:
            rows = run(
                "SELECT id FROM matches WHERE status = 'active' AND deadline IS NOT NULL "
                "AND deadline < ? AND updated >= ? ORDER BY deadline LIMIT ?",
                (now, since, limit),
            )
        return [str(match_id) for (match_id,) in rows]
