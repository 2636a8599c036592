"""What every store backend writes and reads alike: a match's configuration as JSON text, and
the lobby's rows, of which one that cannot be read is set aside instead of failing the list."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from boardlab.web.store import MatchConfig, SeatConfig, Summary

LOG = logging.getLogger("boardlab.web")
LISTED_COLUMNS = "id, config, status, result, plies, updated, deadline, to_move"
"""The columns of ``matches`` that :func:`listed` reads, in its order."""


def config_text(config: MatchConfig) -> str:
    """The configuration as the store keeps it (JSON)."""
    seats = [
        {"kind": seat.kind, "bot": seat.bot, "token_hash": seat.token_hash} for seat in config.seats
    ]
    return json.dumps(
        {
            "options": config.options,
            "seats": seats,
            "game": config.game,
            "id": config.id,
            "created": config.created,
            "clock": config.clock,
        }
    )


def config_from_text(text: str) -> MatchConfig:
    """The configuration a store kept (raises ValueError, TypeError or KeyError for a row that
    cannot be read)."""
    data: dict[str, Any] = json.loads(text)
    seats = tuple(SeatConfig(s["kind"], s["bot"], s["token_hash"]) for s in data["seats"])
    clock = data.get("clock", "")
    if not isinstance(clock, str):
        raise TypeError("the time control is not text")
    return MatchConfig(data["id"], data["game"], data["options"], seats, data["created"], clock)


def listed(
    rows: Iterable[Sequence[Any]], set_aside: Callable[[str, str, str], None]
) -> list[tuple[MatchConfig, Summary]]:
    """The lobby's lines of ``rows`` (:data:`LISTED_COLUMNS`); a row whose configuration cannot
    be read is logged and passed to ``set_aside`` (id, reason, when) instead."""
    lines = []
    for row in rows:
        try:
            lines.append((config_from_text(row[1]), Summary(*row[2:])))
        except (ValueError, TypeError, KeyError, RecursionError) as error:
            reason = f"its configuration cannot be read ({type(error).__name__}: {error})"
            LOG.error("match %s cannot be loaded and is set aside: %s", row[0], reason)
            set_aside(row[0], reason, datetime.now(UTC).isoformat())
    return lines
