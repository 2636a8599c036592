"""Three real ``boardlab serve`` processes on one real PostgreSQL database (issue 40).

A decision made through one process reaches the websockets of the others; two processes racing
for the same turn are ordered by the store (one wins); a clock that all three watch flags once;
a bot turn is searched by one process only; a chat line said through one process reaches the
websockets of another that may read it (a spectator's never gets the players' chat), also when
it was said while that process's listener was away; a bot thinking in one process is shown on
the others; a process killed with SIGKILL mid-game loses no acknowledged decision, and its bot
search and clock flag are taken over by the others; PostgreSQL stopped and started mid-game
gives 503s and every process recovers without a restart; a player whose page is open on one
process gets no mail of the move made through another, and gets one once the page is closed; a
short pass of the hostile-input fuzzer (``tests/fuzz/test_fuzz_web.py``) over two of the
processes fails neither.
"""

from __future__ import annotations

import json
import re
import signal
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import psycopg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from boardlab.web.fanout import RETRY_SECONDS
from boardlab.web.sharing import LEASE_SECONDS, SWEEP_SECONDS
from tests.fuzz.test_fuzz_web import (
    FRAMES,
    FUZZ,
    Target,
    check_responsive,
    fuzz_http,
    fuzz_raw,
    fuzz_websocket,
    make_target,
)
from tests.web.conftest import UNLIMITED, Server, start_server
from tests.web.notification_inbox import Inbox, mail_options, running_inbox
from tests.web.postgres import Cluster
from tests.web.test_api import MURUS_HOT_SEAT, create, turn
from tests.web.test_api_hidden import frames_before, listen, preset
from tests.web.test_chat_abort import joined, say
from tests.web.test_notifications import move, players
from tests.web.test_postgres_serve import follow, next_view

WAIT_SECONDS = 30.0
CHAT_SECONDS = 5.0
"""How long a chat line said through one process may take to reach another's websockets."""
FUZZ_EXAMPLES = 80
"""Hostile requests and websockets sent to the processes (a few seconds)."""
SEARCHED_ELSEWHERE = "changed elsewhere during its bot's search"
"""What a process logs when a bot turn it searched was committed first by another: with leases,
never (only one process searches each turn)."""


def start_three(folder: Path, url: str, options: Sequence[str] = UNLIMITED) -> list[Server]:
    """Three servers on the PostgreSQL database ``url``."""
    return [start_server(folder / f"server{n}.sqlite3", url=url, options=options) for n in range(3)]


@dataclass
class Three:
    """Three servers and the URL of their database."""

    servers: list[Server]
    url: str


@pytest.fixture(scope="module")
def inbox() -> Iterator[Inbox]:
    """The SMTP server that the three servers mail through."""
    with running_inbox() as handler:
        yield handler


@pytest.fixture(scope="module")
def three(
    tmp_path_factory: pytest.TempPathFactory, postgres_cluster: Cluster, inbox: Inbox
) -> Iterator[Three]:
    """Three servers on one new database, mailing through ``inbox``, for the tests of this
    module that leave them up."""
    url = postgres_cluster.new_schema()
    servers = start_three(tmp_path_factory.mktemp("three"), url, mail_options(inbox))
    try:
        yield Three(servers, url)
    finally:
        for server in servers:
            server.stop()


def stored(url: str, match: str) -> list[tuple[str, int, str]]:
    """The match's events as the database holds them: (kind, seat, text)."""
    with psycopg.connect(url) as connection:
        rows = connection.execute(
            "SELECT kind, seat, text FROM events WHERE match_id = %s ORDER BY idx", (match,)
        ).fetchall()
    return [(str(kind), int(seat), str(text)) for kind, seat, text in rows]


def legal(server: Server, match: str, token: str | None) -> tuple[int, int, list[str]]:
    """The seat to move, the ply and the legal turns as ``token``'s holder reads them."""
    status, view = server.get(f"/api/matches/{match}", token)
    assert status == 200, view
    return view["to_move"], view["ply"], [move["text"] for move in view["legal"]]


