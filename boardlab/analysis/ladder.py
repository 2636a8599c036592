"""The strength ladder: each level plays the level below it over a match, with statistics.

A rung is a match (:mod:`boardlab.analysis.match`) of the stronger spec against the weaker one
(the weaker one fills every other seat in games of more than two players), so seats rotate and
games with chance give every seating the same luck. A game is decided when one seat wins. With
two seats a level passes when it wins at least 65% of the decided games and a one-sided binomial
test rejects "no better than even" at 5%. With K > 2 seats an equal player's fair share of the
decided games is 1/K, and a level passes when the 95% Wilson interval of its share lies above it.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from boardlab.ai.levels import LEVELS
from boardlab.analysis.match import GameResult, MatchSpec, check_match, run_match, wilson_interval
from boardlab.core.outcome import Result
from boardlab.core.registry import make

PASS_SHARE = 0.65
"""The win share of decided games a level must reach over the level below."""

TABLE_HEAD = (
    "| game | level | vs | games | W | D | L | win share of decided | 95% CI | p | clear? "
    "| time |\n"
    "|---|---|---|---:|---:|---:|---:|---:|---|---:|---|---:|"
)


@dataclass(frozen=True)
class Rung:
    """Results of the stronger spec against the weaker one."""

    game_id: str
    strong: str
    weak: str
    wins: int
    draws: int
    losses: int
    """Games another seat won (with two seats, the strong side's losses)."""
    seconds: float
    seats: int = 2

    @property
    def decided(self) -> int:
        """Games that were not drawn."""
        return self.wins + self.losses

    @property
    def share(self) -> float:
        """Wins over decided games (0.5 when none was decided)."""
        return self.wins / self.decided if self.decided else 0.5

    @property
    def fair_share(self) -> float:
        """The share of decided games an equal player wins: one over the number of seats."""
        return 1 / self.seats

    @property
    def p_value(self) -> float:
        """One-sided binomial test of the win share of decided games against the fair share."""
        return binomial_p_value(self.wins, self.decided, self.fair_share)

    @property
    def passed(self) -> bool:
        """True when the strong side wins clearly (see the module's docstring)."""
        if self.seats == 2:
            return self.share >= PASS_SHARE and self.p_value < 0.05
        return wilson_interval(self.share, self.decided)[0] > self.fair_share

    def table_row(self) -> str:
        """One markdown row of the ladder table; with more than two seats the game names them."""
        low, high = wilson_interval(self.share, self.decided)
        game, weak = self.game_id, _short(self.weak)
        if self.seats > 2:
            game, weak = f"{game} ({self.seats} seats)", f"{self.seats - 1} x {weak}"
        return (
            f"| {game} | {_short(self.strong)} | {weak} "
            f"| {self.wins + self.draws + self.losses} | {self.wins} | {self.draws} "
            f"| {self.losses} | {self.share:.0%} | {low:.0%} to {high:.0%} "
            f"| {self.p_value:.2g} | {'yes' if self.passed else 'no'} | {self.seconds:.0f} s |"
        )


def binomial_p_value(wins: int, decided: int, fair: float = 0.5) -> float:
    """P(X >= wins) for X ~ Binomial(decided, fair); 1.0 when nothing was decided."""
    if decided == 0:
        return 1.0
    return math.fsum(
        math.comb(decided, k) * fair**k * (1 - fair) ** (decided - k)
        for k in range(wins, decided + 1)
    )


def play_rung(
    game_id: str,
    options: Mapping[str, object],
    strong: str,
    weak: str,
    games: int,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[GameResult], None] | None = None,
) -> Rung:
    """Play ``games`` games of ``strong`` against ``weak`` and tally the strong side.

    A game counts as a win when the strong side wins, a loss when another seat wins, and a draw
    when no seat does (with more than two seats, whether or not the strong side survived).
    """
    seats = make(game_id, **options).num_players
    spec = MatchSpec(game_id, options, (strong,) + (weak,) * (seats - 1), games, seed)
    check_match(spec)
    start = time.perf_counter()
    wins = draws = losses = 0
    for game in run_match(spec, jobs, progress):
        if game.results[game.seating.index(0)] is Result.WIN:
            wins += 1
        elif Result.WIN in game.results:
            losses += 1
        else:
            draws += 1
    return Rung(game_id, strong, weak, wins, draws, losses, time.perf_counter() - start, seats)


def pairings(rungs: Sequence[str] = ("random", *LEVELS)) -> list[tuple[str, str]]:
    """``(weak, strong)`` spec pairs of a ladder, weakest first; a level name means ``level:``."""
    specs = [f"level:{rung}" if rung in LEVELS else rung for rung in rungs]
    return list(itertools.pairwise(specs))


def _short(spec: str) -> str:
    return spec.removeprefix("level:")
