"""The ladder's measured results (``boardlab ladder``, docs/bots.md), for the lobby to show where
a level's tournament rating does not tell it apart from the level below.

Each rung is one row of docs/bots.md's ladder tables with the levels of today: the level, the
bot below it (``K - 1`` copies of it at ``K`` seats), the games the level won, the games nobody
won, the games another seat won, and the specs of the levels when it was played. A rung whose
specs are no longer the levels' is not shown, as :mod:`boardlab.ai.level_ratings` does for
ratings. Every rung here was a clear pass: the level's share of the decided games above an equal
player's ``1/K`` (one-sided binomial test at 5%).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from boardlab.ai.levels import LEVELS, level_spec
from boardlab.core.game import Game
from boardlab.core.registry import game_class, make


@dataclass(frozen=True)
class Rung:
    """The rungs of one game and seat count, ``easy`` over ``random`` first: per rung the
    level's wins, the draws and the other seats' wins; ``specs`` are the levels' specs
    (``easy`` to ``expert``) when the rungs were played."""

    game: str
    seats: int
    specs: tuple[str, ...]
    results: tuple[tuple[int, int, int], ...]


_CARNYX = (
    "greedy:noise=0.3",
    "alphabeta:nodes=100,time=0.5,noise=0.05",
    "alphabeta:nodes=5000,time=1,noise=0.02",
    "alphabeta:time=2,noise=0.01",
)
_COLOSSEUM = (
    "greedy:noise=0.3",
    "alphabeta:nodes=1000,time=0.5,noise=0.05",
    "alphabeta:nodes=20000,time=1,noise=0.02",
    "alphabeta:time=2,noise=0.01",
)
RUNGS = (
    Rung("carnyx", 2, _CARNYX, ((89, 0, 11), (100, 0, 0), (100, 0, 0), (38, 1, 1))),
    Rung(
        "cyvasse",
        2,
        (
            "greedy:noise=0.3",
            "alphabeta:nodes=1000,time=0.5,noise=0.05",
            "alphabeta:nodes=10000,time=1,noise=0.02",
            "alphabeta:time=3,noise=0.01",
        ),
        ((97, 0, 3), (83, 0, 17), (84, 0, 16), (33, 1, 6)),
    ),
    Rung(
        "murus-gallicus",
        2,
        (
            "greedy:noise=0.3",
            "alphabeta:nodes=300,time=0.5,noise=0.05",
            "alphabeta:nodes=20000,time=1,noise=0.02",
            "alphabeta:time=2,noise=0.01",
        ),
        ((26, 0, 14), (40, 0, 0), (38, 0, 2), (38, 0, 2)),
    ),
    Rung(
        "anacund",
        2,
        (
            "greedy:noise=0.3",
            "mcts:iters=50,time=0.5",
            "mcts:iters=800,rollout=40,time=1",
            "mcts:rollout=40,time=2",
        ),
        ((73, 0, 27), (90, 0, 10), (87, 0, 13), (38, 0, 2)),
    ),
    Rung("colosseum-offcuts", 2, _COLOSSEUM, ((40, 0, 0), (37, 0, 3), (32, 1, 7), (23, 5, 12))),
    Rung("colosseum-offcuts", 3, _COLOSSEUM, ((30, 10, 0), (35, 1, 4), (27, 4, 9), (16, 9, 15))),
    Rung("colosseum-offcuts", 4, _COLOSSEUM, ((30, 7, 3), (28, 8, 4), (20, 9, 11), (18, 5, 17))),
    Rung("colosseum-offcuts", 5, _COLOSSEUM, ((23, 15, 2), (24, 9, 7), (15, 12, 13), (15, 17, 8))),
)
"""The ladders of docs/bots.md with today's levels: Carnyx and Cyvasse "with their levels by
nodes and time" (100 games a rung, 40 for ``expert``); Murus Gallicus and Anacund the same, 40
and 100 games, ``expert`` at its full budget over 40 games; Colosseum Offcuts "after the
evaluation change of 2026-11-28", 40 games a rung at 2-5 seats."""


def ladder_result(game_id: str, seats: int, spec: str, rungs: Sequence[Rung] = RUNGS) -> str | None:
    """The ladder's word on level ``spec`` (``level:hard``) against the level below, short
    enough for a seat's menu: its wins and the other seats' wins, draws left out as the
    ladder's share leaves them out: ``beats Medium 38-2`` (an en dash) at two seats,
    ``beats 3x Medium 20-11`` (a multiplication sign) at four; None when no rung with today's
    specs of both levels was measured."""
    level = spec.removeprefix("level:")
    if level not in LEVELS or level == spec:
        return None
    game = _game(game_id, seats)
    today = tuple(level_spec(game, name) for name in LEVELS)
    index = LEVELS.index(level)
    for rung in rungs:
        if (rung.game, rung.seats) != (game_id, seats):
            continue
        both = slice(max(0, index - 1), index + 1)  # the level and the one below (random fixed)
        if rung.specs[both] != today[both]:
            return None
        wins, _, losses = rung.results[index]
        below = "Random" if index == 0 else LEVELS[index - 1].capitalize()
        if seats > 2:
            below = f"{seats - 1}\N{MULTIPLICATION SIGN} {below}"
        return f"beats {below} {wins}\N{EN DASH}{losses}"
    return None


def _game(game_id: str, seats: int) -> Game:
    """The game at this seat count, with its default options."""
    keys = {option.key for option in game_class(game_id).OPTIONS}
    return make(game_id, **({"players": str(seats)} if "players" in keys else {}))
