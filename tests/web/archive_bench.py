"""How long the archive's searches take (``GET /api/games``' store call) over many finished
games, on SQLite or on a PostgreSQL database, each search checked against a count made here.

    python -m tests.web.archive_bench --games 50000
    python -m tests.web.archive_bench --games 50000 --postgres postgresql://user@host/db

The games (two seats among 1,000 accounts, five games, two options each) are written through
the store's own call; a PostgreSQL database must be empty (a fresh one, or a schema of its own
first on the URL's search path).
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from boardlab.web.archive_store import ArchivedGame, ArchivedSeat, ArchiveQuery
from boardlab.web.store import Store
from boardlab.web.stores import open_store

GAMES = ("carnyx", "murus-gallicus", "anacund", "cyvasse", "colosseum-offcuts")
BOARDS = ("8x7", "8x8", "9x9")
REPEATS = 20


def fill(store: Store, count: int) -> list[ArchivedGame]:
    """``count`` finished games, their end times spread over a year."""
    rng = random.Random(1)
    accounts = [f"account{n:04d}" for n in range(1000)]
    games = []
    for n in range(count):
        first, second = rng.sample(accounts, 2)
        ended = f"2026-{1 + n * 12 // count:02d}-{1 + n % 28:02d}T{n % 24:02d}:00:00.{n:06d}"
        seats = (ArchivedSeat(0, first, "human", "win"), ArchivedSeat(1, second, "human", "loss"))
        options = {"board": rng.choice(BOARDS), "max_plies": "400"}
        game = ArchivedGame(
            f"g{n:015d}", rng.choice(GAMES), ended, "won", "", True, 40, seats, options
        )
        store.archive_game(game)
        games.append(game)
    return games


QUERIES = {
    "the newest": ArchiveQuery(),
    "one player": ArchiveQuery(account_id="account0007"),
    "one player's wins": ArchiveQuery(account_id="account0007", result="win"),
    "one game": ArchiveQuery(game="cyvasse"),
    "one game, one week": ArchiveQuery(game="cyvasse", since="2026-05-01", before="2026-05-08"),
    "an option": ArchiveQuery(options=(("board", "9x9"),)),
    "a result none has": ArchiveQuery(result="draw"),
    "a player's later page": ArchiveQuery(account_id="account0007", after=("2026-06-01", "g")),
}


def expected(games: list[ArchivedGame], query: ArchiveQuery) -> list[str]:
    """The ids the query must find, newest first, counted here without the database."""
    found = [
        game
        for game in games
        if (query.game is None or game.game == query.game)
        and (
            query.account_id is None
            or any(
                seat.account_id == query.account_id
                and (query.result is None or seat.result == query.result)
                for seat in game.seats
            )
        )
        and (
            query.account_id is not None
            or query.result is None
            or any(seat.result == query.result for seat in game.seats)
        )
        and (query.since is None or game.ended >= query.since)
        and (query.before is None or game.ended < query.before)
        and all(game.options.get(key) == value for key, value in query.options)
        and (query.after is None or (game.ended, game.id) < query.after)
    ]
    found.sort(key=lambda game: (game.ended, game.id), reverse=True)
    return [game.id for game in found[: query.limit]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument("--postgres", help="an empty PostgreSQL database's URL (default: SQLite)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(args.postgres or Path(folder) / "archive.sqlite3")
        try:
            started = time.perf_counter()
            games = fill(store, args.games)
            print(f"{args.games:,} games written in {time.perf_counter() - started:.1f} s")
            for name, query in QUERIES.items():
                found = [game.id for game in store.search_games(query)]
                assert found == expected(games, query), name
                started = time.perf_counter()
                for _ in range(REPEATS):
                    store.search_games(query)
                took = (time.perf_counter() - started) / REPEATS * 1000
                print(f"{name:24} {took:7.2f} ms  ({len(found)} games)")
        finally:
            store.close()


if __name__ == "__main__":
    main()
