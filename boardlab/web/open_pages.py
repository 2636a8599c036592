"""The match pages open on this server process, told to the others through the store (issue 41,
item 5, with several processes): a player gets no e-mail of their move while a page of theirs
is open on the match, in whichever process it is (:mod:`boardlab.web.notifications`).

A page counts for the accounts holding the seats it holds when it opens (by its tokens or its
session). The store keeps a row per match and account that pages here hold (written when the
first such page opens, removed when the last one closes), and the sharing sweep renews them
(:mod:`boardlab.web.sharing`): the rows of a process that stopped without removing them count
for nothing after :data:`PAGE_SECONDS`, and are removed. Only a store that several processes
share needs any of it: one process alone asks its own websockets.
"""

from __future__ import annotations

import contextlib
from collections.abc import Set
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from boardlab.web.open_pages_store import Page
from boardlab.web.store import Store, StoreUnavailable

if TYPE_CHECKING:
    from boardlab.web.hub import Client

PAGE_SECONDS = 6.0
"""How long a row counts unless renewed (renewed every sweep, 2 s): a stopped process's pages
are forgotten within about this long."""


def _ago(seconds: float = 0.0) -> str:
    """The time ``seconds`` ago in the store's format."""
    moment = datetime.now(UTC) - timedelta(seconds=seconds)
    return moment.isoformat(timespec="microseconds")


@dataclass
class OpenPages:
    """The accounts whose seats each page open here holds, by match, and their rows in the
    store under this process's name ``holder``."""

    store: Store
    holder: str
    pages: dict[str, dict[Client, frozenset[str]]] = field(default_factory=dict)
    """Match id to each of its clients here and the accounts whose seats it held on joining."""

    def opened(self, match_id: str, client: Client, seats: Set[int]) -> None:
        """``client`` follows the match holding ``seats``: their accounts' pages are open
        here. Rows the store could not take are written by the next :meth:`renew`; a store
        that cannot say whose the seats are leaves the page counted here only."""
        if not seats:
            return  # a spectator's page: nothing to read
        try:
            holders = self.store.seat_accounts(match_id)
        except StoreUnavailable:
            return
        accounts = frozenset(holders[seat] for seat in seats if seat in holders)
        if not accounts:
            return
        new = accounts - self._accounts(match_id)
        self.pages.setdefault(match_id, {})[client] = accounts
        if new:
            with contextlib.suppress(StoreUnavailable):
                self.store.open_pages(match_id, new, self.holder, _ago())

    def closed(self, match_id: str, client: Client) -> None:
        """``client`` no longer follows the match (nothing if it held no account's seat)."""
        clients = self.pages.get(match_id, {})
        accounts = clients.pop(client, frozenset())
        if not clients:
            self.pages.pop(match_id, None)
        gone = accounts - self._accounts(match_id)
        if gone:
            with contextlib.suppress(StoreUnavailable):
                self.store.close_pages(match_id, gone, self.holder)

    def _accounts(self, match_id: str) -> frozenset[str]:
        """The accounts whose pages are open on the match here."""
        clients = self.pages.get(match_id, {})
        return frozenset(account for accounts in clients.values() for account in accounts)

    def renew(self) -> None:
        """Renew this process's rows (and write those an outage kept out of the store, remove
        those it kept in), and remove every process's rows past :data:`PAGE_SECONDS`."""
        pages: set[Page] = {
            (match_id, account) for match_id in self.pages for account in self._accounts(match_id)
        }
        self.store.renew_pages(self.holder, pages, _ago(), _ago(PAGE_SECONDS))

    def forget(self) -> None:
        """Remove this process's rows (it stops)."""
        with contextlib.suppress(StoreUnavailable):
            self.store.renew_pages(self.holder, (), _ago(), _ago(PAGE_SECONDS))

    def open_anywhere(self, match_id: str, account_id: str) -> bool:
        """True when a page of the account is open on the match in any process (this one
        too). Reads the store only: the mail thread calls it."""
        return self.store.page_open(match_id, account_id, _ago(PAGE_SECONDS))
