"""Bot self-play of a playtest's variants, run on the designer's demand: a few dozen games
per variant played by the lab's tracer in a worker process of its own (never on the event
loop, never in the bot workers that move for players), one run per server at a time, its
summary kept in the store so the dashboard shows it from then on.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from boardlab.analysis.trace import GameTask, play_traced
from boardlab.core.registry import make
from boardlab.web.catalogue import TIME_BOUND
from boardlab.web.creation import bot_specs
from boardlab.web.errors import ApiError
from boardlab.web.hub import now
from boardlab.web.playtest import PEOPLE, Settings
from boardlab.web.store import Store

LOG = logging.getLogger("boardlab.web")
BOT_GAMES = 24
"""Games per variant: enough to see a large seat edge, few enough to take seconds."""
DEFAULT_BOT = "level:easy"
"""The bot of self-play when the playtesters play each other (a bot playtest uses its bot)."""
RUNNING: set[str] = set()
"""The playtests whose self-play runs now (in this server process)."""
FAILED: dict[str, str] = {}
"""Why the last self-play of a playtest stopped, until it is run again (in this process)."""
TASKS: set[asyncio.Task[None]] = set()
_ONE_AT_A_TIME = asyncio.Semaphore(1)


def self_play_bot(settings: Settings) -> str:
    """The bot that plays every seat of the self-play unless the designer chooses another."""
    return DEFAULT_BOT if settings.opponent == PEOPLE else settings.opponent


def play_variant(
    game_id: str, options: dict[str, str], bot: str, games: int
) -> list[tuple[tuple[str, ...], str, int]]:
    """``games`` self-play games of one variant, each as ``(results, termination, turns)``
    (the bots seeded by the game's index, so a run is repeatable)."""
    seats = make(game_id, **options).num_players
    found = []
    for index in range(games):
        task = GameTask(
            "playtest",
            index,
            game_id,
            tuple(options.items()),
            (bot,) * seats,
            tuple(range(seats)),
            index,
        )
        trace = play_traced(task)
        found.append((tuple(trace.results), trace.termination, trace.turns))
    return found


def self_play_bots() -> list[str]:
    """The bots a designer may choose for self-play: the lobby's, but the level bounded by
    time alone (its games take minutes)."""
    return [spec for spec in bot_specs() if spec != TIME_BOUND]


def start(store: Store, playtest_id: str, settings: Settings, bot: str) -> None:
    """Start the self-play of every variant by ``bot`` in the background (409 if it runs
    already)."""
    if bot not in self_play_bots():
        raise ApiError(400, f"'bot' must be one of: {', '.join(self_play_bots())}")
    if playtest_id in RUNNING:
        raise ApiError(409, "the bots are playing this playtest's variants already")
    RUNNING.add(playtest_id)
    FAILED.pop(playtest_id, None)
    task = asyncio.get_running_loop().create_task(_run(store, playtest_id, settings, bot))
    TASKS.add(task)
    task.add_done_callback(TASKS.discard)


async def _run(store: Store, playtest_id: str, settings: Settings, bot: str) -> None:
    """Play each variant in one fresh worker process and keep its summary."""
    try:
        async with _ONE_AT_A_TIME:
            loop = asyncio.get_running_loop()
            context = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(1, mp_context=context) as pool:
                for number, variant in enumerate(settings.variants):
                    results = await loop.run_in_executor(
                        pool, play_variant, settings.game, variant.options, bot, BOT_GAMES
                    )
                    seats = _seat_names(settings.game, variant.options)
                    # Here, not at the server's start: SciPy takes seconds to load.
                    from boardlab.web.playtest_stats import bot_summary

                    summary: dict[str, Any] = {"bot": bot, **bot_summary(results, seats)}
                    store.set_bot_result(playtest_id, number, json.dumps(summary), now())
    except Exception as error:
        LOG.warning("playtest %s: the bots' self-play stopped: %s", playtest_id, error)
        FAILED[playtest_id] = f"the bots' self-play stopped ({type(error).__name__}); try again"
    finally:
        RUNNING.discard(playtest_id)


def _seat_names(game_id: str, options: dict[str, str]) -> tuple[str, ...]:
    return make(game_id, **options).player_names
