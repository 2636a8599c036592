"""What the store keeps of the lobby's open seeks, and its calls (both backends).

A seek is one player's offer to play: a game with its options, a time control, rated or casual,
and a rating range the accepter must be in. It is kept in the store (not in one process's
memory) so that every server process lists the same seeks and only one accept can take a seek.
The poster is known only by the SHA-256 of a secret token, as a seat is; that token becomes the
poster's seat token when the seek is taken. A seek lives while a page keeps it (``seen`` is
renewed every few seconds by the process holding the poster's websocket) and is removed when
that page leaves, or once it has not been seen for a while (a process that died).
"""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol

from boardlab.web.migrations import Run

SEEK_COLUMNS = (
    "id, token_hash, account_id, address, name, game, options, clock, rated, min_rating, "
    "max_rating, created, seen, match_id, seat"
)
"""The columns of ``seeks``, in the order of :class:`Seek`'s fields."""


@dataclass(frozen=True)
class Seek:
    """An open seek (``match_id`` None) or one just taken (the match it made, and the poster's
    ``seat`` in it). ``address`` is the poster's client address (for the per-address limit),
    ``account_id`` their account (None: a guest), ``name`` the name shown."""

    id: str
    token_hash: str
    account_id: str | None
    address: str
    name: str
    game: str
    options: dict[str, str]
    clock: str
    rated: bool
    min_rating: int | None
    max_rating: int | None
    created: str
    seen: str
    match_id: str | None = None
    seat: int | None = None


class SeekStore(Protocol):
    """The store's calls for seeks."""

    def add_seek(self, seek: Seek) -> None:
        """Keep a new open seek."""

    def open_seeks(self, since: str) -> list[Seek]:
        """The seeks not yet taken and seen since ``since``, oldest first."""

    def seek_counts(self, address: str, account_id: str | None) -> tuple[int, int, int]:
        """Open seeks of ``address``, of ``account_id`` (0 for None), and in all."""

    def seeks_by_token(self, digests: Iterable[str]) -> list[Seek]:
        """The seeks (open or taken) whose token hash is one of ``digests``."""

    def touch_seeks(self, ids: Iterable[str], when: str) -> None:
        """Note the open seeks ``ids`` as seen at ``when``."""

    def take_seek(self, seek_id: str, match_id: str, seat: int, since: str) -> Seek | None:
        """Mark the open seek (seen since ``since``) as taken by ``match_id``, the poster in
        ``seat``, atomically: the seek as it was, or None if it was taken or gone already."""

    def drop_seeks(self, ids: Iterable[str]) -> None:
        """Remove the seeks ``ids`` (taken or not)."""

    def drop_stale_seeks(self, since: str) -> None:
        """Remove the seeks not seen since ``since`` (taken ones too)."""

    def drop_account_seeks(self, account_id: str) -> None:
        """Remove every seek of the account."""


class SqlSeeks:
    """:class:`SeekStore` in SQL that both backends run."""

    row_lock: str

    @abstractmethod
    def _transaction(self, reading: bool = False) -> AbstractContextManager[Run]:
        """A transaction (see :class:`~boardlab.web.sql_store.SqlStore`)."""

    def add_seek(self, seek: Seek) -> None:
        """Insert the seek's row."""
        with self._transaction() as run:
            run(
                f"INSERT INTO seeks ({SEEK_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                _row(seek),
            )

    def open_seeks(self, since: str) -> list[Seek]:
        """Open seeks seen since ``since``, oldest first."""
        with self._transaction(reading=True) as run:
            rows = run(
                f"SELECT {SEEK_COLUMNS} FROM seeks WHERE match_id IS NULL AND seen >= ? "
                "ORDER BY created, id",
                (since,),
            )
        return [_seek(row) for row in rows]

    def seek_counts(self, address: str, account_id: str | None) -> tuple[int, int, int]:
        """Counted in one snapshot."""
        with self._transaction(reading=True) as run:
            ((by_address,),) = run(
                "SELECT count(*) FROM seeks WHERE match_id IS NULL AND address = ?", (address,)
            )
            ((by_account,),) = run(
                "SELECT count(*) FROM seeks WHERE match_id IS NULL AND account_id = ?",
                (account_id or "",),
            )
            ((total,),) = run("SELECT count(*) FROM seeks WHERE match_id IS NULL", ())
        return int(by_address), int(by_account), int(total)

    def seeks_by_token(self, digests: Iterable[str]) -> list[Seek]:
        """One query per digest (a page holds a few)."""
        found: list[Seek] = []
        with self._transaction(reading=True) as run:
            for digest in digests:
                rows = run(f"SELECT {SEEK_COLUMNS} FROM seeks WHERE token_hash = ?", (digest,))
                found.extend(_seek(row) for row in rows)
        return found

    def touch_seeks(self, ids: Iterable[str], when: str) -> None:
        """One update per seek, in one transaction."""
        with self._transaction() as run:
            for seek_id in ids:
                run("UPDATE seeks SET seen = ? WHERE id = ? AND match_id IS NULL", (when, seek_id))

    def take_seek(self, seek_id: str, match_id: str, seat: int, since: str) -> Seek | None:
        """Read the row under its lock (SQLite: the writer's lock on the file), then mark it:
        of two accepts, the second reads it taken and gets None."""
        with self._transaction() as run:
            rows = run(f"SELECT {SEEK_COLUMNS} FROM seeks WHERE id = ?{self.row_lock}", (seek_id,))
            if not rows:
                return None
            seek = _seek(rows[0])
            if seek.match_id is not None or seek.seen < since:
                return None
            run("UPDATE seeks SET match_id = ?, seat = ? WHERE id = ?", (match_id, seat, seek_id))
        return seek

    def drop_seeks(self, ids: Iterable[str]) -> None:
        """Delete the rows."""
        with self._transaction() as run:
            for seek_id in ids:
                run("DELETE FROM seeks WHERE id = ?", (seek_id,))

    def drop_stale_seeks(self, since: str) -> None:
        """Delete the rows not seen since ``since``."""
        with self._transaction() as run:
            run("DELETE FROM seeks WHERE seen < ?", (since,))

    def drop_account_seeks(self, account_id: str) -> None:
        """Delete the account's rows."""
        with self._transaction() as run:
            run("DELETE FROM seeks WHERE account_id = ?", (account_id,))


def _row(seek: Seek) -> tuple[object, ...]:
    return (
        seek.id,
        seek.token_hash,
        seek.account_id,
        seek.address,
        seek.name,
        seek.game,
        json.dumps(seek.options, sort_keys=True),
        seek.clock,
        int(seek.rated),
        seek.min_rating,
        seek.max_rating,
        seek.created,
        seek.seen,
        seek.match_id,
        seek.seat,
    )


def _seek(row: tuple[object, ...] | list[object]) -> Seek:
    (
        seek_id,
        digest,
        account_id,
        address,
        name,
        game,
        options,
        clock,
        rated,
        low,
        high,
        created,
        seen,
        match_id,
        seat,
    ) = row
    return Seek(
        str(seek_id),
        str(digest),
        None if account_id is None else str(account_id),
        str(address),
        str(name),
        str(game),
        {str(k): str(v) for k, v in json.loads(str(options)).items()},
        str(clock),
        bool(rated),
        None if low is None else int(str(low)),
        None if high is None else int(str(high)),
        str(created),
        str(seen),
        None if match_id is None else str(match_id),
        None if seat is None else int(str(seat)),
    )
