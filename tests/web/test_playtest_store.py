"""The playtests' store calls, held by both backends: SQLite (a file) and PostgreSQL (a real
server): a playtest and its owner, its matches by variant, open seats taken once even by two
racing takers, one survey per seat, refused turns numbered and bounded, bot results replaced."""

from __future__ import annotations

import threading
from pathlib import Path

from boardlab.web.playtest_store import MAX_REFUSALS, Playtest, PlaytestMatch, SurveyAnswer
from boardlab.web.store import MatchConfig, SeatConfig, Store, Summary
from boardlab.web.stores import open_store


def playtest(pid: str = "p" * 16, account: str | None = None, created: str = "t0") -> Playtest:
    return Playtest(pid, "carnyx", '{"variants": []}', "ab" * 32, account, created, "2099-01-01")


def add_match(store: Store, match_id: str, variant: int, open_seats: tuple[int, ...] = ()) -> None:
    seats = (SeatConfig("human", None, "cd" * 32), SeatConfig("invite", None, "ef" * 32))
    store.create(
        MatchConfig(match_id, "carnyx", {}, seats, f"c-{match_id}"), Summary("active", None, 0, "u")
    )
    store.add_playtest_match(
        PlaytestMatch(match_id, "p" * 16, variant, f"c-{match_id}"), open_seats
    )


def test_a_playtest_is_kept_and_found_by_id_and_owner(target: str | Path) -> None:
    store = open_store(target)
    store.create_playtest(playtest())
    store.create_playtest(playtest("q" * 16, account="acct", created="t1"))
    store.create_playtest(playtest("r" * 16, account="acct", created="t2"))
    store.close()
    reopened = open_store(target)
    try:
        assert reopened.playtest("p" * 16) == playtest()
        assert reopened.playtest("x" * 16) is None
        assert [p.id for p in reopened.account_playtests("acct")] == ["r" * 16, "q" * 16]
        assert reopened.account_playtests("nobody") == []
    finally:
        reopened.close()


def test_matches_by_variant_and_open_seats_taken_oldest_first(store: Store) -> None:
    store.create_playtest(playtest())
    add_match(store, "a" * 16, 0, (1,))
    add_match(store, "b" * 16, 1, (1,))
    add_match(store, "c" * 16, 1)
    assert [(m.match_id, m.variant) for m in store.playtest_matches("p" * 16)] == [
        ("a" * 16, 0),
        ("b" * 16, 1),
        ("c" * 16, 1),
    ]
    assert store.playtest_of("b" * 16) == PlaytestMatch("b" * 16, "p" * 16, 1, "c-" + "b" * 16)
    assert store.playtest_of("z" * 16) is None
    assert store.open_seats("p" * 16) == [("a" * 16, 1), ("b" * 16, 1)]
    # Of variant 1 only, then any: each seat is taken once.
    assert store.take_open_seat("p" * 16, 1) == ("b" * 16, 1)
    assert store.take_open_seat("p" * 16, 1) is None
    assert store.take_open_seat("p" * 16, None) == ("a" * 16, 1)
    assert store.take_open_seat("p" * 16, None) is None
    store.reopen_seat("p" * 16, "a" * 16, 1, "later")
    store.reopen_seat("p" * 16, "a" * 16, 1, "later")  # open already: nothing changes
    assert store.open_seats("p" * 16) == [("a" * 16, 1)]


def test_two_takers_racing_for_open_seats_never_share_one(target: str | Path) -> None:
    setup = open_store(target)
    setup.create_playtest(playtest())
    for index in range(10):
        add_match(setup, f"{index:016d}", 0, (1,))
    setup.close()
    start = threading.Barrier(2, timeout=30)
    taken: list[list[tuple[str, int]]] = [[], []]

    def take(who: int) -> None:
        store = open_store(target)
        try:
            start.wait()
            while (seat := store.take_open_seat("p" * 16, None)) is not None:
                taken[who].append(seat)
        finally:
            store.close()

    threads = [threading.Thread(target=take, args=(who,)) for who in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(taken[0] + taken[1]) == [(f"{i:016d}", 1) for i in range(10)]


def test_a_seat_answers_the_survey_once(store: Store) -> None:
    store.create_playtest(playtest())
    add_match(store, "a" * 16, 0)
    first = SurveyAnswer("a" * 16, 0, "p" * 16, "[5, 4, null, 2]", "<b>fun</b> ünïcode", "t1")
    assert store.add_answer(first)
    assert not store.add_answer(SurveyAnswer("a" * 16, 0, "p" * 16, "[1, 1, 1, 1]", "", "t2"))
    assert store.add_answer(SurveyAnswer("a" * 16, 1, "p" * 16, "[3, 3, 3, 3]", "", "t3"))
    assert [(a.seat, a.scores, a.text) for a in store.answers("p" * 16)] == [
        (0, "[5, 4, null, 2]", "<b>fun</b> ünïcode"),
        (1, "[3, 3, 3, 3]", ""),
    ]


def test_refused_turns_are_numbered_per_match_and_bounded(store: Store) -> None:
    store.create_playtest(playtest())
    add_match(store, "a" * 16, 0)
    add_match(store, "b" * 16, 1)
    store.add_refused_turn("b" * 16, 1, 3, "zz9", "not a move", "t1")
    for ply in range(MAX_REFUSALS + 5):
        store.add_refused_turn("a" * 16, 0, ply, f"x{ply}", "illegal here", "t2")
    refused = store.refused_turns("p" * 16)
    assert len(refused) == MAX_REFUSALS + 1
    assert [(r.index, r.turn) for r in refused[:2]] == [(0, "x0"), (1, "x1")]
    assert (refused[-1].match_id, refused[-1].index, refused[-1].seat, refused[-1].turn) == (
        "b" * 16,
        0,
        1,
        "zz9",
    )


def test_a_bot_result_is_kept_and_replaced(store: Store) -> None:
    store.create_playtest(playtest())
    assert store.bot_results("p" * 16) == {}
    store.set_bot_result("p" * 16, 1, '{"games": 4}', "t1")
    store.set_bot_result("p" * 16, 0, '{"games": 2}', "t1")
    store.set_bot_result("p" * 16, 1, '{"games": 8}', "t2")
    assert store.bot_results("p" * 16) == {0: '{"games": 2}', 1: '{"games": 8}'}
