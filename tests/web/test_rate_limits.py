"""Per-address rate limits (``web/limits.py``): a token bucket per client, the wait a refusal
names, the bucket an address falls in, and the bound on the addresses remembered; and, against
the app served in the test process (``local.py``), a proxy's client that is no address.

``test_limits.py`` tests the limits through ``boardlab serve`` (time limits, bursts over HTTP).
"""

from __future__ import annotations

import http.client
import json
import logging
import time
from pathlib import Path

import pytest

from boardlab.web.errors import ApiError
from boardlab.web.limits import MAX_ADDRESSES, Limits, RateLimiter, client_key
from boardlab.web.refusals import REFUSALS
from tests.web.local import serve_here


def refusal(limiter: RateLimiter, address: str, cost: float = 1.0) -> ApiError:
    with pytest.raises(ApiError) as refused:
        limiter.take(address, cost)
    return refused.value


def test_a_burst_is_served_then_refused_with_the_wait_until_the_next_request() -> None:
    limiter = RateLimiter("moves", per_minute=6.0, burst=3)
    for _ in range(3):
        limiter.take("10.0.0.1")
    refused = refusal(limiter, "10.0.0.1")
    # One request comes back every 10 s: the wait is that, not more (nor a multiple).
    assert refused.status == 429 and refused.headers == {"Retry-After": "10"}
    assert refused.message == "too many moves from your address; try again in 10 s"
    limiter.take("10.0.0.2")  # another address has its own bucket
    # A request of 3 moves' worth waits for 3 to come back.
    assert refusal(limiter, "10.0.0.1", 3).headers == {"Retry-After": "30"}


def test_a_refused_request_costs_nothing() -> None:
    limiter = RateLimiter("moves", per_minute=600.0, burst=1)
    limiter.take("10.0.0.1")
    refusal(limiter, "10.0.0.1")
    time.sleep(0.15)  # one request's worth comes back (10 a second)
    limiter.take("10.0.0.1")


def test_the_allowance_refills_with_time_up_to_the_burst() -> None:
    limiter = RateLimiter("moves", per_minute=6000.0, burst=2)
    limiter.take("10.0.0.1", 2)
    time.sleep(0.1)  # 10 requests' worth at 100 a second: the bucket holds 2 at most
    limiter.take("10.0.0.1", 2)
    refusal(limiter, "10.0.0.1")


def test_a_request_dearer_than_the_burst_costs_the_burst() -> None:
    limiter = RateLimiter("moves", per_minute=6.0, burst=4)
    limiter.take("10.0.0.1", 10)  # served: as dear as the whole burst
    assert refusal(limiter, "10.0.0.1", 10).headers == {"Retry-After": "40"}
    limiter.take("10.0.0.2", 3)
    limiter.take("10.0.0.2", 1)
    refusal(limiter, "10.0.0.2", 0.5)


def test_a_refusal_is_logged_for_the_operator(caplog: pytest.LogCaptureFixture) -> None:
    limiter = RateLimiter("match creations", per_minute=1.0, burst=1)
    limiter.take("10.9.0.1")
    REFUSALS.minute = -1  # a new minute: this refusal is logged one by one
    with caplog.at_level(logging.WARNING, "boardlab.web"):
        refusal(limiter, "10.9.0.1")
    assert "refused match creations over the limit (429) from 10.9.0.1" in caplog.messages


def address(n: int) -> str:
    return f"10.{n >> 16}.{(n >> 8) & 255}.{n & 255}"


def test_memory_stays_bounded_whatever_addresses_come() -> None:
    limiter = RateLimiter("moves", per_minute=0.001, burst=2)
    for n in range(MAX_ADDRESSES):
        limiter.take(address(n))
    assert len(limiter.buckets) == MAX_ADDRESSES
    # One more, and every client still limited: the older half is forgotten, the newer kept.
    limiter.take(address(MAX_ADDRESSES))
    assert len(limiter.buckets) == MAX_ADDRESSES // 2 + 1
    assert address(MAX_ADDRESSES // 2 - 1) not in limiter.buckets
    assert address(MAX_ADDRESSES // 2) in limiter.buckets
    for n in range(MAX_ADDRESSES + 1, MAX_ADDRESSES + 60_000):
        limiter.take(address(n))
    assert len(limiter.buckets) <= MAX_ADDRESSES


def test_quiet_clients_are_forgotten_before_busy_ones() -> None:
    limiter = RateLimiter("moves", per_minute=600.0, burst=2)
    # Clients that took one request a fifth of a second ago: full again at 10 a second.
    past = time.monotonic() - 0.2
    limiter.buckets = {f"quiet{n}": (1.0, past) for n in range(MAX_ADDRESSES - 10)}
    busy = [f"busy{n}" for n in range(10)]
    for name in busy:
        limiter.take(name, 2)
    limiter.take("newcomer")  # over the bound: the full (quiet) buckets go, nothing else
    assert set(limiter.buckets) == {*busy, "newcomer"}


@pytest.mark.parametrize(
    ("host", "key"),
    [
        ("192.0.2.7", "192.0.2.7"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:db8:1:2::ffff", "2001:db8:1:2::/64"),
        ("::1", "::/64"),
        ("unknown", "unknown"),
        ("_hidden", "_hidden"),
        (None, ""),
    ],
)
def test_each_client_address_has_a_bucket_and_an_ipv6_client_its_64(
    host: str | None, key: str
) -> None:
    assert client_key(host) == key


def test_a_proxys_client_that_is_no_address_is_still_served_and_limited(tmp_path: Path) -> None:
    limits = Limits(creation_burst=2, creations_per_minute=0.001)
    with serve_here(tmp_path / "b.sqlite3", limits, trusted_proxy="127.0.0.1") as server:
        port = int(server.url.rsplit(":", 1)[1].strip("/"))
        body = json.dumps({"game": "murus-gallicus", "seats": [{"kind": "human"}] * 2})
        statuses = []
        for forwarded in ("unknown", "unknown", "unknown", "198.51.100.4"):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            headers = {"Content-Type": "application/json", "X-Forwarded-For": forwarded}
            connection.request("POST", "/api/matches", body, headers)
            statuses.append(connection.getresponse().status)
            connection.close()
        assert statuses == [201, 201, 429, 201]
