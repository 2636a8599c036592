"""Seats held through accounts in "your games" and invite claims (``web/seating.py``), against
the app served in the test process (``local.py``) so that mutation testing sees this code.

A signed-in player's games are listed from any browser, with the seats their tokens and their
account hold together; a signed-in claim of an invite link moves the seat to the claimer's
account, away from an account that held it through the link's token; the creator sees at once
that the link was used.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.account_client import Browser, new_name, sign_up
from tests.web.local import LocalServer, serve_here

HOT_SEAT = [{"kind": "human"}, {"kind": "human"}]
INVITED = [{"kind": "human"}, {"kind": "invite"}]
MALFORMED = "'matches' must map at most 100 match ids to their tokens"


@pytest.fixture(scope="module")
def here(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    with serve_here(tmp_path_factory.mktemp("seats") / "boardlab.sqlite3") as server:
        yield server


ADDRESSES = (f"127.0.38.{n}" for n in itertools.count(1))
"""Each browser from an address of its own: sign-ins are limited per address."""


def new_browser(here: LocalServer) -> Browser:
    """A new browser, empty, from an address no other browser of this file used."""
    return Browser(here, next(ADDRESSES))


def created(browser: Browser, seats: list[dict[str, str]]) -> tuple[str, list[str]]:
    """A new Murus Gallicus match made by ``browser``: its id and each seat's token."""
    status, answer = browser.post("/api/matches", {"game": "murus-gallicus", "seats": seats})
    assert status == 201, answer
    return answer["id"], [seat.get("token") for seat in answer["seats"]]


def mine(browser: Browser, matches: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """``browser``'s games, given the tokens ``matches`` (none: what its account holds)."""
    status, answer = browser.post("/api/mine", {"matches": matches or {}})
    assert status == 200, answer
    return {entry["id"]: entry for entry in answer["matches"]}


def signed_in_again(here: LocalServer, name: str) -> Browser:
    """A second browser, empty, signed in to the account ``name``."""
    again = new_browser(here)
    body = {"name": name, "password": "correct horse"}
    assert again.post("/api/account/signin", body)[0] == 200
    return again


def test_your_games_need_the_matches_field_but_signing_up_does_not(here: LocalServer) -> None:
    guest = new_browser(here)
    assert guest.post("/api/mine", {}) == (400, {"error": MALFORMED})
    assert guest.post("/api/mine", {"matches": []}) == (400, {"error": MALFORMED})
    name = sign_up(guest)
    assert guest.account() == name and mine(guest) == {}


def test_a_signed_in_players_games_reach_a_browser_that_holds_no_token(
    here: LocalServer,
) -> None:
    home = new_browser(here)
    name = sign_up(home)
    match, (first, _) = created(home, HOT_SEAT)
    elsewhere = signed_in_again(here, name)
    entry = mine(elsewhere)[match]
    assert entry["you"] == [0, 1] and entry["state"] == "your turn"
    # A token of one seat and the account's seats together: both seats, not only the token's.
    assert mine(elsewhere, {match: [first]})[match]["you"] == [0, 1]
    # A guest with no token sees none of it.
    assert match not in mine(new_browser(here))


def test_a_signed_in_claim_moves_the_seat_to_the_claimers_account(here: LocalServer) -> None:
    creator = new_browser(here)
    match, (own, link) = created(creator, INVITED)
    # The creator signs up carrying both tokens: the account holds both seats, the link's too.
    alice = new_name()
    body = {"name": alice, "password": "correct horse", "matches": {match: [own, link]}}
    assert creator.post("/api/account/signup", body)[0] == 201
    assert mine(signed_in_again(here, alice))[match]["you"] == [0, 1]
    friend = new_browser(here)
    bob = sign_up(friend)
    status, answer = friend.post(f"/api/matches/{match}/claim", {"seat": 1, "token": link})
    assert status == 200 and answer["seat"] == 1
    # Bob's account holds the seat from any browser; Alice's holds only her own now.
    assert mine(signed_in_again(here, bob))[match]["you"] == [1]
    assert mine(signed_in_again(here, alice))[match]["you"] == [0]
    # The creator's page is told at once that the link was used.
    status, view = creator.get(f"/api/matches/{match}", own)
    assert status == 200
    assert [player["claimed"] for player in view["players"]] == [False, True]


def test_a_guest_claim_records_no_account(here: LocalServer) -> None:
    creator = new_browser(here)
    name = sign_up(creator)
    match, (_, link) = created(creator, INVITED)
    status, answer = new_browser(here).post(
        f"/api/matches/{match}/claim", {"seat": 1, "token": link}
    )
    assert status == 200
    # The creator's account still holds only the seat it made for itself.
    assert mine(signed_in_again(here, name))[match]["you"] == [0]
    assert new_browser(here).get(f"/api/matches/{match}", answer["token"])[1]["you"] == [1]


def test_your_games_join_the_seats_of_tokens_and_of_the_account(here: LocalServer) -> None:
    creator = new_browser(here)
    sign_up(creator)
    match, (_, link) = created(creator, INVITED)
    # The account holds the seat it made for itself, the link's token holds the invited one.
    assert mine(creator)[match]["you"] == [0]
    assert mine(creator, {match: [link]})[match]["you"] == [0, 1]
