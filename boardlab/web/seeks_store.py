"""What the store keeps of the lobby's open seeks, and its calls (both backends).

A seek is one player's offer to play: a game with its options and seats (two, or three to five
for Colosseum Offcuts), a time control, rated or casual, and a rating range the others must be
in. It is kept in the store (not in one process's memory) so that every server process lists
the same seeks and only one player can take a seek's last seat. The poster, and each player who
joined a seek of more than two seats, is known only by the SHA-256 of a secret token, as a seat
is; that token becomes their seat token when the last seat is taken. A seek (or a join) lives
while a page keeps it (``seen`` is renewed every few seconds by the process holding the page's
websocket) and is removed when that page leaves, or once it has not been seen for a while (a
process that died).

Every change to a seek's seats holds the seek's row first (SQLite: the writer's lock on the
file; PostgreSQL: the row's lock, taken by the conditional ``UPDATE`` of its ``joined`` count),
so joins, leaves and withdrawals of one seek are ordered whatever process runs them; the limits
of open seeks and joins are counted and kept in the transaction that adds one, under a lock
that every such transaction takes (PostgreSQL: an advisory lock).
"""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from typing import Literal, Protocol

from boardlab.web.migrations import Run

SEEK_COLUMNS = (
    "id, token_hash, account_id, address, name, game, options, clock, rated, min_rating, "
    "max_rating, created, seen, match_id, seat, seats, joined"
)
"""The columns of ``seeks``, in the order of :class:`Seek`'s fields."""
JOIN_COLUMNS = "seek_id, token_hash, account_id, address, name, joined, seen, seat"
"""The columns of ``seek_joins``, in the order of :class:`SeekJoin`'s fields."""
SEEKS_LOCK = 0x626C7365656B73
"""PostgreSQL's advisory lock key held while a seek or a join is counted and added."""
OPEN_BY_ADDRESS = (
    "SELECT (SELECT count(*) FROM seeks WHERE match_id IS NULL AND address = ?) + "
    "(SELECT count(*) FROM seek_joins JOIN seeks ON seeks.id = seek_joins.seek_id "
    "WHERE seeks.match_id IS NULL AND seek_joins.address = ?)"
)
OPEN_BY_ACCOUNT = OPEN_BY_ADDRESS.replace("address = ?", "account_id = ?")

Refusal = Literal["gone", "own", "twice", "address", "account", "all"]
"""Why a seek or a join was not added: the seek is taken or gone, it is the joiner's own, they
joined it already, or a limit (open seeks and joins of the address or of the account, open
seeks in all) is reached."""


@dataclass(frozen=True)
class Seek:
    """An open seek (``match_id`` None) or one just taken (the match it made, and the poster's
    ``seat`` in it). ``address`` is the poster's client address (for the per-address limit),
    ``account_id`` their account (None: a guest), ``name`` the name shown; ``seats`` the
    match's, of which ``joined`` are taken by others than the poster."""

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
    seats: int = 2
    joined: int = 0


@dataclass(frozen=True)
class SeekJoin:
    """A player's seat in a seek of more than two seats, before (``seat`` None) and once the
    last seat is taken; the fields are a seek's, for the joiner."""

    seek_id: str
    token_hash: str
    account_id: str | None
    address: str
    name: str
    joined: str
    seen: str
    seat: int | None = None


@dataclass(frozen=True)
class SeekLimits:
    """The most open seeks and joins one address and one account may have, and open seeks in
    all."""

    by_address: int
    by_account: int
    in_all: int


class SeekRefused(Exception):
    """A seek or a join was not added (nothing changed); ``reason`` says why."""

    def __init__(self, reason: Refusal) -> None:
        super().__init__(reason)
        self.reason: Refusal = reason


@dataclass(frozen=True)
class Joined:
    """A join as it was kept: the seek after it (taken, with its match, if it was the last
    seat) and every join of the seek in the order they came, this one last."""

    seek: Seek
    joins: tuple[SeekJoin, ...]


