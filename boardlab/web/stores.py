"""Which store ``--db`` names: a ``postgresql://`` URL (the ``postgres`` extra), or else the
path of a SQLite file, the embedded default."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from boardlab.web.sqlite_store import SqliteStore

if TYPE_CHECKING:
    from boardlab.web.postgres_store import PostgresStore

URL_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: str | Path) -> bool:
    """True for a ``postgresql://`` (or ``postgres://``) URL, which names a PostgreSQL store."""
    return isinstance(target, str) and target.startswith(URL_SCHEMES)


def open_store(target: str | Path) -> SqliteStore | PostgresStore:
    """The store ``target`` names, opened and migrated to the current schema (its ``applied``
    are the steps this opening applied).

    A PostgreSQL store raises StoreUnavailable when its server cannot be reached, ValueError
    when the URL or the database cannot be used, and ModuleNotFoundError without the
    ``postgres`` extra; either backend raises SchemaTooNew for a store of a newer Boardlab.
    """
    if is_postgres_url(target):
        from boardlab.web.postgres_store import PostgresStore

        return PostgresStore(str(target))
    return SqliteStore(Path(target))
