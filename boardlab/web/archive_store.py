"""The archive in the store: every finished game (and every record a player imported), kept so
that it can be searched by game, player, result, date and options with indexed queries.

A game is a row of ``archive_games`` (newest first by its ``ended`` time and id: the order
pages follow), one row per seat in ``archive_players`` (the account that held it, if any, and
its result; indexed by account and time) and one per option in ``archive_options`` (indexed
by key and value). Written once, when the game ends: a game told twice is kept once.
"""

from __future__ import annotations

import builtins
from abc import abstractmethod
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from boardlab.web.migrations import Run

SeatResult = Literal["win", "loss", "draw"]
GAME_COLUMNS = "id, game, ended, result, clock, rated, plies, imported_by"


@dataclass(frozen=True)
class ArchivedSeat:
    """One seat of an archived game: who played it (``player``: ``human``, ``guest``, a bot's
    spec, or ``imported``), the account that held it (its name read when listed: None once
    the account is deleted) and the seat's result."""

    seat: int
    account_id: str | None
    player: str
    result: SeatResult
    name: str | None = None


@dataclass(frozen=True)
class ArchivedGame:
    """A finished game: ``id`` (the match's, or an imported record's), ``result`` in words,
    the time control as the store keeps it, whether it was rated, its turns, and for an
    imported record the importer's account id."""

    id: str
    game: str
    ended: str
    result: str
    clock: str
    rated: bool
    plies: int
    seats: tuple[ArchivedSeat, ...]
    options: dict[str, str] = field(default_factory=dict)
    imported_by: str | None = None


@dataclass(frozen=True)
class ArchiveQuery:
    """A search of the archive: each field given narrows it. ``account_id`` is a player's;
    ``result`` that player's result (without a player: any seat's); ``since`` and
    ``before`` bound the end time; ``after`` is the last game of the previous page (its
    ``(ended, id)``)."""

    game: str | None = None
    account_id: str | None = None
    result: SeatResult | None = None
    since: str | None = None
    before: str | None = None
    options: tuple[tuple[str, str], ...] = ()
    after: tuple[str, str] | None = None
    limit: int = 20


class ArchiveStore(Protocol):
    """The store's calls for the archive."""

    def archive_game(self, game: ArchivedGame, record: str | None = None) -> bool:
        """Keep a finished game (with the record text of an imported one); False (nothing
        changed) if a game of that id is kept already."""

    def search_games(self, query: ArchiveQuery) -> builtins.list[ArchivedGame]:
        """The games that match ``query``, newest first."""

    def imported_record(self, game_id: str) -> str | None:
        """The record text of an imported game (None for any other id)."""

    def game_counts(self, account_id: str) -> dict[str, dict[SeatResult, int]]:
        """The account's archived games: per game, how many it won, lost and drew."""

    def unarchived_matches(self, after: str, limit: int, aborted: str) -> builtins.list[str]:
        """Up to ``limit`` ids, in order, above ``after``, of finished matches that the archive
        lacks (none set aside, none whose result is ``aborted``: those have no result)."""


