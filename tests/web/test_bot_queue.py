"""Who searches next at the bot workers (``boardlab.web.bot_queue``): the order of classes, the
share left to all-bot matches, fairness between owners, and cancelled waits."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from boardlab.web.bot_queue import BOTS, CLOCKED, PLAYER, BotQueue

T = TypeVar("T")


def run(scenario: Coroutine[Any, Any, T]) -> T:
    """Run ``scenario`` in a thread of its own: the session's Playwright keeps an event loop
    running in this one."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, scenario).result()


async def served_order(queue: BotQueue, requests: list[tuple[int, str]], hold: int) -> list[str]:
    """The order in which ``requests`` (class, owner) get a slot, while ``hold`` slots are
    taken first by other searches and then freed one at a time; each search holds its slot
    until the next one is let in."""
    order: list[str] = []
    gates = [asyncio.Event() for _ in range(hold + len(requests))]

    async def search(index: int, kind: int, owner: str) -> None:
        async with queue.slot(kind, owner):
            order.append(owner)
            await gates[index].wait()

    blockers = [asyncio.create_task(search(i, PLAYER, "blocker")) for i in range(hold)]
    await asyncio.sleep(0)
    tasks = [
        asyncio.create_task(search(hold + i, kind, owner))
        for i, (kind, owner) in enumerate(requests)
    ]
    await asyncio.sleep(0)
    for gate in gates:
        gate.set()
        for _ in range(5):
            await asyncio.sleep(0)
    await asyncio.gather(*blockers, *tasks)
    return [owner for owner in order if owner != "blocker"]


def test_a_bot_on_a_clock_against_a_person_goes_first_and_all_bot_matches_last() -> None:
    requests = [(BOTS, "a"), (PLAYER, "b"), (CLOCKED, "c"), (BOTS, "d"), (PLAYER, "e")]
    order = run(served_order(BotQueue(1), requests, hold=1))
    assert order == ["c", "b", "e", "a", "d"]


def test_within_a_class_the_owner_with_fewest_searches_running_goes_first() -> None:
    async def scenario() -> list[str]:
        queue = BotQueue(2)
        first = asyncio.Event()
        order: list[str] = []

        async def search(owner: str, release: asyncio.Event) -> None:
            async with queue.slot(PLAYER, owner):
                order.append(owner)
                await release.wait()

        # "a" holds one slot; then a, a, a, b wait for the other: b comes before a's others.
        held = asyncio.create_task(search("a", first))
        await asyncio.sleep(0)
        done = asyncio.Event()
        waiting = [asyncio.create_task(search(owner, done)) for owner in "aaab"]
        await asyncio.sleep(0)
        assert order == ["a", "a"]  # both slots taken, one by the first waiter
        done.set()
        first.set()
        await asyncio.gather(held, *waiting)
        return order

    assert run(scenario()) == ["a", "a", "b", "a", "a"]


def test_all_bot_matches_keep_to_their_share_and_one_search_per_owner() -> None:
    async def scenario() -> tuple[int, int]:
        queue = BotQueue(2, bots_share=1)
        release = asyncio.Event()

        async def search(kind: int, owner: str) -> None:
            async with queue.slot(kind, owner):
                await release.wait()

        tasks = [asyncio.create_task(search(BOTS, owner)) for owner in "aab"]
        await asyncio.sleep(0)
        bots_running = queue.running.total()
        # A person's bot still finds the other worker free.
        tasks.append(asyncio.create_task(search(PLAYER, "c")))
        await asyncio.sleep(0)
        total = queue.running.total()
        release.set()
        await asyncio.gather(*tasks)
        return bots_running, total

    assert run(scenario()) == (1, 2)


def test_a_cancelled_wait_leaves_the_queue_and_a_cancelled_search_frees_its_slot() -> None:
    async def scenario() -> BotQueue:
        queue = BotQueue(1)
        release = asyncio.Event()

        async def search(owner: str) -> None:
            async with queue.slot(PLAYER, owner):
                await release.wait()

        running = asyncio.create_task(search("a"))
        await asyncio.sleep(0)
        waiting = asyncio.create_task(search("b"))
        await asyncio.sleep(0)
        assert [waiter.owner for waiter in queue.waiting] == ["b"]
        waiting.cancel()
        running.cancel()
        await asyncio.gather(running, waiting, return_exceptions=True)
        return queue

    queue = run(scenario())
    assert queue.waiting == [] and queue.running.total() == 0


def test_the_class_comes_before_fairness_between_owners() -> None:
    async def scenario() -> list[str]:
        queue = BotQueue(2)
        order: list[str] = []
        held, blocker, rest = asyncio.Event(), asyncio.Event(), asyncio.Event()

        async def search(kind: int, owner: str, release: asyncio.Event) -> None:
            async with queue.slot(kind, owner):
                order.append(owner)
                await release.wait()

        # "a" already searches; then b (a person's bot) and a's bot on a clock wait.
        tasks = [
            asyncio.create_task(search(PLAYER, "a", held)),
            asyncio.create_task(search(PLAYER, "x", blocker)),
        ]
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(search(PLAYER, "b", rest)))
        tasks.append(asyncio.create_task(search(CLOCKED, "a", rest)))
        await asyncio.sleep(0)
        blocker.set()
        for _ in range(5):
            await asyncio.sleep(0)
        served = order[2]
        held.set()
        rest.set()
        await asyncio.gather(*tasks)
        return [served]

    # The clocked search goes first though its owner already has one running.
    assert run(scenario()) == ["a"]
