"""The server process: restarts (also after SIGKILL) lose nothing, signals and ports behave."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from boardlab.web import hub
from tests.web.conftest import free_port, start_server
from tests.web.local import serve_here
from tests.web.test_api import MURUS_HOT_SEAT, create, turn, wait_for_ply

SERVE = [sys.executable, "-m", "boardlab", "serve"]


def test_a_killed_server_resumes_every_game_exactly(tmp_path: Path) -> None:
    db = tmp_path / "boardlab.sqlite3"
    server = start_server(db)
    match, (romans, gauls) = create(server, MURUS_HOT_SEAT)
    for ply, (token, seat, text) in enumerate(
        [(romans, 0, "d1-d3"), (gauls, 1, "a7-a5"), (romans, 0, "c1-c3")]
    ):
        assert turn(server, match, token, seat, ply, text)[0] == 200
    before = server.get(f"/api/matches/{match}", gauls)[1]
    assert server.stop(signal.SIGKILL) == -signal.SIGKILL

    server = start_server(db)
    try:
        after = server.get(f"/api/matches/{match}", gauls)[1]
        assert after == before
        assert turn(server, match, gauls, 1, 3, after["legal"][0]["text"])[0] == 200
    finally:
        server.stop()


def test_a_bot_turn_pending_at_a_kill_is_played_after_the_restart(tmp_path: Path) -> None:
    db = tmp_path / "boardlab.sqlite3"
    server = start_server(db)
    # The expert searches for seconds: the kill comes while it thinks.
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "level:expert"}]
    match, (romans, _) = create(server, {"game": "murus-gallicus", "seats": seats})
    status, view = turn(server, match, romans, 0, 0, "d1-d3")
    assert status == 200 and view["thinking"] and view["ply"] == 1
    server.stop(signal.SIGKILL)

    server = start_server(db)
    try:
        view = wait_for_ply(server, match, 2, romans)
        assert view["moves"][0]["turn"] == "d1-d3" and view["moves"][1]["seat"] == 1
        assert view["to_move"] == 0
    finally:
        server.stop()


def test_sigterm_stops_the_server_cleanly(tmp_path: Path) -> None:
    server = start_server(tmp_path / "boardlab.sqlite3")
    create(server, MURUS_HOT_SEAT)
    # uvicorn's grace period is 3 s; a server still running 3 s after it is killed (exit -9).
    assert server.stop(signal.SIGTERM, timeout=6) == 0
    output = server.output()
    assert output.startswith(f"Boardlab is running: open http://127.0.0.1:{server.port}/")
    assert "Traceback" not in output


def test_a_port_in_use_is_one_line_error(tmp_path: Path) -> None:
    server = start_server(tmp_path / "boardlab.sqlite3")
    try:
        second = subprocess.run(
            [*SERVE, "--port", str(server.port), "--db", str(tmp_path / "other.sqlite3")],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        server.stop()
    assert second.returncode == 2
    assert second.stderr == (
        f"boardlab: error: port {server.port} on 127.0.0.1 is already in use; "
        "choose another with --port\n"
    )


def test_serve_binds_loopback_by_default(tmp_path: Path) -> None:
    port = free_port()
    process = subprocess.Popen(
        [*SERVE, "--port", str(port), "--db", str(tmp_path / "boardlab.sqlite3")],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline() == f"Boardlab is running: open http://127.0.0.1:{port}/\n"
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(30)
    assert process.returncode == 0


def descendants(pid: int, depth: int = 10, first: int = 1) -> list[int]:
    """The processes below ``pid`` from generation ``first`` (1: its children) down to
    ``depth``, from one reading of /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            # The parent pid is the second field after the parenthesised command name.
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: list[int] = []
    frontier = [pid]
    for generation in range(1, depth + 1):
        frontier = [child for child, parent in parents.items() if parent in frontier]
        if generation >= first:
            found += frontier
    return found


