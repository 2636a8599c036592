"""Loading a stored match defensively: one that cannot be loaded is set aside, never fatal.

A match the store holds but the code cannot rebuild (a row written by hand, or by an older
version with looser checks) must not take the lobby or the start-up down with it: it is marked
in the store, logged with its id and the reason, listed by ``GET /api/health``, and answered
410 from then on; every other match is served as usual.
"""

from __future__ import annotations

import logging

from boardlab.web.errors import ApiError
from boardlab.web.session import MatchSession
from boardlab.web.store import SetAside, Store, StoreUnavailable

LOG = logging.getLogger("boardlab.web")
GONE = "this match cannot be loaded; it was set aside for the server's operator"
UNREACHABLE = "the server cannot read its matches right now: try again shortly"


def load_session(store: Store, match_id: str, when: str) -> MatchSession:
    """The session of a stored match, rebuilt from its events (404 if there is none, 410 if it
    cannot be rebuilt: then it is set aside, at time ``when``)."""
    try:
        stored = store.load(match_id)
        if stored is None:
            raise ApiError(404, "there is no match with this id")
        return MatchSession(stored)
    except SetAside as error:
        raise ApiError(410, GONE) from error
    except StoreUnavailable as error:
        # The store, not the match, is at fault: nothing is set aside.
        raise ApiError(503, UNREACHABLE, {"Retry-After": "5"}) from error
    except ApiError as error:
        if error.status == 404:
            raise
        reason = error.message
    except Exception as error:
        # Whatever a stored row holds, it costs this one match only.
        reason = f"{type(error).__name__}: {error}"
    set_aside(store, match_id, reason, when)
    raise ApiError(410, GONE)


def set_aside(store: Store, match_id: str, reason: str, when: str) -> None:
    """Mark a match that cannot be loaded, and log why."""
    LOG.error("match %s cannot be loaded and is set aside: %s", match_id, reason)
    store.set_aside(match_id, reason, when)
