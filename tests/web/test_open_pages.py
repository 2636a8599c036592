"""A process's bookkeeping of its open match pages (``boardlab/web/open_pages.py``) against a
real store of each backend: a page counts for the accounts whose seats it holds, until the last
page here holding an account's seat leaves; a spectator's page, or one holding only seats no
account holds, writes nothing; a renewal writes what an outage kept out of the store, and a
stopping process removes its rows."""

from __future__ import annotations

from typing import cast

from starlette.websockets import WebSocket

from boardlab.web.hub import Client
from boardlab.web.open_pages import OpenPages
from boardlab.web.store import Account, MatchConfig, SeatConfig, Store, Summary

START = "2026-01-01T00:00:00.000000+00:00"
OLD = "2000-01-01T00:00:00.000000+00:00"


def page() -> Client:
    """A websocket client; its socket is never used here."""
    return Client(cast(WebSocket, None), ())


def hot_seat(store: Store) -> str:
    """A match whose seat 0 Ann's account holds, seat 1 a guest's token."""
    seats = (SeatConfig("human", None, "a"), SeatConfig("human", None, "b"))
    store.create(
        MatchConfig("m1", "murus-gallicus", {}, seats, START), Summary("active", None, 0, START)
    )
    store.create_account(Account("ann", "Ann", "ann", "x", START))
    store.hold_seats("ann", "m1", [0])
    return "m1"


def test_an_accounts_page_counts_until_its_last_page_here_leaves(store: Store) -> None:
    match = hot_seat(store)
    pages = OpenPages(store, "p1")
    first, second, watcher, guest = page(), page(), page(), page()
    pages.opened(match, watcher, frozenset())
    pages.opened(match, guest, frozenset({1}))
    assert pages.pages == {}
    pages.opened(match, first, frozenset({0}))
    pages.opened(match, second, frozenset({0, 1}))
    assert pages.open_anywhere(match, "ann") and not pages.open_anywhere("m2", "ann")
    pages.closed(match, first)
    pages.closed(match, first)  # a client is told to leave more than once
    assert pages.open_anywhere(match, "ann")
    pages.closed(match, second)
    assert not store.page_open(match, "ann", OLD) and pages.pages == {}


def test_a_renewal_writes_what_an_outage_kept_out_and_a_stop_removes_it(store: Store) -> None:
    match = hot_seat(store)
    pages = OpenPages(store, "p1")
    pages.opened(match, page(), frozenset({0}))
    store.close_pages(match, ["ann"], "p1")  # as if the write had not reached the store
    assert not pages.open_anywhere(match, "ann")
    pages.renew()
    assert pages.open_anywhere(match, "ann")
    pages.forget()
    assert not store.page_open(match, "ann", OLD)
