"""Bot turns for the web app, searched in worker processes so the event loop never waits.

A worker gets plain data (game, options, the turns so far), rebuilds the position by replaying
them, and returns the bot's whole turn in notation; the server checks it like any other turn.

Workers end with the server however it ends, SIGKILL included. Each worker holds the read end
of a pipe whose only write end stays in the server: when the server dies the kernel closes it,
the worker's watchdog thread reads end-of-file and ends the worker at once. (A parent-death
signal would not do: a worker's parent is the fork server, which itself lives on as long as
any worker does.) With the workers gone the fork server and the resource tracker end too.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.connection import Connection

from boardlab.ai.levels import level_spec
from boardlab.ai.players import make_bot, parse_spec
from boardlab.core.game import Game
from boardlab.core.registry import make

_lifeline: tuple[Connection, Connection] | None = None
"""The server's pipe to its workers (read end, write end), made once per server process."""


def bot_turn(
    game_id: str, options: dict[str, str], turns: list[str], seat: int, spec: str, seed: int
) -> list[str]:
    """The decisions of ``seat``'s next turn as bot ``spec`` chooses them (runs in a worker)."""
    game = make(game_id, **options)
    state = game.new_initial_state()
    for turn in turns:
        state.play(turn)
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


def timed_spec(spec: str, game: Game, budget: float | None) -> str:
    """``spec`` with its thinking time capped at ``budget`` seconds per decision (a level is
    spelled out first); a bot without a time setting (random, greedy) answers at once."""
    kind, params = parse_spec(spec)
    if budget is None:
        return spec
    if isinstance(params, str):
        return timed_spec(level_spec(game, params), game, budget)
    if kind not in ("alphabeta", "mcts"):
        return spec
    limit = min(float(params.get("time", budget)), budget)
    rest = [f"{key}={_spelled(value)}" for key, value in params.items() if key != "time"]
    return f"{kind}:{','.join([*rest, f'time={limit:.3f}'])}"


def _spelled(value: float | int | bool) -> str:
    """A spec parameter as ``parse_spec`` reads it back."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def bot_pool(workers: int) -> ProcessPoolExecutor:
    """Worker processes for bot searches, started by a fork server (safe with threads), each
    ending as soon as this process does."""
    global _lifeline
    if _lifeline is None:
        _lifeline = multiprocessing.Pipe(duplex=False)
    context = multiprocessing.get_context("forkserver")
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=_watch_server,
        initargs=(_lifeline[0],),
    )


def _watch_server(lifeline: Connection) -> None:
    """Worker initializer: end this worker when the server's end of ``lifeline`` closes."""

    def watch() -> None:
        with contextlib.suppress(EOFError, OSError):
            lifeline.recv_bytes()
        # SIGKILL: no cleanup that could wait on the dead server's queues.
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=watch, name="server-watchdog", daemon=True).start()
