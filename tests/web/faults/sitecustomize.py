"""Faults for the tests of a failing bot, loaded by every Python process that has this folder on
its ``PYTHONPATH`` (a ``boardlab serve`` or ``boardlab play`` started by a test, with its bot
workers): ``BOARDLAB_FAULT=search`` makes every alpha-beta search raise, ``prepare=SECONDS``
makes preparing each game's bots take that much longer, ``full=PATH`` makes the SQLite store
refuse every new event, as SQLite does on a full disk, while the file ``PATH`` exists. Nothing
else changes."""

from __future__ import annotations

import os
import time

FAULT = os.environ.get("BOARDLAB_FAULT", "")

if FAULT == "search":
    from boardlab.ai.alphabeta import AlphaBetaBot
    from boardlab.core.state import State

    def _broken(self: AlphaBetaBot, state: State) -> int:
        raise RuntimeError("the search broke (a fault the test injected)")

    AlphaBetaBot._choose = _broken  # type: ignore[method-assign]

elif FAULT.startswith("prepare="):
    from boardlab.ai import prepare

    _prepare = prepare.prepare_bots
    _delay = float(FAULT.partition("=")[2])

    def _slow(game_id: str) -> float:
        time.sleep(_delay)
        return _prepare(game_id)

    prepare.prepare_bots = _slow

elif FAULT.startswith("full="):
    import sqlite3
    from pathlib import Path

    from boardlab.web.sql_store import SqlStore
    from boardlab.web.sqlite_store import SqliteStore
    from boardlab.web.store import Event, Summary

    _append = SqliteStore.append
    _trigger = Path(FAULT.partition("=")[2])

    def _full(self: SqlStore, match_id: str, index: int, event: Event, summary: Summary) -> None:
        if _trigger.exists():
            raise sqlite3.OperationalError("database or disk is full")
        _append(self, match_id, index, event, summary)

    SqliteStore.append = _full  # type: ignore[method-assign]
