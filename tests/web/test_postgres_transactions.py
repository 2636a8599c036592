"""The PostgreSQL store's transactions: a read is a read-only snapshot, a write is not, whichever
ran last on the pooled connection (their kind is said in the transaction's own BEGIN)."""

from __future__ import annotations

import psycopg
import pytest

from boardlab.web.postgres_store import PostgresStore


def test_a_read_is_a_read_only_snapshot_and_the_next_write_on_its_connection_is_not(
    postgres_url: str,
) -> None:
    store = PostgresStore(postgres_url)
    try:
        for _ in range(2):  # read, write, read, write: one pooled connection changes kind
            with store._transaction(reading=True) as run:
                assert run("SHOW transaction_isolation", ()) == [("repeatable read",)]
                with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
                    run("CREATE TABLE refused (x int)", ())
            with store._transaction() as run:
                assert run("SHOW transaction_isolation", ()) == [("read committed",)]
                run("CREATE TEMPORARY TABLE kept (x int) ON COMMIT DROP", ())
                assert run("INSERT INTO kept VALUES (1) RETURNING x", ()) == [(1,)]
    finally:
        store.close()
