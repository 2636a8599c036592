"""The store's calls for human ratings and the archive, on SQLite and on PostgreSQL.

A rated match is rated once, even when told twice or by two racing connections; ratings and
their history read back per game and speed; the archive keeps a game once and finds it by
game, player, result, end date and options, a page at a time; deleting an account forgets its
ratings, its imported records and its name (its games stay); the rated flag of a match's
configuration is kept, and an old row without it reads as casual.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from boardlab.core.outcome import Outcome, Result, Termination
from boardlab.web.archive_store import ArchivedGame, ArchivedSeat, ArchiveQuery
from boardlab.web.player_ratings import START, places, updated
from boardlab.web.player_ratings_store import Skill
from boardlab.web.sql_store import config_from_text, config_text
from boardlab.web.store import Account, MatchConfig, SeatConfig, Store, Summary
from boardlab.web.stores import open_store


def account(store: Store, name: str) -> str:
    """A new account's id."""
    assert store.create_account(Account(f"id-{name}", name, name.lower(), "hash", "2026-01-01"))
    return f"id-{name}"


def match(store: Store, match_id: str, rated: bool = True) -> None:
    seats = (SeatConfig("human", None, "a" * 64), SeatConfig("invite", None, "b" * 64))
    config = MatchConfig(
        match_id, "murus-gallicus", {"board": "8x7"}, seats, "2026-01-01", rated=rated
    )
    store.create(config, Summary("active", None, 0, "2026-01-01"))


def plus_one(before: Sequence[Skill]) -> list[Skill]:
    """A stand-in update that makes each change visible: mu one more, a game more."""
    return [Skill(skill.mu + 1, skill.sigma, skill.games + 1) for skill in before]


def test_a_rated_match_is_rated_once_and_its_history_kept(store: Store) -> None:
    ada, bob = account(store, "Ada"), account(store, "Bob")
    for match_id in ("m000000000000001", "m000000000000002"):
        match(store, match_id)
    assert store.rate_match(
        "m000000000000001",
        "murus-gallicus",
        "realtime",
        "2026-02-01T00",
        [ada, bob],
        plus_one,
        START,
    )
    assert not store.rate_match(
        "m000000000000001",
        "murus-gallicus",
        "realtime",
        "2026-02-02T00",
        [ada, bob],
        plus_one,
        START,
    )
    assert store.rate_match(
        "m000000000000002",
        "murus-gallicus",
        "realtime",
        "2026-02-03T00",
        [bob, ada],
        plus_one,
        START,
    )
    (rating,) = store.ratings(ada)
    assert (rating.game, rating.speed, rating.skill) == (
        "murus-gallicus",
        "realtime",
        Skill(START.mu + 2, START.sigma, 2),
    )
    assert rating.updated == "2026-02-03T00"
    changes = store.rating_changes(ada, 10)
    assert [(c.match_id, c.skill.mu, c.skill.games) for c in changes] == [
        ("m000000000000001", START.mu + 1, 1),
        ("m000000000000002", START.mu + 2, 2),
    ]
    assert [c.match_id for c in store.rating_changes(ada, 1)] == ["m000000000000002"]
    # Another speed is another rating.
    match(store, "m000000000000003")
    store.rate_match(
        "m000000000000003",
        "murus-gallicus",
        "correspondence",
        "2026-02-04T00",
        [ada, bob],
        plus_one,
        START,
    )
    assert [(r.speed, r.skill.games) for r in store.ratings(ada)] == [
        ("correspondence", 1),
        ("realtime", 2),
    ]


