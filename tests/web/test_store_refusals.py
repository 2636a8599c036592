"""A store that refuses to write (a full disk) costs no match and no timer: the change asked is
answered 503 and nothing is changed, reads go on, and a flag that fell meanwhile is committed
by its timer once the store writes again."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.web.conftest import UNLIMITED, start_server
from tests.web.test_api import create, turn
from tests.web.test_api_clock import clocked, listed, opening, view_of

FAULTS = Path(__file__).with_name("faults")


def test_a_full_disk_refuses_changes_and_the_flag_falls_once_it_writes_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    full = tmp_path / "disk-is-full"
    monkeypatch.setenv("PYTHONPATH", str(FAULTS))
    monkeypatch.setenv("BOARDLAB_FAULT", f"full={full}")
    server = start_server(tmp_path / "boardlab.sqlite3", options=UNLIMITED)
    server.expect_log(r"^match \S+: the store refused a change: database or disk is full")
    try:
        match, (romans, gauls) = create(server, clocked({"base": 3, "increment": 0}))
        assert romans and gauls
        opening(server, match, romans, gauls)
        full.touch()
        status, answer = turn(server, match, romans, 0, 2, "c1-c3")
        assert status == 503 and "nothing was changed" in answer["error"], answer
        # The Romans' 3 s run out while nothing can be stored: every read is answered, the
        # match as stored (the flag waits for the store).
        time.sleep(3.5)
        for _ in range(3):
            view = view_of(server, match, gauls)
            assert view["ply"] == 2 and view["result"] is None
            assert view["clock"]["running"] == 0 and view["now"] - view["clock"]["since"] > 3
        assert server.get("/api/health")[0] == 200
        assert listed(server, match)["status"] == "active"

        full.unlink()
        # No request for the match: its timer commits the flag once the store writes again.
        deadline = time.monotonic() + 30
        while listed(server, match)["status"] == "active":
            assert time.monotonic() < deadline, "the flag did not fall after the disk freed"
            time.sleep(0.2)
        assert listed(server, match)["result"] == "Gauls won (out of time)"
        assert view_of(server, match, gauls)["result"]["termination"] == "timeout"
    finally:
        server.stop()