class SeekStore(Protocol):
    """The store's calls for seeks."""

    def add_seek(self, seek: Seek, limits: SeekLimits | None = None) -> None:
        """Keep a new open seek, if its poster and the lobby are within ``limits`` (raises
        SeekRefused otherwise)."""

    def open_seeks(self, since: str) -> list[Seek]:
        """The seeks not yet taken and seen since ``since``, oldest first."""

    def seek_counts(self, address: str, account_id: str | None) -> tuple[int, int, int]:
        """Open seeks and joins of ``address``, of ``account_id`` (0 for None), and open seeks
        in all."""

    def seeks_by_token(self, digests: Iterable[str]) -> list[Seek]:
        """The seeks (open or taken) whose token hash is one of ``digests``."""

    def joins_by_token(self, digests: Iterable[str]) -> list[tuple[SeekJoin, str | None]]:
        """The joins whose token hash is one of ``digests``, each with the match its seek made
        (None while it is open)."""

    def touch_seeks(self, ids: Iterable[str], digests: Iterable[str], when: str) -> None:
        """Note the open seeks ``ids``, and the joins of token hashes ``digests``, as seen at
        ``when``."""

    def join_seek(
        self,
        seek_id: str,
        join: SeekJoin,
        since: str,
        match_id: str,
        order: Sequence[int],
        known: Iterable[str] = (),
        limits: SeekLimits | None = None,
    ) -> Joined:
        """Add ``join`` to the open seek (seen since ``since``), atomically; if it takes the
        last seat, mark the seek taken by ``match_id`` with the poster in seat ``order[0]`` and
        the joiners, in the order they came, in the next seats of ``order``. Raises
        SeekRefused (nothing changed) for a seek taken or gone, the joiner's own, one they
        joined already (by account, or by a token hash of ``known``: their page's other
        tokens), or a joiner over ``limits`` (checked unless the join is the last)."""

    def leave_seeks(self, digests: Iterable[str]) -> list[str]:
        """Remove the joins of token hashes ``digests`` from the seeks still open (their seats
        free); the ids of the seeks they left."""

    def drop_seeks(self, ids: Iterable[str]) -> None:
        """Remove the seeks ``ids`` (taken or not) and their joins."""

    def drop_stale_seeks(self, since: str) -> None:
        """Remove the seeks not seen since ``since`` (taken ones too), and the joins of open
        seeks not seen since then."""

    def drop_account_seeks(self, account_id: str) -> None:
        """Remove every seek and join of the account."""


