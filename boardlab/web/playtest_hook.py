"""Rule-entry errors of playtests: a turn the server refused a seat of a playtest match is
written down (what was typed and why), for the designer's dashboard. Called from the turn
request's path; a match of no playtest costs one indexed read, and only when a turn is refused.
"""

from __future__ import annotations

import logging

from boardlab.web.errors import ApiError
from boardlab.web.session import MatchSession
from boardlab.web.store import Store

LOG = logging.getLogger("boardlab.web")
RULE_ENTRY = 422
"""The status of a turn refused by the rules (not a race: 409 is a turn sent too late)."""
MAX_TURN_KEPT = 200
MAX_REASON_KEPT = 300


def note_refused_turn(
    store: Store, session: MatchSession, seat: int, ply: int, turn: str, error: ApiError, at: str
) -> None:
    """Keep ``turn``, refused by ``error``, if the match is a playtest's. Never raises: the
    refusal is answered whether or not it could be written down."""
    if error.status != RULE_ENTRY:
        return
    try:
        if store.playtest_of(session.id) is None:
            return
        store.add_refused_turn(
            session.id, seat, ply, turn[:MAX_TURN_KEPT], error.message[:MAX_REASON_KEPT], at
        )
    except Exception as problem:
        LOG.warning("match %s: a refused turn was not written down: %s", session.id, problem)