def test_a_killed_bot_worker_does_not_stop_the_game(tmp_path: Path) -> None:
    server = start_server(tmp_path / "boardlab.sqlite3")
    # The killed worker is logged (asserted below), and so is the search it was running.
    server.expect_log(r"^a bot worker died; starting new ones$")
    server.expect_log(r"^bot level:expert could not move in match \S+: its worker process died")
    try:
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "level:expert"}]
        match, (romans, _) = create(server, {"game": "murus-gallicus", "seats": seats})
        status, view = turn(server, match, romans, 0, 0, "d1-d3")
        assert status == 200 and view["thinking"]
        # The workers are the fork server's children, once it has started them.
        deadline = time.monotonic() + 120
        workers: list[int] = []
        while not workers and time.monotonic() < deadline:
            # One reading: the fork server, started meanwhile, must not pass for a worker.
            workers = descendants(server.process.pid, first=2)
            time.sleep(0.05)
        assert workers
        for pid in workers:
            os.kill(pid, signal.SIGKILL)
        view = wait_for_ply(server, match, 2, romans)
        assert view["moves"][1]["seat"] == 1 and not view["thinking"]
        assert turn(server, match, romans, 0, 2, view["legal"][0]["text"])[0] == 200
        wait_for_ply(server, match, 4, romans)
    finally:
        server.stop()
    # Depending on when the kill lands: a broken pool, or a worker that failed to start.
    output = server.output()
    assert "a bot worker died" in output or "bot level:expert failed" in output


