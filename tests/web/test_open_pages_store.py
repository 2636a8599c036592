"""The store's rows of the match pages open on each server process (``open_pages_store.py``),
on SQLite and on PostgreSQL: a page counts while its row is there and was renewed since the
cut-off; a process's rows are removed page by page, renewed (and made exactly what it says
they are) by its sweep, and another process's rows not renewed are removed by any sweep."""

from __future__ import annotations

from boardlab.web.store import Store

OLD = "2000-01-01T00:00:00.000000+00:00"
"""A cut-off before every row: whether a row is there at all."""


def at(second: int) -> str:
    return f"2026-01-01T00:00:{second:02d}.000000+00:00"


def test_a_page_counts_from_its_opening_until_its_closing(store: Store) -> None:
    assert not store.page_open("m1", "ann", OLD)
    store.open_pages("m1", ["ann", "bob"], "p1", at(10))
    store.open_pages("m1", ["bob"], "p2", at(10))
    assert store.page_open("m1", "ann", at(5)) and store.page_open("m1", "bob", at(10))
    assert not store.page_open("m2", "ann", OLD) and not store.page_open("m1", "cy", OLD)
    # Opened again: one row, seen later.
    store.open_pages("m1", ["ann"], "p1", at(20))
    assert store.page_open("m1", "ann", at(15))
    store.close_pages("m1", ["ann", "bob"], "p1")
    assert not store.page_open("m1", "ann", OLD)
    # Bob's page on the other process is still open.
    assert store.page_open("m1", "bob", at(5))
    store.close_pages("m1", ["bob"], "p2")
    assert not store.page_open("m1", "bob", OLD)


def test_a_row_not_renewed_runs_out_and_a_sweep_removes_it(store: Store) -> None:
    store.open_pages("m1", ["ann"], "alive", at(10))
    store.open_pages("m1", ["ann"], "dead", at(10))
    store.open_pages("m2", ["bob"], "dead", at(10))
    # The dead process's row no longer counts past the cut-off; the live one's is renewed.
    store.renew_pages("alive", {("m1", "ann")}, at(16), at(4))
    assert store.page_open("m1", "ann", at(12)) and not store.page_open("m2", "bob", at(12))
    assert store.page_open("m2", "bob", OLD)
    # A later sweep removes the rows seen before its cut-off, whoever's they are.
    store.renew_pages("alive", {("m1", "ann")}, at(18), at(12))
    assert not store.page_open("m2", "bob", OLD)
    store.close_pages("m1", ["ann"], "alive")
    assert not store.page_open("m1", "ann", OLD)


def test_a_renewal_makes_the_rows_what_the_process_says_they_are(store: Store) -> None:
    # A closing that did not reach the store, and an opening that did not either.
    store.open_pages("m1", ["ann"], "p1", at(10))
    store.renew_pages("p1", {("m2", "ann"), ("m2", "bob")}, at(12), at(6))
    assert not store.page_open("m1", "ann", OLD)
    assert store.page_open("m2", "ann", at(12)) and store.page_open("m2", "bob", at(12))
    # A process that stops removes its rows.
    store.renew_pages("p1", (), at(14), at(8))
    assert not store.page_open("m2", "ann", OLD) and not store.page_open("m2", "bob", OLD)