class SqlArchive:
    """:class:`ArchiveStore` over a backend's transactions (a mixin of ``SqlStore``)."""

    conflicts: tuple[type[Exception], ...]

    @abstractmethod
    def _transaction(self, reading: bool = False) -> AbstractContextManager[Run]:
        """A transaction (a snapshot that only reads, when ``reading``)."""

    def archive_game(self, game: ArchivedGame, record: str | None = None) -> bool:
        """The game's rows in one transaction (of two writers, the second finds the game, or
        loses on its key and changes nothing)."""
        try:
            with self._transaction() as run:
                if run("SELECT 1 FROM archive_games WHERE id = ?", (game.id,)):
                    return False
                run(
                    f"INSERT INTO archive_games ({GAME_COLUMNS}, record) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        game.id,
                        game.game,
                        game.ended,
                        game.result,
                        game.clock,
                        int(game.rated),
                        game.plies,
                        game.imported_by,
                        record,
                    ),
                )
                for seat in game.seats:
                    run(
                        "INSERT INTO archive_players (game_id, seat, account_id, player, result, "
                        "ended) VALUES (?, ?, ?, ?, ?, ?)",
                        (game.id, seat.seat, seat.account_id, seat.player, seat.result, game.ended),
                    )
                for key, value in game.options.items():
                    run(
                        "INSERT INTO archive_options (game_id, key, value) VALUES (?, ?, ?)",
                        (game.id, key, value),
                    )
        except self.conflicts:
            return False
        return True

    def search_games(self, query: ArchiveQuery) -> builtins.list[ArchivedGame]:
        """One indexed query for the page's games, one for their seats, one for options."""
        clauses: list[str] = []
        values: list[Any] = []
        if query.game is not None:
            clauses.append("g.game = ?")
            values.append(query.game)
        seat = []
        if query.account_id is not None:
            seat.append("account_id = ?")
            values.append(query.account_id)
        if query.result is not None:
            seat.append("result = ?")
            values.append(query.result)
        if seat:
            clauses.append(
                f"g.id IN (SELECT game_id FROM archive_players WHERE {' AND '.join(seat)})"
            )
        if query.since is not None:
            clauses.append("g.ended >= ?")
            values.append(query.since)
        if query.before is not None:
            clauses.append("g.ended < ?")
            values.append(query.before)
        for key, value in query.options:
            clauses.append(
                "EXISTS (SELECT 1 FROM archive_options o WHERE o.game_id = g.id "
                "AND o.key = ? AND o.value = ?)"
            )
            values += [key, value]
        if query.after is not None:
            clauses.append("(g.ended < ? OR (g.ended = ? AND g.id < ?))")
            values += [query.after[0], query.after[0], query.after[1]]
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        columns = ", ".join(f"g.{column}" for column in GAME_COLUMNS.split(", "))
        with self._transaction(reading=True) as run:
            rows = run(
                f"SELECT {columns} FROM archive_games g {where} "
                "ORDER BY g.ended DESC, g.id DESC LIMIT ?",
                (*values, query.limit),
            )
            ids = [row[0] for row in rows]
            if not ids:
                return []
            marks = ", ".join("?" for _ in ids)
            seat_rows = run(
                "SELECT p.game_id, p.seat, p.account_id, p.player, p.result, a.name "
                "FROM archive_players p LEFT JOIN accounts a ON a.id = p.account_id "
                f"WHERE p.game_id IN ({marks}) ORDER BY p.game_id, p.seat",
                ids,
            )
            option_rows = run(
                "SELECT game_id, key, value FROM archive_options "
                f"WHERE game_id IN ({marks}) ORDER BY game_id, key",
                ids,
            )
        seats: dict[str, list[ArchivedSeat]] = {}
        for game_id, seat, account, player, result, name in seat_rows:
            seats.setdefault(game_id, []).append(
                ArchivedSeat(int(seat), account, player, result, name)
            )
        options: dict[str, dict[str, str]] = {}
        for game_id, key, value in option_rows:
            options.setdefault(game_id, {})[key] = value
        return [
            ArchivedGame(
                id_,
                game,
                ended,
                result,
                clock,
                bool(rated),
                int(plies),
                tuple(seats.get(id_, ())),
                options.get(id_, {}),
                imported_by,
            )
            for id_, game, ended, result, clock, rated, plies, imported_by in rows
        ]

    def imported_record(self, game_id: str) -> str | None:
        """The ``record`` column, kept only for imported games."""
        with self._transaction(reading=True) as run:
            rows = run(
                "SELECT record FROM archive_games WHERE id = ? AND record IS NOT NULL", (game_id,)
            )
        return str(rows[0][0]) if rows else None

    def game_counts(self, account_id: str) -> dict[str, dict[SeatResult, int]]:
        """Counted in the database over the account's index."""
        with self._transaction(reading=True) as run:
            rows = run(
                "SELECT g.game, p.result, count(*) FROM archive_players p JOIN archive_games g "
                "ON g.id = p.game_id WHERE p.account_id = ? GROUP BY g.game, p.result "
                "ORDER BY g.game",
                (account_id,),
            )
        counts: dict[str, dict[SeatResult, int]] = {}
        for game, result, count in rows:
            counts.setdefault(game, {"win": 0, "loss": 0, "draw": 0})[result] = int(count)
        return counts

    def unarchived_matches(self, after: str, limit: int, aborted: str) -> builtins.list[str]:
        """Read by id, over the matches' key."""
        with self._transaction(reading=True) as run:
            rows = run(
                "SELECT id FROM matches WHERE status = 'finished' AND id > ? AND result <> ? "
                "AND NOT EXISTS (SELECT 1 FROM archive_games a WHERE a.id = matches.id) "
                "AND NOT EXISTS (SELECT 1 FROM set_aside WHERE set_aside.match_id = matches.id) "
                "ORDER BY id LIMIT ?",
                (after, aborted, limit),
            )
        return [str(match_id) for (match_id,) in rows]


def forget_account(run: Run, account_id: str) -> None:
    """Remove a deleted account's ratings, the records it imported, and its name from the
    games it played (they stay in the archive, their seats no longer name it), in the
    caller's transaction."""
    run("DELETE FROM ratings WHERE account_id = ?", (account_id,))
    run("DELETE FROM rating_changes WHERE account_id = ?", (account_id,))
    imported = "SELECT id FROM archive_games WHERE imported_by = ?"
    for table in ("archive_options", "archive_players"):
        run(f"DELETE FROM {table} WHERE game_id IN ({imported})", (account_id,))
    run("DELETE FROM archive_games WHERE imported_by = ?", (account_id,))
    run("UPDATE archive_players SET account_id = NULL WHERE account_id = ?", (account_id,))
