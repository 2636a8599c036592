"""Named strength levels per game, mapped to bot specs with documented costs per decision.

Each level has a time budget per decision (``time=``, seconds of wall clock) and, below
``expert``, a node or iteration cap (``nodes=``, ``iters=``) that usually stops it first: such a
level plays the same way for a seed, and as strongly on either engine (the compiled one only
gets there sooner). ``expert`` has no cap: it thinks until its budget, so it is stronger on a
faster machine and with the compiled engine. What a decision costs at each level is in
docs/bots.md. The ladder (``boardlab ladder GAME``) measures each level against the one below.
"""

from __future__ import annotations

from boardlab.core.errors import OptionError
from boardlab.core.game import Game

LEVELS = ("easy", "medium", "hard", "expert")

_DEFAULT_TWO_PLAYER = {
    "easy": "greedy:noise=0.3",
    "medium": "alphabeta:nodes=100,time=0.5,noise=0.05",
    "hard": "alphabeta:nodes=3000,time=1,noise=0.02",
    "expert": "alphabeta:time=3,noise=0.01",
}
_DEFAULT_MULTI_PLAYER = {
    "easy": "greedy:noise=0.3",
    "medium": "mcts:iters=100,time=1",
    "hard": "mcts:iters=400,time=2",
    "expert": "mcts:time=3",
}

# Per-game tables, tuned by the ladder; other games use the defaults above. Colosseum Offcuts
# uses its table at every seat count: with more seats, alpha-beta is the paranoid search, and
# depth 2 sees the bot's whole turn, depth 4 the next seat's turn too. Every game's levels are
# by nodes (or simulations) and time: below `expert` a cap that usually stops the search first,
# at `expert` only the time budget.
LEVEL_TABLE: dict[str, dict[str, str]] = {
    "carnyx": {
        "easy": "greedy:noise=0.3",
        "medium": "alphabeta:nodes=100,time=0.5,noise=0.05",
        "hard": "alphabeta:nodes=5000,time=1,noise=0.02",
        "expert": "alphabeta:time=2,noise=0.01",
    },
    "colosseum-offcuts": {
        "easy": "greedy:noise=0.3",
        "medium": "alphabeta:nodes=1000,time=0.5,noise=0.05",
        "hard": "alphabeta:nodes=20000,time=1,noise=0.02",
        "expert": "alphabeta:time=2,noise=0.01",
    },
    "anacund": {
        "easy": "greedy:noise=0.3",
        "medium": "mcts:iters=50,time=0.5",
        "hard": "mcts:iters=800,rollout=40,time=1",
        "expert": "mcts:rollout=40,time=2",
    },
    "cyvasse": {
        "easy": "greedy:noise=0.3",
        "medium": "alphabeta:nodes=1000,time=0.5,noise=0.05",
        "hard": "alphabeta:nodes=10000,time=1,noise=0.02",
        "expert": "alphabeta:time=3,noise=0.01",
    },
    "murus-gallicus": {
        "easy": "greedy:noise=0.3",
        "medium": "alphabeta:nodes=300,time=0.5,noise=0.05",
        "hard": "alphabeta:nodes=20000,time=1,noise=0.02",
        "expert": "alphabeta:time=2,noise=0.01",
    },
}


def level_spec(game: Game, level: str) -> str:
    """The bot spec behind ``level`` for ``game``; raises OptionError for an unknown level."""
    if level not in LEVELS:
        raise OptionError(f"unknown level {level!r}; levels are: {', '.join(LEVELS)}")
    default = _DEFAULT_TWO_PLAYER if game.num_players == 2 else _DEFAULT_MULTI_PLAYER
    return LEVEL_TABLE.get(game.id, default)[level]
