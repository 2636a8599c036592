"""``boardlab db``: the web app's store by hand — migrate its schema, copy SQLite into PostgreSQL.

A server migrates its own store when it starts; ``migrate`` does it ahead of time (before
starting new servers on an upgraded database, say). ``copy`` moves the matches of a SQLite file
into PostgreSQL in one verified transaction (``boardlab/web/store_copy.py``). A SQLite file is
locked as ``boardlab serve`` locks it, so neither runs beside a server on the same file.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

from boardlab.cli.serve import lock_store, open_checked, store_name
from boardlab.core.errors import BoardlabError
from boardlab.web.migrations import LATEST
from boardlab.web.stores import is_postgres_url

SUMMARY = "the web app's store: migrate its schema, copy a SQLite store into PostgreSQL"
TARGET = "a SQLite file or a postgresql://USER:PASSWORD@HOST:PORT/NAME URL"


def add_arguments(parser: argparse.ArgumentParser, formatter: type[argparse.HelpFormatter]) -> None:
    """The subcommands of ``boardlab db``."""
    sub = parser.add_subparsers(dest="db_command", metavar="COMMAND", required=True)
    migrate = sub.add_parser(
        "migrate",
        help="create or update the schema of a store",
        description="Create the store's tables, or apply the migration steps it lacks, and\n"
        "say what was done. boardlab serve does this itself when it starts.",
        formatter_class=formatter,
    )
    migrate.add_argument("store", metavar="STORE", help=TARGET)
    migrate.set_defaults(db_run=cmd_migrate)
    copy = sub.add_parser(
        "copy",
        help="copy every match of a SQLite store into PostgreSQL",
        description="Copy every match, event and match set aside of the SQLite store into the\n"
        "PostgreSQL database (whose schema is created or migrated first) in one transaction,\n"
        "read back and compared before it commits: on any error nothing is copied. Stop the\n"
        "server on the SQLite file first; the file is left as it was (its schema migrated).",
        epilog="example:\n  boardlab db copy ~/.local/share/boardlab/web.sqlite3 "
        "postgresql://boardlab@127.0.0.1/boardlab",
        formatter_class=formatter,
    )
    copy.add_argument("source", metavar="SQLITE", help="the SQLite file of a boardlab serve")
    copy.add_argument("target", metavar="POSTGRES", help="a postgresql:// URL")
    copy.add_argument(
        "--add",
        action="store_true",
        help="add to a target that already holds matches (by default it is refused); a match "
        "that is already there is still refused",
    )
    copy.add_argument("--quiet", action="store_true", help="no progress on stderr")
    copy.set_defaults(db_run=cmd_copy)


def cmd_db(args: argparse.Namespace) -> int:
    """Run the ``boardlab db`` subcommand given."""
    run: Callable[[argparse.Namespace], int] = args.db_run
    return run(args)


def cmd_migrate(args: argparse.Namespace) -> int:
    """Bring the store to the latest schema and say what was done."""
    target: str | Path = args.store
    lock = None
    if not is_postgres_url(target):
        target = _existing_sqlite(Path(target))
        lock = lock_store(target)
    try:
        store = open_checked(target)
        applied = store.applied
        store.close()
    finally:
        if lock is not None:
            os.close(lock)
    name = store_name(target)
    if not applied:
        print(f"{name}: the schema is at version {LATEST}, the latest; nothing to do")
    for step in applied:
        print(f"{name}: applied step {step.version} of the schema ({step.name})")
    return 0


def cmd_copy(args: argparse.Namespace) -> int:
    """Copy a SQLite store into a PostgreSQL one, or refuse with one line."""
    if not is_postgres_url(args.target):
        raise BoardlabError(f"the target {args.target!r} is not a postgresql:// URL")
    if is_postgres_url(args.source):
        raise BoardlabError(
            "the source must be a SQLite file (a PostgreSQL store is copied with pg_dump)"
        )
    source = _existing_sqlite(Path(args.source))
    lock = lock_store(source)
    try:
        open_checked(source).close()
        open_checked(args.target).close()
        from boardlab.web.store_copy import CopyRefused, copy_store

        def progress(line: str) -> None:
            if not args.quiet:
                print(f"boardlab: {line}", file=sys.stderr, flush=True)

        try:
            copied = copy_store(source, args.target, args.add, progress)
        except CopyRefused as error:
            raise BoardlabError(str(error)) from error
    finally:
        os.close(lock)
    rows = copied.rows
    before = f" (beside the {copied.had} it held)" if copied.had else ""
    print(
        f"copied {rows['matches']} matches{before}, {rows['events']} events and "
        f"{rows['set_aside']} matches set aside from {source} into {store_name(args.target)}; "
        "every row was read back and compared"
    )
    return 0


def _existing_sqlite(path: Path) -> Path:
    """``path`` if it is a file; a BoardlabError (nothing is created) if not."""
    if not path.is_file():
        raise BoardlabError(
            f"there is no SQLite store at {str(path)!r} (boardlab serve creates one at start)"
        )
    return path