def view_at(socket: ClientConnection, ply: int) -> Any:
    """The first view the websocket receives at ``ply`` or later."""
    while True:
        view = next_view(socket)
        if view["ply"] >= ply:
            return view


def wait_until(check: Any, what: str, seconds: float = WAIT_SECONDS) -> Any:
    """Poll ``check()`` until it is true; fail naming ``what`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"{what}: not within {seconds:g} s")


def test_a_decision_through_one_process_reaches_the_websockets_of_the_others(
    three: Three,
) -> None:
    a, b, c = three.servers
    match, seats = create(a, MURUS_HOT_SEAT)
    tokens = [str(token) for token in seats]
    with follow(b, match, [tokens[1]]) as on_b, follow(c, match, []) as on_c:
        assert turn(a, match, tokens[0], 0, 0, "d1-d3")[0] == 200
        for socket in (on_b, on_c):
            view = view_at(socket, 1)
            assert [move["turn"] for move in view["moves"]] == ["d1-d3"]
        _, ply, turns = legal(c, match, tokens[1])
        assert ply == 1 and turns
        # Played through C, which had caught up: seen on B at once.
        assert turn(c, match, tokens[1], 1, 1, turns[0])[0] == 200
        assert view_at(on_b, 2)["moves"][1]["turn"] == turns[0]


def test_an_invite_claimed_through_one_process_moves_the_seat_in_the_others(
    three: Three,
) -> None:
    a, b, c = three.servers
    body = {"game": "murus-gallicus", "seats": [{"kind": "human"}, {"kind": "invite"}]}
    match, (romans, link) = create(a, body)
    assert romans and link
    assert turn(a, match, romans, 0, 0, "d1-d3")[0] == 200
    # B and C serve the match, a websocket on C naming the link's token: it holds the seat.
    assert b.get(f"/api/matches/{match}", link)[1]["you"] == [1]
    with follow(c, match, [link]) as on_c:
        status, answer = a.post(f"/api/matches/{match}/claim", {"seat": 1, "token": link})
        assert status == 200, answer
        fresh = answer["token"]
        # C's websocket hears of the claim: its link now only watches (no seat, no moves).
        view = next_view(on_c)
        assert view["you"] == [] and view["legal"] == [] and view["players"][1]["claimed"]
    # B read the seats again: the link acts no more there, the claimer's new token does.
    _, _, turns = legal(b, match, fresh)
    status, answer = turn(b, match, link, 1, 1, turns[0])
    assert status == 403, answer
    assert turn(b, match, fresh, 1, 1, turns[0])[0] == 200


def test_a_hidden_deployment_stays_hidden_on_the_other_processes(three: Three) -> None:
    a, b, c = three.servers
    body = {"game": "cyvasse", "seats": [{"kind": "human"}, {"kind": "human"}]}
    match, (south, north) = create(a, body)
    assert south and north
    with ExitStack() as stack:
        # North's websocket on B, a spectator's on C; South deploys through A.
        sockets = [listen(stack, b, match, [north]), listen(stack, c, match, [])]
        own = preset(a, match, south, 0, 0, "classic")["moves"][0]["turn"]
        assert own.count("@") == 19
        seen = [b.get(f"/api/matches/{match}", north)[1], c.get(f"/api/matches/{match}")[1]]
        assert all(view["moves"][0]["turn"] == "(hidden)" for view in seen)
        preset(c, match, north, 1, 1, "vanguard")
        frames = [frame for socket in sockets for frame in frames_before(socket, 2)]
    blob = "\n".join(frames) + json.dumps(seen)
    assert '"(hidden)"' in blob, "the websockets were told of South's deployment"
    assert not [d for d in own.split("+") if re.search(rf"{re.escape(d)}(?!\d)", blob)]
    # Once both have deployed, every process shows South's lineup to everyone.
    assert all(
        server.get(f"/api/matches/{match}")[1]["moves"][0]["turn"] == own for server in (a, b, c)
    )


def race(
    entrants: list[tuple[Server, str]], match: str, token: str, seat: int, ply: int
) -> list[int]:
    """Each server's answer to the same seat's turn at ``ply``, sent by all at once."""
    answers: list[int] = []
    start = threading.Barrier(len(entrants))

    def send(server: Server, text: str) -> None:
        start.wait()
        answers.append(turn(server, match, token, seat, ply, text)[0])

    racers = [threading.Thread(target=send, args=entrant) for entrant in entrants]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    return answers


def test_two_processes_racing_for_one_turn_one_wins(three: Three) -> None:
    a, b, _ = three.servers
    postgres_url = three.url
    match, seats = create(a, MURUS_HOT_SEAT)
    tokens = [str(token) for token in seats]
    for ply in range(8):
        seat, at, turns = legal(a, match, tokens[ply % 2])
        assert (seat, at) == (ply % 2, ply) and len(turns) >= 2
        answers = race([(a, turns[0]), (b, turns[1])], match, tokens[seat], seat, ply)
        assert sorted(answers) == [200, 409], answers
        assert len(stored(postgres_url, match)) == ply + 1
    # Whichever won each race, every process reads the same match as stored.
    views = [server.get(f"/api/matches/{match}")[1] for server in three.servers]
    played = [event[2] for event in stored(postgres_url, match)]
    assert all([move["turn"] for move in view["moves"]] == played for view in views)


def test_a_clock_all_three_watch_flags_once(three: Three) -> None:
    a, b, c = three.servers
    postgres_url = three.url
    clocked = {**MURUS_HOT_SEAT, "clock": {"base": 2, "increment": 1}}
    match, seats = create(a, clocked)
    tokens = [str(token) for token in seats]
    with follow(a, match, []) as on_a, follow(b, match, []) as on_b, follow(c, match, []) as on_c:
        assert turn(b, match, tokens[0], 0, 0, "d1-d3")[0] == 200
        assert turn(c, match, tokens[1], 1, 1, "a7-a5")[0] == 200
        # The Romans' 2 s run now, on the timers of all three processes.
        for socket in (on_a, on_b, on_c):
            view = wait_until(lambda s=socket: _finished(s), "the flag on every websocket")
            assert view["result"]["text"] == "Gauls won (out of time)", view["result"]
    kinds = [event[0] for event in stored(postgres_url, match)]
    assert kinds == ["turn", "turn", "flag"], kinds


def _finished(socket: ClientConnection) -> Any:
    view = next_view(socket)
    return view if view["status"] == "finished" else None


def test_each_bot_turn_is_searched_by_one_process(three: Three) -> None:
    a, b, c = three.servers
    postgres_url = three.url
    body = {
        "game": "murus-gallicus",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
    }
    match, (romans, _) = create(a, body)
    # Every process serves the match (a follower each): every one hears each human turn.
    with follow(a, match, []) as on_a, follow(b, match, []), follow(c, match, []):
        for ply, server in zip(range(0, 8, 2), (a, b, c, a), strict=True):
            _, at, turns = legal(server, match, romans)
            assert at == ply
            assert turn(server, match, romans, 0, ply, turns[0])[0] == 200
            view_at(on_a, ply + 2)
    events = stored(postgres_url, match)
    assert [seat for _, seat, _ in events] == [0, 1] * 4
    for server in three.servers:
        assert SEARCHED_ELSEWHERE not in server.output()


def test_a_process_killed_mid_game_loses_nothing_and_its_work_is_taken_over(
    tmp_path: Path, postgres_url: str
) -> None:
    servers = start_three(tmp_path, postgres_url)
    try:
        killed_mid_game(servers, postgres_url)
    finally:
        for server in servers:
            server.stop()


def killed_mid_game(servers: list[Server], postgres_url: str) -> None:
    """SIGKILL one of ``servers`` mid-game, and check what the others do."""
    a, b, victim = servers
    # A bot that thinks 3 s, in a match that only the victim serves: it holds the bot turn's
    # lease when it is killed, and no other process has the match in memory.
    body = {
        "game": "murus-gallicus",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "level:expert"}],
    }
    bot_match, (romans, _) = create(victim, body)
    # A running clock that only the victim watches: its flag must be found by the others.
    clocked = {**MURUS_HOT_SEAT, "clock": {"base": 4, "increment": 1}}
    clock_match, clock_tokens = create(victim, clocked)
    hot_seat, seats = create(a, MURUS_HOT_SEAT)
    tokens = [str(token) for token in seats]
    acknowledged: list[str] = []
    with follow(victim, hot_seat, []) as doomed:
        for ply, server in enumerate((a, b, victim, a)):
            _, _, turns = legal(server, hot_seat, tokens[ply % 2])
            assert turn(server, hot_seat, tokens[ply % 2], ply % 2, ply, turns[0])[0] == 200
            acknowledged.append(turns[0])
        assert turn(victim, bot_match, romans, 0, 0, "d1-d3")[0] == 200
        assert turn(victim, clock_match, clock_tokens[0], 0, 0, "d1-d3")[0] == 200
        assert turn(victim, clock_match, clock_tokens[1], 1, 1, "a7-a5")[0] == 200
        holder = wait_until(lambda: _lease_holder(postgres_url, bot_match), "the bot's lease")
        assert holder.split(":")[1] == str(victim.process.pid), holder
        victim.stop(signal.SIGKILL)
        killed = time.monotonic()
        # Its websocket client is cut off; it reconnects to another process and resyncs.
        with pytest.raises(ConnectionClosed):
            while True:
                doomed.recv(timeout=10)
    with follow(b, hot_seat, [tokens[0]]) as again:
        _, _, turns = legal(b, hot_seat, tokens[0])
        assert turn(b, hot_seat, tokens[0], 0, 4, turns[0])[0] == 200
        acknowledged.append(turns[0])
        assert [move["turn"] for move in view_at(again, 5)["moves"]] == acknowledged
    assert [event[2] for event in stored(postgres_url, hot_seat)] == acknowledged
    # The victim's bot search and its clock's flag are taken over within a few seconds: the
    # lease by another process once it ran out (its search then takes what a search takes).
    victim_pid = str(victim.process.pid)
    wait_until(
        lambda: (
            len(stored(postgres_url, bot_match)) == 2
            or (_lease_holder(postgres_url, bot_match) or holder).split(":")[1] != victim_pid
        ),
        "the bot's turn taken over",
    )
    taken_over = time.monotonic() - killed
    assert taken_over < LEASE_SECONDS + SWEEP_SECONDS + 20, taken_over
    wait_until(lambda: len(stored(postgres_url, bot_match)) == 2, "the bot's turn", 120)
    assert [seat for _, seat, _ in stored(postgres_url, bot_match)] == [0, 1]
    wait_until(
        lambda: (
            [event[0] for event in stored(postgres_url, clock_match)] == ["turn", "turn", "flag"]
        ),
        "the flag taken over",
    )
    status, view = a.get(f"/api/matches/{bot_match}")
    assert status == 200 and view["ply"] == 2 and view["status"] == "active", view


def _lease_holder(url: str, match: str) -> str | None:
    with psycopg.connect(url) as connection:
        row = connection.execute(
            "SELECT holder FROM bot_leases WHERE match_id = %s", (match,)
        ).fetchone()
    return None if row is None else str(row[0])


def chat_lines(socket: ClientConnection, seconds: float = CHAT_SECONDS) -> list[Any]:
    """The lines of the next chat message that carries any, which must come within
    ``seconds`` (views, and chat messages that only say whether spectators may talk, are
    skipped)."""
    deadline = time.monotonic() + seconds
    while True:
        message = json.loads(socket.recv(timeout=max(0.0, deadline - time.monotonic())))
        if message["type"] == "chat" and message["lines"]:
            return list(message["lines"])


def test_a_chat_line_through_one_process_reaches_those_who_may_read_it_on_another(
    three: Three,
) -> None:
    a, b, _ = three.servers
    match, (romans, gauls) = create(a, MURUS_HOT_SEAT)
    assert romans and gauls
    with joined(b, match, [gauls]) as player, joined(b, match, []) as watcher:
        status, answer = say(a, match, romans, "players", "flank them on the left")
        assert status == 201, answer
        secret = answer["line"]
        assert chat_lines(player) == [secret]
        status, answer = say(a, match, None, "spectators", "what a game")
        assert status == 201, answer
        # The watcher's first line is the spectators' one: the players' line never came.
        assert chat_lines(watcher) == [answer["line"]]
        assert chat_lines(player) == [answer["line"]]
        # The spectators' chat turned off through A: B's clients are told so.
        path = f"/api/matches/{match}/chat/spectators"
        assert a.post(path, {"open": False}, romans) == (200, {"spectators": False})
        for socket in (player, watcher):
            message = json.loads(socket.recv(timeout=CHAT_SECONDS))
            assert message == {"type": "chat", "lines": [], "spectators": False}


def listeners(url: str) -> list[int]:
    """The server processes' listening connections to the cluster (their backends' pids)."""
    with psycopg.connect(url, autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE query LIKE 'LISTEN boardlab%'"
        ).fetchall()
    return [int(pid) for (pid,) in rows]


def test_a_chat_line_whose_announcement_was_lost_reaches_the_websockets_on_reconnection(
    three: Three,
) -> None:
    a, b, _ = three.servers
    match, (romans, gauls) = create(a, MURUS_HOT_SEAT)
    assert romans and gauls
    with joined(b, match, [gauls]) as player:
        # A line said with its trigger off: its announcement is lost, as while a listener is
        # away.
        with psycopg.connect(three.url, autocommit=True) as admin:
            admin.execute("ALTER TABLE chat DISABLE TRIGGER chat_told")
            try:
                status, answer = say(a, match, romans, "players", "nobody announced this")
            finally:
                admin.execute("ALTER TABLE chat ENABLE TRIGGER chat_told")
        assert status == 201, answer
        # Every listener is cut off: B's, once it listens again, reads the chat it missed.
        cut = listeners(three.url)
        assert len(cut) >= 3, cut
        with psycopg.connect(three.url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) pid", (cut,))
        assert chat_lines(player, RETRY_SECONDS + CHAT_SECONDS) == [answer["line"]]
    assert "listening to the other server processes again" in b.output()


def first_view(server: Server, match: str) -> Any:
    """The view a new websocket client of ``match`` (a spectator) gets first."""
    with connect(server.url.replace("http://", "ws://") + f"ws/matches/{match}") as socket:
        socket.send(json.dumps({"tokens": []}))
        message = json.loads(socket.recv(timeout=30))
    assert message["type"] == "view", message
    return message["view"]


def test_a_bot_thinking_in_one_process_is_shown_on_the_others(three: Three) -> None:
    """A bot's turn whose lease another process holds is shown thinking by every process, to
    the websockets that follow the match and to those that open it, until its turn comes. The
    holder here is a process that searches for as long as the test wants (its lease written
    into ``bot_leases``): no bot compiles and thinks for seconds."""
    a, b, c = three.servers
    body = {
        "game": "murus-gallicus",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
    }
    match, (romans, _) = create(a, body)
    with psycopg.connect(three.url, autocommit=True) as admin:
        admin.execute(
            "INSERT INTO bot_leases (match_id, version, holder, expires) "
            "VALUES (%s, 1, 'elsewhere:1:searching', '2999-01-01T00:00:00.000000+00:00')",
            (match,),
        )
    with follow(b, match, []) as on_b:
        assert turn(a, match, romans, 0, 0, "d1-d3")[0] == 200
        # B hears the turn, finds the bot's lease taken: it tells its client that the bot
        # thinks, and its view says so; so does A's, and C's to a page that opens it now.
        thinking, view = None, None
        while thinking is None or view is None:
            message = json.loads(on_b.recv(timeout=WAIT_SECONDS))
            if message["type"] == "thinking":
                thinking = message
            elif message["type"] == "view" and message["view"]["ply"] == 1:
                view = message["view"]
        assert thinking == {"type": "thinking", "seat": 1} and view["thinking"] is True
        for server in (a, c):
            view = first_view(server, match)
            assert (view["ply"], view["thinking"]) == (1, True), view
        # The holder stops: a sweep takes the turn over and the bot moves; B's view says the
        # bot thinks no more.
        with psycopg.connect(three.url, autocommit=True) as admin:
            admin.execute(
                "UPDATE bot_leases SET expires = '2000-01-01T00:00:00.000000+00:00' "
                "WHERE match_id = %s",
                (match,),
            )
        view = view_at(on_b, 2)
        assert view["thinking"] is False and view["to_move"] == 0, view
    view = first_view(c, match)
    assert (view["ply"], view["thinking"]) == (2, False), view


def test_postgresql_stopped_and_started_gives_503s_and_all_three_recover(
    three: Three, postgres_cluster: Cluster
) -> None:
    a, b, c = three.servers
    match, seats = create(a, MURUS_HOT_SEAT)
    tokens = [str(token) for token in seats]
    assert turn(a, match, tokens[0], 0, 0, "d1-d3")[0] == 200
    _, _, turns = legal(a, match, tokens[1])
    for server in three.servers:
        server.expect_log(r"^match \S+: the store refused a change: .* is unavailable")
    with follow(b, match, []) as on_b:
        postgres_cluster.stop()
        try:
            for server in three.servers:
                status, answer = turn(server, match, tokens[1], 1, 1, turns[0])
                assert status == 503 and isinstance(answer["error"], str), answer
        finally:
            postgres_cluster.start()
        for server in three.servers:
            wait_until(lambda s=server: s.get("/api/health")[0] == 200, "health after the outage")
        assert turn(c, match, tokens[1], 1, 1, turns[0])[0] == 200
        # B's listener reconnected (and caught up): C's turn reaches B's websocket.
        assert view_at(on_b, 2)["moves"][1]["turn"] == turns[0]


def open_pages(url: str, match: str) -> list[tuple[str, str]]:
    """The match's open pages as the database holds them: (account id, holder)."""
    with psycopg.connect(url) as connection:
        rows = connection.execute(
            "SELECT account_id, holder FROM open_pages WHERE match_id = %s", (match,)
        ).fetchall()
    return [(str(account), str(holder)) for account, holder in rows]


