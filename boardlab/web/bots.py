"""Bot turns for the web app, searched in worker processes so the event loop never waits.

A worker gets plain data (game, options, the turns so far), rebuilds the position by replaying
them, and returns the bot's whole turn in notation; the server checks it like any other turn.

Workers end with the server however it ends, SIGKILL included. Each worker holds the read end
of a pipe whose only write end stays in the server: when the server dies the kernel closes it,
the worker's watchdog thread reads end-of-file and ends the worker at once; the server closes it
itself to stop its workers (:meth:`BotPool.stop`). (A parent-death signal would not do: a
worker's parent is the fork server, which itself lives on as long as any worker does.) With the
workers gone the fork server and the resource tracker end too.

Before its first search a worker loads every game's compiled bots (:mod:`boardlab.ai.prepare`),
so that no player's bot waits on that.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import traceback
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.connection import Connection

from boardlab.ai.players import make_bot
from boardlab.ai.prepare import prepare_bots
from boardlab.core.records import Turn, apply_turn
from boardlab.core.registry import make

_prepared: dict[str, str] = {}
"""In a worker: the games whose bots its initializer prepared, and how that went."""
_SAY_AFTER = 5.0
"""A game whose bots took at least this many seconds to prepare (compiled) is said on stderr."""


def bot_turn(
    game_id: str, options: dict[str, str], turns: list[Turn], seat: int, spec: str, seed: int
) -> list[str]:
    """The decisions of ``seat``'s next turn as bot ``spec`` chooses them (runs in a worker).
    The turns are replayed as the match applies them: a resignation of a seat whose rivals
    play on included."""
    game = make(game_id, **options)
    state = game.new_initial_state()
    for turn in turns:
        state = apply_turn(state, turn)
    bot = make_bot(spec, game, seed)
    if bot is None:
        raise ValueError(f"{spec!r} is not a bot")
    decisions = []
    while True:
        # The bot sees only what its seat may see (a hidden deployment stays hidden).
        action = bot.choose(state.view_state(seat))
        decisions.append(state.action_to_str(action))
        state.apply_action(action)
        if state.is_terminal() or state.turn_start:
            return decisions


class BotPool(ProcessPoolExecutor):
    """Worker processes for bot searches, started by a fork server (safe with threads), each
    ending as soon as this process does or :meth:`stop` is called, and loading the compiled
    bots of the games in ``prepare`` before it takes its first search (:func:`worker_status`
    says how that went)."""

    def __init__(self, workers: int, prepare: tuple[str, ...] = ()) -> None:
        context = multiprocessing.get_context("forkserver")
        self._reader, self._lifeline = context.Pipe(duplex=False)
        super().__init__(
            max_workers=workers,
            mp_context=context,
            initializer=_start_worker,
            initargs=(self._reader, prepare),
        )

    def stop(self) -> None:
        """End every worker now, mid-search or mid-preparation alike: each one's watchdog reads
        the end of the lifeline and kills it (a worker preparing would otherwise hold the
        server's exit until it is done)."""
        self.shutdown(wait=False, cancel_futures=True)
        self._lifeline.close()
        self._reader.close()


def worker_status() -> tuple[int, dict[str, str]]:
    """This worker's process id and each prepared game's state in it: ``ready`` or
    ``failed`` (a worker takes a call only once its initializer is done)."""
    return os.getpid(), dict(_prepared)


def _start_worker(lifeline: Connection, games: tuple[str, ...]) -> None:
    """Worker initializer: end this worker when the server's end of ``lifeline`` closes, then
    load the compiled bots of ``games``, saying on stderr how long each took."""

    def watch() -> None:
        with contextlib.suppress(EOFError, OSError):
            lifeline.recv_bytes()
        # SIGKILL: no cleanup that could wait on the dead server's queues.
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=watch, name="server-watchdog", daemon=True).start()
    # Workers start at different games: on a cold cache each compiles its own first.
    start = os.getpid() % len(games) if games else 0
    for game_id in games[start:] + games[:start]:
        try:
            seconds = prepare_bots(game_id)
        except Exception:
            _prepared[game_id] = "failed"
            print(
                f"bot worker {os.getpid()}: the bots of {game_id} could not be prepared:",
                file=sys.stderr,
            )
            traceback.print_exc()
        else:
            _prepared[game_id] = "ready"
            if seconds >= _SAY_AFTER:
                print(
                    f"bot worker {os.getpid()}: {game_id} ready in {seconds:.1f} s",
                    file=sys.stderr,
                    flush=True,
                )
