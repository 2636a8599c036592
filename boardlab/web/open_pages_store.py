"""What the store keeps of the match pages open on each server process, and its calls (both
backends).

An e-mail tells a player of their move only if no page of theirs is open on the match
(:mod:`boardlab.web.notifications`). With several processes on one store, the page may be open
on another one than the process that committed the turn: each process keeps a row of
``open_pages`` for every account whose seat a page open on it holds (the match, the account,
the process's name, when the row was last renewed), and renews its rows while it lives. A row
not renewed since a cut-off is a stopped process's: it counts for nothing and is removed.

Only a store that several processes share (``shared``: PostgreSQL) needs them; the SQLite store
has the table too, so that both keep one schema, but one server per file never uses it.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Collection, Iterable
from contextlib import AbstractContextManager
from typing import Protocol

from boardlab.web.migrations import Run

Page = tuple[str, str]
"""A match id and an account id: a page of that account is open on that match."""


class OpenPageStore(Protocol):
    """The store's calls for the pages open on each server process."""

    def open_pages(self, match_id: str, accounts: Iterable[str], holder: str, now: str) -> None:
        """Pages of ``accounts`` are open on the match in process ``holder``, seen ``now``."""

    def close_pages(self, match_id: str, accounts: Iterable[str], holder: str) -> None:
        """No page of ``accounts`` is open on the match in process ``holder`` any more."""

    def renew_pages(self, holder: str, pages: Collection[Page], now: str, stale: str) -> None:
        """The rows of ``holder`` become exactly ``pages``, seen ``now``; every process's rows
        not seen since ``stale`` are removed."""

    def page_open(self, match_id: str, account_id: str, since: str) -> bool:
        """True when a page of the account is open on the match in a process that renewed
        its row since ``since``."""


class SqlOpenPages:
    """:class:`OpenPageStore` in SQL that both backends run."""

    @abstractmethod
    def _transaction(self, reading: bool = False) -> AbstractContextManager[Run]:
        """A transaction (see :class:`~boardlab.web.sql_store.SqlStore`)."""

    def open_pages(self, match_id: str, accounts: Iterable[str], holder: str, now: str) -> None:
        """One upsert per account."""
        with self._transaction() as run:
            for account_id in accounts:
                run(
                    "INSERT INTO open_pages (match_id, account_id, holder, seen) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT (match_id, account_id, holder) "
                    "DO UPDATE SET seen = excluded.seen",
                    (match_id, account_id, holder, now),
                )

    def close_pages(self, match_id: str, accounts: Iterable[str], holder: str) -> None:
        """One delete per account."""
        with self._transaction() as run:
            for account_id in accounts:
                run(
                    "DELETE FROM open_pages WHERE match_id = ? AND account_id = ? AND holder = ?",
                    (match_id, account_id, holder),
                )

    def renew_pages(self, holder: str, pages: Collection[Page], now: str, stale: str) -> None:
        """A read of the holder's rows and one update, then a write for each row that differs
        from ``pages`` (one whose open or close did not reach the store, or was removed while
        the holder could not renew it), and one delete of the stale rows."""
        with self._transaction() as run:
            rows = run("SELECT match_id, account_id FROM open_pages WHERE holder = ?", (holder,))
            kept = {(str(match_id), str(account_id)) for match_id, account_id in rows}
            for match_id, account_id in kept - set(pages):
                run(
                    "DELETE FROM open_pages WHERE match_id = ? AND account_id = ? AND holder = ?",
                    (match_id, account_id, holder),
                )
            run("UPDATE open_pages SET seen = ? WHERE holder = ?", (now, holder))
            for match_id, account_id in set(pages) - kept:
                run(
                    "INSERT INTO open_pages (match_id, account_id, holder, seen) "
                    "VALUES (?, ?, ?, ?)",
                    (match_id, account_id, holder, now),
                )
            run("DELETE FROM open_pages WHERE seen < ?", (stale,))

    def page_open(self, match_id: str, account_id: str, since: str) -> bool:
        """One read by the table's key."""
        with self._transaction(reading=True) as run:
            rows = run(
                "SELECT 1 FROM open_pages WHERE match_id = ? AND account_id = ? AND seen >= ? "
                "LIMIT 1",
                (match_id, account_id, since),
            )
        return bool(rows)
