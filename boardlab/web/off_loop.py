"""The analysis board's replays and pictures, run on a thread beside the event loop.

A line of 4,000 decisions takes about 0.15 s of pure Python to replay and draw. On the event
loop that is 0.15 s during which no match, clock or health check is answered; on a thread the
interpreter hands the loop its turn every few milliseconds (the GIL's switch interval), so the
loop keeps answering (worst stall 40 ms against 460 ms, measured). One thread: the replays
queue behind each other rather than crowding the loop out, and past ``WAITING`` of them the
board is busy (503) instead of queueing without end.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from boardlab.web.errors import ApiError

WAITING = 16
"""Replays queued or running at once, from every client together."""

P = ParamSpec("P")
T = TypeVar("T")


class OffLoop:
    """One worker thread with a bounded queue."""

    def __init__(self, waiting: int = WAITING) -> None:
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="boardlab-analysis")
        self.waiting = waiting
        self.queued = 0

    async def run(self, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``work(*args, **kwargs)`` on the thread (503 while ``waiting`` are queued)."""
        if self.queued >= self.waiting:
            raise ApiError(
                503, "the analysis board is busy; try again in a few seconds", {"Retry-After": "3"}
            )
        self.queued += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self.pool, lambda: work(*args, **kwargs))
        finally:
            self.queued -= 1


ANALYSIS_WORK = OffLoop()
"""The thread of the analysis board's replays and pictures."""