class SqlSeeks:
    """:class:`SeekStore` in SQL that both backends run."""

    row_lock: str

    @abstractmethod
    def _transaction(self, reading: bool = False) -> AbstractContextManager[Run]:
        """A transaction (see :class:`~boardlab.web.sql_store.SqlStore`)."""

    def _within(
        self, run: Run, limits: SeekLimits, address: str, account_id: str | None, new: int
    ) -> None:
        """Hold the lock of every transaction that adds a seek or a join (SQLite's writer holds
        the file already), then raise SeekRefused if one more would pass ``limits`` (``new``:
        1 for a seek, 0 for a join, which does not count in all)."""
        if self.row_lock:
            run("SELECT pg_advisory_xact_lock(?)", (SEEKS_LOCK,))
        by_address, by_account, total = _counts(run, address, account_id)
        if by_address >= limits.by_address:
            raise SeekRefused("address")
        if account_id is not None and by_account >= limits.by_account:
            raise SeekRefused("account")
        if new and total >= limits.in_all:
            raise SeekRefused("all")

    def add_seek(self, seek: Seek, limits: SeekLimits | None = None) -> None:
        """Count and insert in one transaction, under the seeks' lock."""
        with self._transaction() as run:
            if limits is not None:
                self._within(run, limits, seek.address, seek.account_id, 1)
            run(
                f"INSERT INTO seeks ({SEEK_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
            return _counts(run, address, account_id)

    def seeks_by_token(self, digests: Iterable[str]) -> list[Seek]:
        """One query per digest (a page holds a few)."""
        found: list[Seek] = []
        with self._transaction(reading=True) as run:
            for digest in digests:
                rows = run(f"SELECT {SEEK_COLUMNS} FROM seeks WHERE token_hash = ?", (digest,))
                found.extend(_seek(row) for row in rows)
        return found

    def joins_by_token(self, digests: Iterable[str]) -> list[tuple[SeekJoin, str | None]]:
        """One query per digest."""
        found: list[tuple[SeekJoin, str | None]] = []
        columns = ", ".join(f"seek_joins.{name}" for name in JOIN_COLUMNS.split(", "))
        with self._transaction(reading=True) as run:
            for digest in digests:
                rows = run(
                    f"SELECT {columns}, seeks.match_id FROM seek_joins "
                    "JOIN seeks ON seeks.id = seek_joins.seek_id WHERE seek_joins.token_hash = ?",
                    (digest,),
                )
                found.extend((_join(row[:-1]), _text(row[-1])) for row in rows)
        return found

    def touch_seeks(self, ids: Iterable[str], digests: Iterable[str], when: str) -> None:
        """One update per seek and per join, in one transaction; the joins in the order of
        their token hashes, as the last seat's transaction seats them (so neither waits for a
        row the other holds while holding one it wants)."""
        with self._transaction() as run:
            for seek_id in sorted(ids):
                run("UPDATE seeks SET seen = ? WHERE id = ? AND match_id IS NULL", (when, seek_id))
            for digest in sorted(digests):
                run(
                    "UPDATE seek_joins SET seen = ? WHERE token_hash = ? AND seat IS NULL",
                    (when, digest),
                )

    def join_seek(
        self,
        seek_id: str,
        join: SeekJoin,
        since: str,
        match_id: str,
        order: Sequence[int],
        known: Iterable[str] = (),
        limits: SeekLimits | None = None,
    ) -> Joined:
        """One transaction: the conditional ``UPDATE`` of the seek's ``joined`` count takes a
        free seat and holds the seek's row (of two joiners of the last seat, the second finds
        none free); what follows reads the joins under that hold."""
        with self._transaction() as run:
            rows = run(
                "UPDATE seeks SET joined = joined + 1 WHERE id = ? AND match_id IS NULL "
                f"AND seen >= ? AND joined < seats - 1 RETURNING {SEEK_COLUMNS}",
                (seek_id, since),
            )
            if not rows:
                raise SeekRefused("gone")
            seek = _seek(rows[0])
            page = {join.token_hash, *known}
            if seek.token_hash in page or _same_account(seek.account_id, join):
                raise SeekRefused("own")
            joins = [
                _join(row)
                for row in run(
                    f"SELECT {JOIN_COLUMNS} FROM seek_joins WHERE seek_id = ? "
                    "ORDER BY joined, token_hash",
                    (seek_id,),
                )
            ]
            if any(
                other.token_hash in page or _same_account(other.account_id, join) for other in joins
            ):
                raise SeekRefused("twice")
            joins.append(join)
            if seek.joined < seek.seats - 1:
                # Not the last seat: the join stays open, and counts against the limits (the
                # seek's row is held before the limits' lock, as no other writer waits the
                # other way round).
                if limits is not None:
                    self._within(run, limits, join.address, join.account_id, 0)
                run(
                    f"INSERT INTO seek_joins ({JOIN_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    _join_row(join),
                )
                return Joined(seek, tuple(joins))
            seek = replace(seek, match_id=match_id, seat=order[0])
            joins = [replace(one, seat=seat) for one, seat in zip(joins, order[1:], strict=True)]
            run(
                "UPDATE seeks SET match_id = ?, seat = ? WHERE id = ?",
                (match_id, order[0], seek_id),
            )
            run(
                f"INSERT INTO seek_joins ({JOIN_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                _join_row(joins[-1]),
            )
            for one in sorted(joins[:-1], key=lambda one: one.token_hash):
                run(
                    "UPDATE seek_joins SET seat = ? WHERE seek_id = ? AND token_hash = ?",
                    (one.seat, seek_id, one.token_hash),
                )
        return Joined(seek, tuple(joins))

    def leave_seeks(self, digests: Iterable[str]) -> list[str]:
        """Per join: hold its seek's row, then delete the join and free its seat if the seek
        is still open."""
        left: list[str] = []
        with self._transaction() as run:
            for digest in digests:
                for (seek_id,) in run(
                    "SELECT seek_id FROM seek_joins WHERE token_hash = ?", (digest,)
                ):
                    if _leave(run, self.row_lock, str(seek_id), digest):
                        left.append(str(seek_id))
        return left

    def drop_seeks(self, ids: Iterable[str]) -> None:
        """Hold each seek's row, then delete its joins and it."""
        with self._transaction() as run:
            for seek_id in ids:
                _drop(run, self.row_lock, seek_id)

    def drop_stale_seeks(self, since: str) -> None:
        """Delete the seeks not seen since ``since`` with their joins, then free the seats of
        joins not seen since then."""
        with self._transaction() as run:
            for (seek_id,) in run("SELECT id FROM seeks WHERE seen < ? ORDER BY id", (since,)):
                _drop(run, self.row_lock, str(seek_id))
            stale = run(
                "SELECT seek_id, token_hash FROM seek_joins WHERE seen < ? AND seat IS NULL "
                "ORDER BY seek_id, token_hash",
                (since,),
            )
            for seek_id, digest in stale:
                _leave(run, self.row_lock, str(seek_id), str(digest))

    def drop_account_seeks(self, account_id: str) -> None:
        """Delete the account's seeks, and leave its joins."""
        with self._transaction() as run:
            for (seek_id,) in run("SELECT id FROM seeks WHERE account_id = ?", (account_id,)):
                _drop(run, self.row_lock, str(seek_id))
            joins = run(
                "SELECT seek_id, token_hash FROM seek_joins WHERE account_id = ?", (account_id,)
            )
            for seek_id, digest in joins:
                if not _leave(run, self.row_lock, str(seek_id), str(digest)):
                    run(
                        "DELETE FROM seek_joins WHERE seek_id = ? AND token_hash = ?",
                        (seek_id, digest),
                    )


def _same_account(account_id: str | None, join: SeekJoin) -> bool:
    return account_id is not None and account_id == join.account_id


def _counts(run: Run, address: str, account_id: str | None) -> tuple[int, int, int]:
    ((by_address,),) = run(OPEN_BY_ADDRESS, (address, address))
    ((by_account,),) = run(OPEN_BY_ACCOUNT, (account_id or "", account_id or ""))
    ((total,),) = run("SELECT count(*) FROM seeks WHERE match_id IS NULL", ())
    return int(by_address), int(by_account), int(total)


def _leave(run: Run, row_lock: str, seek_id: str, digest: str) -> bool:
    """Remove one join of an open seek, its seek's row held first; whether it was removed."""
    held = run(f"SELECT match_id FROM seeks WHERE id = ?{row_lock}", (seek_id,))
    if not held or held[0][0] is not None:
        return False
    gone = run(
        "DELETE FROM seek_joins WHERE seek_id = ? AND token_hash = ? RETURNING token_hash",
        (seek_id, digest),
    )
    if gone:
        run("UPDATE seeks SET joined = joined - 1 WHERE id = ?", (seek_id,))
    return bool(gone)


def _drop(run: Run, row_lock: str, seek_id: str) -> None:
    """Remove a seek and its joins, its row held first (the order every writer of a seek's
    joins holds them in)."""
    run(f"SELECT id FROM seeks WHERE id = ?{row_lock}", (seek_id,))
    run("DELETE FROM seek_joins WHERE seek_id = ?", (seek_id,))
    run("DELETE FROM seeks WHERE id = ?", (seek_id,))


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def _join_row(join: SeekJoin) -> tuple[object, ...]:
    return (
        join.seek_id,
        join.token_hash,
        join.account_id,
        join.address,
        join.name,
        join.joined,
        join.seen,
        join.seat,
    )


def _join(row: Sequence[object]) -> SeekJoin:
    seek_id, digest, account_id, address, name, joined, seen, seat = row
    return SeekJoin(
        str(seek_id),
        str(digest),
        _text(account_id),
        str(address),
        str(name),
        str(joined),
        str(seen),
        None if seat is None else int(str(seat)),
    )


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
        seek.seats,
        seek.joined,
    )


def _seek(row: Sequence[object]) -> Seek:
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
        seats,
        joined,
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
        int(str(seats)),
        int(str(joined)),
    )
