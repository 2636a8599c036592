"""The operator's log of refused requests: over a rate limit, from another site, for an unknown
host. Each refusal is logged while there are few; past a number a minute only their count is,
so that a client cannot fill the disk by being refused."""

from __future__ import annotations

import logging
import time

LOG = logging.getLogger("boardlab.web")
REFUSALS_LOGGED_PER_MINUTE = 20
"""Refusals logged one by one in a minute; past that only their count is."""


class RefusalLog:
    """Logs refused requests for the operator: each one while there are few, then a count a
    minute (so that a client cannot fill the disk by being refused)."""

    def __init__(self, per_minute: int = REFUSALS_LOGGED_PER_MINUTE) -> None:
        self.per_minute = per_minute
        self.minute = -1
        self.logged = self.unlogged = 0

    def refused(self, what: str, client: str) -> None:
        """Note one refusal: ``what`` was refused to ``client``."""
        minute = int(time.monotonic() // 60)
        if minute != self.minute:
            if self.unlogged:
                LOG.warning("refused %d more requests in the last minute", self.unlogged)
            self.minute, self.logged, self.unlogged = minute, 0, 0
        if self.logged < self.per_minute:
            self.logged += 1
            LOG.warning("refused %s from %s", what, client)
        else:
            self.unlogged += 1


REFUSALS = RefusalLog()
"""The server's one log of refusals (rate limits, cross-site requests, unknown hosts)."""
