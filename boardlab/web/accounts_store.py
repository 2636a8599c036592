"""A store call of accounts beyond the first ones (``sql_store.py``): a password hash upgraded
in place, for both backends."""

from __future__ import annotations

from abc import abstractmethod
from contextlib import AbstractContextManager
from typing import Protocol

from boardlab.web.migrations import Run


class PasswordStore(Protocol):
    """The store's call for upgrading a password hash."""

    def rehash_password(self, account_id: str, was: str, now: str) -> bool:
        """Replace the account's password hash ``was`` by ``now`` (the same password hashed
        with newer parameters), keeping its sessions; False if the hash is no longer ``was``
        (the password was changed meanwhile: the change stays)."""


class SqlPasswords:
    """:class:`PasswordStore` in SQL that both backends run."""

    @abstractmethod
    def _transaction(self, reading: bool = False) -> AbstractContextManager[Run]:
        """A transaction (see :class:`~boardlab.web.sql_store.SqlStore`)."""

    def rehash_password(self, account_id: str, was: str, now: str) -> bool:
        """A compare-and-set on the account's row."""
        with self._transaction() as run:
            rows = run(
                "SELECT password FROM accounts WHERE id = ? AND password = ?", (account_id, was)
            )
            if not rows:
                return False
            run("UPDATE accounts SET password = ? WHERE id = ?", (now, account_id))
        return True
