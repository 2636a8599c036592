"""What the store keeps for e-mail notifications, and its calls (both backends).

An account may give an e-mail address and opt in to being told by mail when it is its move in
a correspondence or long-clock match. With the address the store keeps a random unsubscribe
token, written into every mail's one-click unsubscribe link. Unlike a seat token it is kept
as it is (each mail must carry it): it can do nothing but turn that account's mails off.
"""

from __future__ import annotations

from abc import abstractmethod
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol

from boardlab.web.migrations import Run


@dataclass(frozen=True)
class NotifySettings:
    """An account's e-mail ``address``, whether it wants mail (``enabled``), its
    ``unsubscribe`` token, and when this was last changed."""

    account_id: str
    address: str
    enabled: bool
    unsubscribe: str
    updated: str


class NotificationStore(Protocol):
    """The store's calls for notification settings."""

    def notify_settings(self, account_id: str) -> NotifySettings | None:
        """The account's settings, or None if it never gave an address."""

    def set_notify_settings(self, settings: NotifySettings) -> None:
        """Keep the account's settings (replacing any before)."""

    def unsubscribe(self, token: str, when: str) -> bool:
        """Turn off the mails of the account whose unsubscribe token is ``token``; False if
        no account has it."""

    def unsubscribe_known(self, token: str) -> bool:
        """Whether an account's unsubscribe token is ``token``."""

    def forget_notify_settings(self, account_id: str) -> None:
        """Remove the account's address and settings."""

    def account_name(self, account_id: str) -> str | None:
        """The name of the account ``account_id`` (None if there is none)."""


class SqlNotifications:
    """:class:`NotificationStore` in SQL that both backends run."""

    @abstractmethod
    def _transaction(self, reading: bool = False) -> AbstractContextManager[Run]:
        """A transaction (see :class:`~boardlab.web.sql_store.SqlStore`)."""

    def notify_settings(self, account_id: str) -> NotifySettings | None:
        """Read the account's row."""
        with self._transaction(reading=True) as run:
            rows = run(
                "SELECT account_id, address, enabled, unsubscribe, updated FROM notify_settings "
                "WHERE account_id = ?",
                (account_id,),
            )
        if not rows:
            return None
        account_id, address, enabled, token, updated = rows[0]
        return NotifySettings(
            str(account_id), str(address), bool(enabled), str(token), str(updated)
        )

    def set_notify_settings(self, settings: NotifySettings) -> None:
        """Insert or replace the account's row."""
        with self._transaction() as run:
            run(
                "INSERT INTO notify_settings (account_id, address, enabled, unsubscribe, updated) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (account_id) DO UPDATE SET "
                "address = excluded.address, enabled = excluded.enabled, "
                "unsubscribe = excluded.unsubscribe, updated = excluded.updated",
                (
                    settings.account_id,
                    settings.address,
                    int(settings.enabled),
                    settings.unsubscribe,
                    settings.updated,
                ),
            )

    def unsubscribe(self, token: str, when: str) -> bool:
        """Clear ``enabled`` of the row holding ``token``."""
        with self._transaction() as run:
            rows = run("SELECT account_id FROM notify_settings WHERE unsubscribe = ?", (token,))
            if not rows:
                return False
            run(
                "UPDATE notify_settings SET enabled = 0, updated = ? WHERE unsubscribe = ?",
                (when, token),
            )
        return True

    def unsubscribe_known(self, token: str) -> bool:
        """Look the token up."""
        with self._transaction(reading=True) as run:
            rows = run("SELECT 1 FROM notify_settings WHERE unsubscribe = ?", (token,))
        return bool(rows)

    def forget_notify_settings(self, account_id: str) -> None:
        """Delete the account's row."""
        with self._transaction() as run:
            run("DELETE FROM notify_settings WHERE account_id = ?", (account_id,))

    def account_name(self, account_id: str) -> str | None:
        """Read the account's name."""
        with self._transaction(reading=True) as run:
            rows = run("SELECT name FROM accounts WHERE id = ?", (account_id,))
        return str(rows[0][0]) if rows else None
