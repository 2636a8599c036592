"""Loading the compiled code of every bot level before a player waits on it.

With the compiled engine, a process's first decision of a game at a level loads that game's
kernel, evaluation and search from Numba's disk cache, and compiles them on the very first
start after an install or an upgrade: from seconds to about a minute. :func:`prepare_bots`
pays that in advance by letting every level make two decisions in a row, briefly, from a
position where each has a real choice; the web server runs it in every bot worker at start
(docs/bots.md).
"""

from __future__ import annotations

import random
import time

from boardlab.ai.levels import LEVELS
from boardlab.ai.players import make_bot, timed_spec
from boardlab.core.engine import kernel_for
from boardlab.core.game import Game
from boardlab.core.registry import make
from boardlab.core.state import State

PREPARE_SECONDS = 0.02
"""The thinking time of each level's practice decision: compiling is what costs, not thinking."""
_OPENING_DECISIONS = 60
"""How far into a random game to look for a position where every bot has a real choice."""


def prepare_bots(game_id: str) -> float:
    """Let every level of ``game_id`` decide once with the fewest and the most seats (compiling
    or loading its compiled code); returns the seconds it took. Does nothing on the reference
    engine, which has nothing to load."""
    started = time.monotonic()
    base = make(game_id)
    if kernel_for(base) is None:
        return 0.0
    for seats in sorted({base.min_players, base.max_players}):
        game = base if seats == base.num_players else make(game_id, players=seats)
        start = _position_with_a_choice(game)
        for level in LEVELS:
            bot = make_bot(timed_spec(f"level:{level}", game, PREPARE_SECONDS), game, 0)
            assert bot is not None
            # Two decisions in a row: the second one takes the paths of a search that goes on
            # from the last (MCTS reuses its tree), which compile apart.
            state = start.clone()
            for _ in range(2):
                if state.is_terminal():
                    break
                state.apply_action(bot.choose(state.view_state(state.current_player)))
    return time.monotonic() - started


def _position_with_a_choice(game: Game) -> State:
    """A position of a seeded random game, some way in, with more than one legal decision."""
    rng = random.Random(0)
    state = game.new_initial_state()
    best = state
    for _ in range(_OPENING_DECISIONS):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        if len(actions) > 1:
            best = state.clone()
        state.apply_action(rng.choice(actions))
    return best
