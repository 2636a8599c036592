"""Seeks shared by two server processes on one PostgreSQL database: a seek posted through one
is listed by the other, accepted through the other it makes one match, and the poster's page,
whose websocket is on the first, is told (within a tick) and plays in that match there; a
three-seat seek joined through the second by a page kept there, its last seat taken through
the first, tells the joiner's page on the second its own seat."""

from __future__ import annotations

import json
import time
from pathlib import Path

from tests.web.account_client import Browser
from tests.web.conftest import Server, start_server
from tests.web.test_seeks import SEEK, listed, lobby_socket, next_message, offcuts


def test_a_seek_posted_through_one_process_is_accepted_through_another(
    tmp_path: Path, postgres_url: str
) -> None:
    first = start_server(tmp_path / "first.sqlite3", url=postgres_url)
    second: Server | None = None
    try:
        second = start_server(tmp_path / "second.sqlite3", url=postgres_url)
        status, posted = Browser(first, "127.0.5.1").post("/api/seeks", SEEK)
        assert status == 201, posted
        with lobby_socket(first, [posted["token"]]) as page:
            next_message(page, "seeks")
            assert posted["id"] in listed(second)
            started = time.monotonic()
            status, match = Browser(second, "127.0.5.2").post(
                f"/api/seeks/{posted['id']}/accept", {}
            )
            assert status == 201, match
            told = next_message(page, "matched")
            assert told["match"] == match["id"]
            assert time.monotonic() - started < 15
        assert posted["id"] not in listed(first) and posted["id"] not in listed(second)
        status, view = first.get(f"/api/matches/{match['id']}", posted["token"])
        assert status == 200 and view["you"] == [told["seat"]], json.dumps(view)[:300]
        status, posted = Browser(first, "127.0.5.3").post("/api/seeks", offcuts(3))
        assert status == 201, posted
        with (
            lobby_socket(first, [posted["token"]]) as poster_page,
            lobby_socket(second, []) as joiner_page,
        ):
            next_message(joiner_page, "seeks")
            status, joined = Browser(second, "127.0.5.4").post(
                f"/api/seeks/{posted['id']}/accept", {}
            )
            assert status == 200, joined
            joiner_page.send(json.dumps({"tokens": [joined["token"]]}))
            status, match = Browser(first, "127.0.5.5").post(
                f"/api/seeks/{posted['id']}/accept", {}
            )
            assert status == 201, match
            told = [next_message(page, "matched") for page in (poster_page, joiner_page)]
        seats = sorted([told[0]["seat"], told[1]["seat"], match["seats"][0]["seat"]])
        assert seats == [0, 1, 2] and {t["match"] for t in told} == {match["id"]}
        status, view = second.get(f"/api/matches/{match['id']}", joined["token"])
        assert status == 200 and view["you"] == [told[1]["seat"]], json.dumps(view)[:300]
    finally:
        if second is not None:
            second.stop()
        first.stop()
