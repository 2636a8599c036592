"""The strength ladder: each level plays the level below it, seats alternated, with statistics.

Run ``python -m boardlab.ai.ladder --game murus-gallicus --games 100 --jobs 2``. Each rung
plays ``--games`` games of the stronger spec against the weaker one, the stronger one taking
seat ``k % players`` in game ``k``; games with chance use the same game seed for each pair of
games so that both seatings meet the same luck. It reports wins, draws and losses of the
stronger side, its share of decided games with a 95% Wilson interval, and the one-sided
binomial p-value of that share being no better than even, as a markdown table.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from boardlab.ai.levels import LEVELS
from boardlab.ai.players import make_bot
from boardlab.core.options import SEED, OptionValue, parse_assignments
from boardlab.core.outcome import Result
from boardlab.core.registry import game_class, make

PASS_SHARE = 0.65
"""The win share of decided games a level must reach over the level below."""


@dataclass(frozen=True)
class SeriesResult:
    """Results of one spec (``strong``) against another (``weak``) over a series."""

    strong: str
    weak: str
    wins: int
    draws: int
    losses: int
    seconds: float

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.draws + self.losses

    @property
    def share(self) -> float:
        """Wins over decided games (0.5 when none was decided)."""
        decided = self.wins + self.losses
        return self.wins / decided if decided else 0.5

    @property
    def p_value(self) -> float:
        """One-sided binomial test of the win share of decided games against one half."""
        return binomial_p_value(self.wins, self.wins + self.losses)

    @property
    def passed(self) -> bool:
        """True when the strong side wins clearly: share >= 65% and p < 0.05."""
        return self.share >= PASS_SHARE and self.p_value < 0.05


def binomial_p_value(wins: int, decided: int) -> float:
    """P(X >= wins) for X ~ Binomial(decided, 1/2); 1.0 when nothing was decided."""
    if decided == 0:
        return 1.0
    tail = sum(math.comb(decided, k) for k in range(wins, decided + 1))
    return tail / (1 << decided)


def wilson_interval(wins: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (0, 1 when there are no trials)."""
    if trials == 0:
        return 0.0, 1.0
    p = wins / trials
    centre = p + z * z / (2 * trials)
    margin = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    denominator = 1 + z * z / trials
    return (centre - margin) / denominator, (centre + margin) / denominator


def play_game(
    game_id: str, options: dict[str, OptionValue], specs: list[str], seeds: list[int]
) -> tuple[Result, ...]:
    """Play one game between the specs (one per seat); each bot sees only its own view."""
    game = make(game_id, **options)
    bots = [make_bot(spec, game, seed) for spec, seed in zip(specs, seeds, strict=True)]
    state = game.new_initial_state()
    while not state.is_terminal():
        player = state.current_player
        bot = bots[player]
        if bot is None:
            raise ValueError("the ladder plays bots only, not humans")
        state.apply_action(bot.choose(state.view_state(player)))
    assert state.outcome is not None
    return state.outcome.results


def _game_task(args: tuple[str, dict[str, OptionValue], list[str], list[int], int]) -> Result:
    game_id, options, specs, seeds, seat = args
    return play_game(game_id, options, specs, seeds)[seat]


def play_series(
    game_id: str,
    strong: str,
    weak: str,
    games: int,
    jobs: int = 1,
    seed: int = 0,
    options: dict[str, OptionValue] | None = None,
) -> SeriesResult:
    """Play ``games`` games of ``strong`` against ``weak`` with rotated seats."""
    options = dict(options or {})
    players = make(game_id, **options).num_players
    chance = any(spec.key == SEED for spec in game_class(game_id).OPTIONS)
    tasks = []
    for k in range(games):
        seat = k % players
        specs = [strong if s == seat else weak for s in range(players)]
        seeds = [seed * 1_000_003 + k * players + s for s in range(players)]
        game_options = dict(options)
        if chance and SEED not in options:
            game_options[SEED] = seed * 1_000_003 + k // players
        tasks.append((game_id, game_options, specs, seeds, seat))
    start = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_game_task, tasks))
    else:
        results = [_game_task(task) for task in tasks]
    return SeriesResult(
        strong,
        weak,
        wins=results.count(Result.WIN),
        draws=results.count(Result.DRAW),
        losses=results.count(Result.LOSS),
        seconds=time.perf_counter() - start,
    )


TABLE_HEAD = (
    "| game | level | vs | games | W | D | L | win share of decided | 95% CI | p | clear? "
    "| time |\n"
    "|---|---|---|---:|---:|---:|---:|---:|---|---:|---|---:|"
)


def table_row(game_id: str, result: SeriesResult) -> str:
    """One markdown row for a series."""
    low, high = wilson_interval(result.wins, result.wins + result.losses)
    return (
        f"| {game_id} | {_short(result.strong)} | {_short(result.weak)} | {result.games} "
        f"| {result.wins} | {result.draws} | {result.losses} | {result.share:.0%} "
        f"| {low:.0%} to {high:.0%} | {result.p_value:.2g} | {'yes' if result.passed else 'no'} "
        f"| {result.seconds:.0f} s |"
    )


def _short(spec: str) -> str:
    return spec.removeprefix("level:")


def main(argv: list[str] | None = None) -> int:
    """Run the ladder for one game and print the markdown table."""
    parser = argparse.ArgumentParser(prog="python -m boardlab.ai.ladder", description=__doc__)
    parser.add_argument("--game", required=True, help="game id")
    parser.add_argument("--games", type=int, default=100, help="games per rung (default 100)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    parser.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="game option"
    )
    parser.add_argument(
        "--rungs",
        nargs="+",
        default=["random", *LEVELS],
        help="the ladder from weakest to strongest: levels or bot specs (default: random "
        "and the levels)",
    )
    args = parser.parse_args(argv)
    options: dict[str, OptionValue] = dict(parse_assignments(args.option))
    specs = [f"level:{r}" if r in LEVELS else r for r in args.rungs]
    print(TABLE_HEAD)
    ok = True
    for weak, strong in itertools.pairwise(specs):
        result = play_series(args.game, strong, weak, args.games, args.jobs, args.seed, options)
        ok = ok and result.passed
        print(table_row(args.game, result), flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