def test_an_unusable_store_is_one_line_error(tmp_path: Path) -> None:
    bad = tmp_path / "not-a-database.sqlite3"
    bad.write_text("these are not the bytes of an SQLite file\n" * 100)
    run = subprocess.run(
        [*SERVE, "--port", str(free_port()), "--db", str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 2
    assert (
        run.stderr
        == f"boardlab: error: cannot use {str(bad)!r} as the store: file is not a database\n"
    )


def test_a_second_server_on_the_same_database_is_refused_until_the_first_dies(
    tmp_path: Path,
) -> None:
    db = tmp_path / "boardlab.sqlite3"
    first = start_server(db)
    try:
        second = subprocess.run(
            [*SERVE, "--port", str(free_port()), "--db", str(db)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert first.get("/api/matches")[0] == 200
    finally:
        assert first.stop(signal.SIGKILL) == -signal.SIGKILL
    assert second.returncode == 2
    assert second.stderr == (
        f"boardlab: error: another boardlab serve is using {str(db)!r}; "
        "stop it or choose another --db\n"
    )
    # However the first one died, the next one starts.
    third = start_server(db)
    third.stop()


def alive(pid: int) -> bool:
    """True while process ``pid`` runs (a zombie waiting to be reaped has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_a_killed_server_leaves_no_process_behind(tmp_path: Path) -> None:
    server = start_server(tmp_path / "boardlab.sqlite3")
    processes: list[int] = []
    try:
        # The expert searches for seconds: the kill comes while a worker is busy.
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "level:expert"}]
        match, (romans, _) = create(server, {"game": "murus-gallicus", "seats": seats})
        status, view = turn(server, match, romans, 0, 0, "d1-d3")
        assert status == 200 and view["thinking"]
        deadline = time.monotonic() + 120
        children = set(descendants(server.process.pid, depth=1))
        while time.monotonic() < deadline and set(descendants(server.process.pid)) <= children:
            time.sleep(0.05)
        # The resource tracker, the fork server and the workers below it.
        processes = descendants(server.process.pid)
        assert set(processes) > children
    finally:
        server.stop(signal.SIGKILL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and any(alive(pid) for pid in processes):
        time.sleep(0.1)
    left = [pid for pid in processes if alive(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left


def test_a_cap_below_one_live_match_is_one_line_error(tmp_path: Path) -> None:
    db = tmp_path / "boardlab.sqlite3"
    run = subprocess.run(
        [*SERVE, "--port", str(free_port()), "--db", str(db), "--live-matches", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (run.returncode, run.stderr) == (
        2,
        "boardlab: error: --live-matches must be at least 1\n",
    )


def copies(db: Path, template: str, count: int, prefix: str, **changes: str) -> list[str]:
    """``count`` copies of the stored match ``template`` under new ids (as a server that ran
    long would hold them), with ``changes`` to their lobby line's columns."""
    ids = [f"{prefix}{n:015x}" for n in range(count)]
    with sqlite3.connect(db) as connection:
        (config,) = connection.execute(
            "SELECT config FROM matches WHERE id = ?", (template,)
        ).fetchone()
        columns = "game, created, status, result, plies, updated, deadline, to_move"
        row = connection.execute(
            f"SELECT {columns} FROM matches WHERE id = ?", (template,)
        ).fetchone()
        values = dict(zip(columns.split(", "), row, strict=True)) | changes
        connection.executemany(
            f"INSERT INTO matches (id, config, {columns}) VALUES (?, ?, {', '.join('?' * 8)})",
            [(id_, json.dumps(json.loads(config) | {"id": id_}), *values.values()) for id_ in ids],
        )
    return ids


def test_a_start_replays_only_the_matches_whose_bot_is_to_move(tmp_path: Path) -> None:
    """Thousands of matches waiting for a person (or abandoned) are read from their lobby
    lines at a start, not replayed: only a match whose bot is to move is loaded."""
    db = tmp_path / "boardlab.sqlite3"
    server = start_server(db)
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    waiting, _ = create(server, {"game": "murus-gallicus", "seats": seats})
    bots = [{"kind": "bot", "bot": "random"}, {"kind": "human"}]
    thinking, (_, gauls) = create(server, {"game": "murus-gallicus", "seats": bots})
    wait_for_ply(server, thinking, 1, gauls)
    server.stop()
    # The bot to move again: the Romans' first turn is forgotten, as if the server died
    # while their bot searched.
    with sqlite3.connect(db) as connection:
        connection.execute("DELETE FROM events WHERE match_id = ?", (thinking,))
        connection.execute("UPDATE matches SET plies = 0, to_move = 0 WHERE id = ?", (thinking,))
    copies(db, waiting, 5_000, "w")
    month_ago = (datetime.now(UTC) - timedelta(days=30)).isoformat()
    abandoned = copies(db, thinking, 20, "a", updated=month_ago)

    server = start_server(db)
    try:
        wait_for_ply(server, thinking, 1, gauls)
        health = server.get("/api/health")[1]
        # The match whose bot moved; none of the 5,000 waiting for their person, and none of
        # the abandoned ones, though their bot is to move.
        assert health["live"]["matches"] == 1, health
        with sqlite3.connect(db) as connection:
            # By their ids: a LIKE on the prefix would also count a random id that shares it.
            marks = ", ".join("?" * len(abandoned))
            played = connection.execute(
                f"SELECT count(*) FROM events WHERE match_id IN ({marks})", abandoned
            ).fetchone()
        assert played == (0,)
        # Opened, an abandoned match is loaded and its bot moves; a waiting one is served.
        wait_for_ply(server, abandoned[0], 1)
        assert server.get(f"/api/matches/w{0:015x}")[0] == 200
        assert server.get("/api/health")[1]["live"]["matches"] == 3
    finally:
        server.stop()


def test_idle_matches_past_the_bound_on_turns_kept_are_dropped_and_reloaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Live sessions are bounded by the turns they keep, not only by their count: past the
    bound the least recently used idle match is dropped, and read back whole when asked for."""
    monkeypatch.setattr(hub, "LIVE_TURNS", 5)
    with serve_here(tmp_path / "boardlab.sqlite3") as server:
        first, (romans, gauls) = create(server, MURUS_HOT_SEAT)  # type: ignore[arg-type]
        for ply, (token, text) in enumerate(
            [(romans, "d1-d3"), (gauls, "a7-a5"), (romans, "c1-c3")]
        ):
            assert turn(server, first, token, ply % 2, ply, text)[0] == 200  # type: ignore[arg-type]
        second, (other, _) = create(server, MURUS_HOT_SEAT)  # type: ignore[arg-type]
        # Four positions of the first match and one of the second: within the bound.
        assert server.get("/api/health")[1]["live"] == {"matches": 2, "turns": 5}
        assert turn(server, second, other, 0, 0, "d1-d3")[0] == 200  # type: ignore[arg-type]
        assert server.get("/api/health")[1]["live"] == {"matches": 1, "turns": 2}
        view = server.get(f"/api/matches/{first}", gauls)[1]
        assert [move["turn"] for move in view["moves"]] == ["d1-d3", "a7-a5", "c1-c3"]
        assert server.get("/api/health")[1]["live"] == {"matches": 1, "turns": 4}
