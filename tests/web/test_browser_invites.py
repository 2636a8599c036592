"""An invite link seats the first browser that opens it; after that it only lets people watch,
and of claims raced against one server exactly one wins."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from urllib.parse import parse_qs

from playwright.sync_api import Browser, expect

from tests.web.browser_play import WAIT_MS, create_match, open_link
from tests.web.conftest import Server

RACERS = 8


def invite(link: str) -> tuple[int, str]:
    """The seat and token of an invite link's fragment."""
    fragment = parse_qs(link.split("#", 1)[1])
    return int(fragment["seat"][0]), fragment["token"][0]


def test_the_first_browser_to_open_an_invite_takes_the_seat_the_next_only_watches(
    browser: Browser, shared_server: Server
) -> None:
    created = create_match(shared_server, "murus-gallicus", [{"kind": "human"}, {"kind": "invite"}])
    link = created["seats"][1]["link"]
    first, second = browser.new_context(), browser.new_context()

    friend = open_link(first, shared_server, link)
    expect(friend.locator("#role")).to_have_text("you play Gauls")
    assert "#" not in friend.url, "the token left the address bar"
    # Reloading keeps the seat: the fresh token is in this browser's storage.
    friend.reload()
    expect(friend.locator("#role")).to_have_text("you play Gauls")

    late = open_link(second, shared_server, link)
    expect(late.locator("#role")).to_have_text("spectator")
    expect(late.locator("#message")).to_contain_text("already been used", timeout=WAIT_MS)
    expect(late.locator("#notation")).to_be_hidden()

    # The link's own token no longer holds the seat: only the claimed one does.
    status, view = shared_server.get(f"/api/matches/{created['id']}", invite(link)[1])
    assert status == 200 and view["you"] == [], view
    first.close()
    second.close()


def test_raced_claims_of_one_invite_seat_exactly_one_browser(shared_server: Server) -> None:
    created = create_match(shared_server, "carnyx", [{"kind": "human"}, {"kind": "invite"}])
    seat, token = invite(created["seats"][1]["link"])
    path = f"/api/matches/{created['id']}/claim"

    body = {"seat": seat, "token": token}
    with ThreadPoolExecutor(RACERS) as pool:
        answers = list(pool.map(lambda _: shared_server.post(path, body), range(RACERS)))
    winners = [answer for status, answer in answers if status == 200]
    assert len(winners) == 1, answers
    assert sorted(status for status, _ in answers) == [200] + [409] * (RACERS - 1), answers
    fresh = winners[0]["token"]
    assert fresh != token
    status, view = shared_server.get(f"/api/matches/{created['id']}", fresh)
    assert status == 200 and view["you"] == [1], view

    # Only invited seats can be claimed, and a wrong token claims nothing.
    creator = created["seats"][0]["token"]
    status, answer = shared_server.post(path, {"seat": 0, "token": creator})
    assert status == 400 and "not an invited seat" in answer["error"], answer
    status, answer = shared_server.post(path, {"seat": 1, "token": "x" * 43})
    assert status == 409 and "only lets you watch" in answer["error"], answer