def test_no_mail_while_a_page_is_open_on_another_process(three: Three, inbox: Inbox) -> None:
    a, b, _ = three.servers
    address = "page.on.b@example.org"
    game = players(a, "murus-gallicus", {"days": 3}, address)
    match, (first, second) = game["match"], game["tokens"]
    # The creator is mailed too: its mail, queued after the other's notice in A's mail thread,
    # shows that A has passed that notice.
    mine = {"address": "creator@example.org", "enabled": True}
    assert game["creator"].post("/api/account/notifications", mine)[0] == 200
    with follow(b, match, [second]):
        ((_, holder),) = open_pages(three.url, match)
        assert holder.split(":")[1] == str(b.process.pid), holder
        move(a, match, first, 0)  # the invited player's move, its page open on B
        move(a, match, second, 1)  # the creator's, no page of its open anywhere
        inbox.wait_for("creator@example.org")
        assert inbox.to(address) == []
    wait_until(lambda: not open_pages(three.url, match), "the closed page's row removed")
    move(a, match, first, 0)
    (mail,) = inbox.wait_for(address)
    assert f"/match/{match}" in mail.get_content()


@pytest.fixture(scope="module")
def fuzzed(three: Three) -> list[Target]:
    """The fuzzer's matches and account, made through the first process; one target for each
    of the first two processes."""
    target = make_target(three.servers[0])
    return [replace(target, server=server) for server in three.servers[:2]]


@settings(FUZZ, max_examples=FUZZ_EXAMPLES)
@given(data=st.data())
def test_hostile_input_fails_neither_of_two_processes(
    fuzzed: list[Target], data: st.DataObject
) -> None:
    """The fuzzer's HTTP requests, raw request heads and websockets, each to one of two
    processes serving the same matches: never a 5xx, never a hang, and both still answer (the
    log check fails the test on any traceback)."""
    target = data.draw(st.sampled_from(fuzzed))
    kind = data.draw(st.sampled_from(["http", "raw", "websocket"]))
    if kind == "http":
        fuzz_http(target, data)
    elif kind == "raw":
        fuzz_raw(target, data.draw(st.binary(max_size=200)), data.draw(st.binary(max_size=200)))
    else:
        fuzz_websocket(target, data, data.draw(FRAMES))
    for each in fuzzed:
        check_responsive(each)
