"""A password hash made with older argon2 parameters is made again, with the current ones, when
its player next signs in (against a real server and its store), and the account's other
sessions stay signed in."""

from __future__ import annotations

from argon2 import PasswordHasher

from boardlab.web.accounts import HASHER
from boardlab.web.stores import open_store
from tests.web.account_client import Browser, sign_up
from tests.web.conftest import Server

PASSWORD = "correct horse"


def test_an_old_hash_is_upgraded_at_sign_in(shared_server: Server) -> None:
    server = shared_server
    first = Browser(server, "127.0.4.1")
    name = sign_up(first, password=PASSWORD)
    old = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1).hash(PASSWORD)
    store = open_store(server.db)
    try:
        account = store.account_named(name.lower())
        assert account is not None
        assert store.rehash_password(account.id, account.password, old)
        assert not store.rehash_password(account.id, "not its hash", old)
        second = Browser(server, "127.0.4.2")
        status, answer = second.post("/api/account/signin", {"name": name, "password": PASSWORD})
        assert status == 200, answer
        upgraded = store.account_named(name.lower())
        assert upgraded is not None and upgraded.password != old
        assert not HASHER.check_needs_rehash(upgraded.password)
        assert HASHER.verify(upgraded.password, PASSWORD)
    finally:
        store.close()
    assert first.account() == name  # the other session lives on
    assert second.account() == name
