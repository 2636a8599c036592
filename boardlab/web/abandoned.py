"""When an unfinished match counts as abandoned: listed, but no longer "in progress"."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from boardlab.web.store import Summary

ABANDONED_AFTER = timedelta(days=14)
"""An unfinished match with no change for this long is abandoned."""


def abandoned(summary: Summary) -> bool:
    """True for an active match whose last change is older than ``ABANDONED_AFTER``."""
    if summary.status != "active":
        return False
    try:
        updated = datetime.fromisoformat(summary.updated)
    except ValueError:
        return False
    if updated.tzinfo is None:
        updated = updated.replace(tzinfo=UTC)
    return datetime.now(UTC) - updated > ABANDONED_AFTER