def test_two_connections_racing_rate_a_match_once(target: str | Path) -> None:
    first = open_store(target)
    try:
        ada, bob = account(first, "Ada"), account(first, "Bob")
        match(first, "m000000000000001")
    finally:
        first.close()
    start = threading.Barrier(2)
    answers: list[bool] = []

    def race() -> None:
        store = open_store(target)  # a connection of its own, in its own thread
        try:
            start.wait()
            rated = store.rate_match(
                "m000000000000001",
                "carnyx",
                "realtime",
                "2026-02-01T00",
                [ada, bob],
                plus_one,
                START,
            )
            answers.append(rated)
        finally:
            store.close()

    threads = [threading.Thread(target=race) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [False, True]
    last = open_store(target)
    try:
        assert [r.skill.games for r in last.ratings(ada)] == [1]
        assert [c.skill.games for c in last.rating_changes(bob, 5)] == [1]
    finally:
        last.close()


def test_the_update_is_openskill_plackett_luce_with_ties() -> None:
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    three = Outcome((Result.WIN, Result.LOSS, Result.LOSS), Termination.LAST_FORTIFICATIONS)
    assert places(three) == [1, 2, 2]
    before = [START, Skill(30.0, 5.0, 4), Skill(20.0, 6.0, 12)]
    after = updated(before, places(three))
    expected = model.rate([[model.rating(mu=s.mu, sigma=s.sigma)] for s in before], ranks=[1, 2, 2])
    assert [(s.mu, s.sigma) for s in after] == [(team[0].mu, team[0].sigma) for team in expected]
    assert [s.games for s in after] == [1, 5, 13]
    assert after[0].mu > START.mu and after[1].mu < 30.0
    drawn = updated([START, START], places(Outcome.draw(2, Termination.AGREEMENT)))
    assert drawn[0].mu == pytest.approx(START.mu) and drawn[0].sigma < START.sigma


def game(game_id: str, ended: str, seats: tuple[ArchivedSeat, ...], **options: str) -> ArchivedGame:
    return ArchivedGame(
        game_id, "carnyx", ended, "Red won", "180+2", False, 30, seats, dict(options)
    )


def test_the_archive_finds_games_by_game_player_result_date_and_options(store: Store) -> None:
    ada, bob = account(store, "Ada"), account(store, "Bob")
    won = (ArchivedSeat(0, ada, "human", "win"), ArchivedSeat(1, bob, "human", "loss"))
    lost = (ArchivedSeat(0, bob, "human", "win"), ArchivedSeat(1, ada, "human", "loss"))
    drawn = (ArchivedSeat(0, None, "guest", "draw"), ArchivedSeat(1, None, "random", "draw"))
    assert store.archive_game(game("g000000000000001", "2026-03-01T10:00", won, size="7"))
    assert store.archive_game(game("g000000000000002", "2026-03-02T10:00", lost, size="9"))
    assert store.archive_game(
        replace(game("g000000000000003", "2026-03-03T10:00", drawn), game="anacund")
    )
    assert not store.archive_game(game("g000000000000001", "2026-03-09T10:00", drawn))

    def ids(**fields: object) -> list[str]:
        return [g.id for g in store.search_games(ArchiveQuery(**fields))]  # type: ignore[arg-type]

    assert ids() == ["g000000000000003", "g000000000000002", "g000000000000001"]
    assert ids(game="carnyx") == ["g000000000000002", "g000000000000001"]
    assert ids(account_id=ada) == ["g000000000000002", "g000000000000001"]
    assert ids(account_id=ada, result="win") == ["g000000000000001"]
    assert ids(result="draw") == ["g000000000000003"]
    assert ids(since="2026-03-02", before="2026-03-03") == ["g000000000000002"]
    assert ids(options=(("size", "7"),)) == ["g000000000000001"]
    assert ids(options=(("size", "7"), ("other", "1"))) == []
    assert ids(limit=2) == ["g000000000000003", "g000000000000002"]
    assert ids(limit=2, after=("2026-03-02T10:00", "g000000000000002")) == ["g000000000000001"]
    (first,) = store.search_games(ArchiveQuery(account_id=ada, result="win"))
    assert first.seats == (
        ArchivedSeat(0, ada, "human", "win", "Ada"),
        ArchivedSeat(1, bob, "human", "loss", "Bob"),
    )
    assert first.options == {"size": "7"} and first.clock == "180+2" and first.plies == 30
    assert store.game_counts(ada) == {"carnyx": {"win": 1, "loss": 1, "draw": 0}}


def test_deleting_an_account_forgets_its_ratings_imports_and_name(store: Store) -> None:
    ada, bob = account(store, "Ada"), account(store, "Bob")
    match(store, "m000000000000001")
    store.rate_match(
        "m000000000000001", "carnyx", "realtime", "2026-02-01T00", [ada, bob], plus_one, START
    )
    played = (ArchivedSeat(0, ada, "human", "win"), ArchivedSeat(1, bob, "human", "loss"))
    store.archive_game(game("m000000000000001", "2026-03-01T10:00", played))
    imported = (ArchivedSeat(0, ada, "imported", "win"), ArchivedSeat(1, None, "imported", "loss"))
    store.archive_game(
        replace(game("i000000000000001", "2026-03-02T10:00", imported), imported_by=ada), "# record"
    )
    assert store.imported_record("i000000000000001") == "# record"
    assert store.imported_record("m000000000000001") is None
    store.delete_account(ada)
    assert store.ratings(ada) == [] and store.rating_changes(ada, 5) == []
    assert store.imported_record("i000000000000001") is None
    (kept,) = store.search_games(ArchiveQuery())
    assert kept.id == "m000000000000001"
    assert [(s.account_id, s.name) for s in kept.seats] == [(None, None), (bob, "Bob")]
    assert len(store.ratings(bob)) == 1


def test_a_match_is_rated_or_casual_and_old_rows_read_as_casual() -> None:
    seats = (SeatConfig("human", None, "a" * 64),)
    rated = MatchConfig("m000000000000001", "carnyx", {}, seats, "2026-01-01", rated=True)
    assert config_from_text(config_text(rated)).rated
    casual = replace(rated, rated=False)
    assert '"rated"' not in config_text(casual)
    assert not config_from_text(config_text(casual)).rated
    assert not config_from_text(config_text(rated).replace('"rated": true', '"rated": 1')).rated
