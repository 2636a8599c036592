"""Password guessing is slowed (issue 41, item 1): account attempts are limited per address and,
whatever the address, per account name; and the session cookie is Secure behind a TLS proxy.
One server with the default account allowance at once (10), refilled slowly."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from boardlab.web.limits import Limits
from tests.web.account_client import Browser, new_name, sign_up
from tests.web.conftest import Server, start_server

BURST = Limits().account_attempt_burst
PROXY = "127.0.0.1"
"""The address the server trusts as its reverse proxy (which ends TLS)."""


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with the default account burst, behind a trusted proxy at 127.0.0.1."""
    # The default allowance at once; refilled slowly, so that a loaded machine's slow hashes
    # give back no attempt before the test has spent them all.
    options = ["--trusted-proxy", PROXY, "--account-attempts-per-minute", "0.1"]
    running = start_server(tmp_path_factory.mktemp("accounts") / "b.sqlite3", options=options)
    try:
        yield running
    finally:
        running.stop()


def test_guessing_from_one_address_is_refused_after_the_allowance(guarded: Server) -> None:
    name = sign_up(Browser(guarded, "127.0.0.2"))
    guesser = Browser(guarded, "127.0.0.3")
    # Each guess names another account, so that only the address's allowance is spent.
    answers = [
        guesser.post("/api/account/signin", {"name": new_name(), "password": f"guess {n:04}"})
        for n in range(BURST)
    ]
    assert {status for status, _ in answers} == {401}
    status, answer = guesser.post("/api/account/signin", {"name": new_name(), "password": "x" * 8})
    assert status == 429 and "too many account attempts" in answer["error"]
    # Even the right password waits: the address has spent its allowance.
    right = {"name": name, "password": "correct horse"}
    assert guesser.post("/api/account/signin", right)[0] == 429
    assert Browser(guarded, "127.0.0.4").account() is None  # other requests are not limited


def test_guessing_one_name_from_many_addresses_is_refused_after_the_allowance(
    guarded: Server,
) -> None:
    name = sign_up(Browser(guarded, "127.0.0.5"))
    for n in range(BURST - 1):  # the sign-up counted once for the name
        guess = {"name": name.upper(), "password": f"guess {n:04}"}
        assert Browser(guarded, f"127.0.1.{n + 1}").post("/api/account/signin", guess)[0] == 401
    right = {"name": name, "password": "correct horse"}
    status, answer = Browser(guarded, "127.0.2.1").post("/api/account/signin", right)
    assert status == 429 and "attempts for this account name" in answer["error"]
    # The operator's log tells of refused sign-ins (while few a minute: refusals.py).
    assert "refused a sign-in (wrong name or password) from 127.0.1.1" in guarded.output()
    # Another name is not held up by it.
    assert sign_up(Browser(guarded, "127.0.2.2"))


def test_the_cookie_is_secure_behind_a_proxy_that_ends_tls(guarded: Server) -> None:
    browser = Browser(guarded, PROXY, headers={"X-Forwarded-Proto": "https"})
    sign_up(browser)
    assert {"secure", "httponly"} <= browser.cookie_attributes()
    plain = Browser(guarded, "127.0.0.6", headers={"X-Forwarded-Proto": "https"})
    sign_up(plain)  # not the trusted proxy: its header is not believed
    assert "secure" not in plain.cookie_attributes()
