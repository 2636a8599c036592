"""Bot turns for the web app, searched in worker processes so the event loop never waits.

A worker gets plain data (game, options, the turns so far), rebuilds the position by replaying
them, and returns the bot's whole turn in notation; the server checks it like any other turn.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

from boardlab.ai.players import make_bot
from boardlab.core.registry import make


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


def bot_pool(workers: int) -> ProcessPoolExecutor:
    """Worker processes for bot searches, started by a fork server (safe with threads)."""
    context = multiprocessing.get_context("forkserver")
    return ProcessPoolExecutor(max_workers=workers, mp_context=context)
