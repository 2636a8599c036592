"""Fair turns at the bot workers: who searches next when more searches wait than workers.

The worker pool would serve searches in the order they came, so one address that starts many
all-bot matches (or asks the analysis bot again and again) would make every other player's bot
wait behind it, and lose on its clock. Instead a search waits here for a slot (there are as many
slots as workers, so the pool itself never queues) and the slots go:

1. first to bots on a running real-time clock against a person (``CLOCKED``), then to other bots
   against a person and to the analysis board (``PLAYER``), then to all-bot matches (``BOTS``);
2. within a class, to the owner (the address that created the match, or asks for the analysis)
   with the fewest searches running, then the longest waiting;
3. all-bot matches never hold more than ``bots_share`` slots together, nor more than one per
   owner, so they leave the other workers to people whatever their number.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

CLOCKED, PLAYER, BOTS = 0, 1, 2
"""The classes of search, served in this order."""


@dataclass(eq=False)
class _Waiter:
    kind: int
    owner: str
    order: int
    go: asyncio.Future[None]


class BotQueue:
    """``slots`` searches at once (one per worker), handed out as the module says."""

    def __init__(self, slots: int, bots_share: int = 1) -> None:
        self.slots = slots
        self.bots_share = bots_share
        self.waiting: list[_Waiter] = []
        self.running: Counter[tuple[int, str]] = Counter()  # (kind, owner) -> searches
        self._order = itertools.count()

    @asynccontextmanager
    async def slot(self, kind: int, owner: str) -> AsyncIterator[None]:
        """Wait for a slot for a search of class ``kind`` for ``owner``; it is freed on exit."""
        waiter = _Waiter(kind, owner, next(self._order), asyncio.get_running_loop().create_future())
        self.waiting.append(waiter)
        self._hand_out()
        try:
            await waiter.go
        except asyncio.CancelledError:
            if waiter in self.waiting:
                self.waiting.remove(waiter)
            elif not waiter.go.cancelled():
                self._release(waiter)  # handed a slot just as it was cancelled
            raise
        try:
            yield
        finally:
            self._release(waiter)

    def _release(self, waiter: _Waiter) -> None:
        self.running[waiter.kind, waiter.owner] -= 1
        self._hand_out()

    def _hand_out(self) -> None:
        """Give free slots to the waiters first in line (see the module)."""
        while self.waiting and self.running.total() < self.slots:
            eligible = [waiter for waiter in self.waiting if self._may_run(waiter)]
            if not eligible:
                return
            chosen = min(eligible, key=self._rank)
            self.waiting.remove(chosen)
            self.running[chosen.kind, chosen.owner] += 1
            chosen.go.set_result(None)

    def _may_run(self, waiter: _Waiter) -> bool:
        if waiter.kind != BOTS:
            return True
        bots = sum(n for (kind, _), n in self.running.items() if kind == BOTS)
        return bots < self.bots_share and self.running[BOTS, waiter.owner] == 0

    def _rank(self, waiter: _Waiter) -> tuple[int, int, int]:
        owner_running = sum(n for (_, who), n in self.running.items() if who == waiter.owner)
        return waiter.kind, owner_running, waiter.order
