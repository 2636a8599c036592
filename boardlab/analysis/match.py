"""Bot-vs-bot series: seats rotate across games, seeds derive from one match seed.

Game ``i`` (counted from 0) seats player ``(seat + i) mod n`` in seat ``seat``, so with two
players the first seat alternates. Each game's bot seeds come from the match seed and ``i``
alone, so a match gives the same games whether it runs in one process or many. For games with
chance, the chance seed comes from the match seed and the round ``i // n``: the n games of one
rotation meet the same luck from every seat, which takes the luck out of the comparison.
"""

from __future__ import annotations

import math
import random
import signal
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing.process import BaseProcess as Process
from pathlib import Path

from boardlab.ai import make_bot
from boardlab.ai.base import Bot
from boardlab.core.errors import OptionError
from boardlab.core.game import Game
from boardlab.core.options import SEED
from boardlab.core.outcome import Result
from boardlab.core.records import Record
from boardlab.core.registry import game_class, make

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""


@dataclass(frozen=True)
class MatchSpec:
    """Everything that determines a match; picklable, so worker processes can use it."""

    game_id: str
    options: Mapping[str, object]
    players: tuple[str, ...]
    games: int
    seed: int
    save_dir: str | None = None


@dataclass(frozen=True)
class GameResult:
    """One finished game of a match."""

    index: int
    seating: tuple[int, ...]
    """Player index (into the match's players) sitting in each seat."""
    results: tuple[Result, ...]
    """Result per seat."""
    termination: str
    plies: int


def seating(index: int, players: int) -> tuple[int, ...]:
    """Player index per seat for game ``index``: a rotation by ``index``."""
    return tuple((seat + index) % players for seat in range(players))


def player_labels(players: Sequence[str]) -> list[str]:
    """Unique labels for the player specs: a repeated spec gets ``#2``, ``#3``, ..."""
    seen: Counter[str] = Counter()
    labels = []
    for spec in players:
        seen[spec] += 1
        labels.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return labels


def _game_options(spec: MatchSpec, index: int, has_seed: bool) -> dict[str, object]:
    options = dict(spec.options)
    if has_seed and SEED not in options:
        rotation = index // len(spec.players)
        options[SEED] = random.Random(f"boardlab-match:{spec.seed}:luck:{rotation}").randrange(
            2**31
        )
    return options


def check_match(spec: MatchSpec) -> Game:
    """Validate a match before it runs: the game, its options and one bot per seat."""
    game = make(spec.game_id, **spec.options)
    if len(spec.players) != game.num_players:
        raise OptionError(
            f"{game.id} with these options has {game.num_players} seats "
            f"({', '.join(game.player_names)}); give one --player per seat, "
            f"{len(spec.players)} given"
        )
    for player in spec.players:
        if make_bot(player, game, 0) is None:
            raise OptionError(f"a match needs bots; {player!r} is not a bot")
    if spec.games < 1:
        raise OptionError(f"the number of games must be at least 1, got {spec.games}")
    return game


def play_game(spec: MatchSpec, index: int) -> GameResult:
    """Play game ``index`` of the match, save its record if asked, and return its result."""
    rng = random.Random(f"boardlab-match:{spec.seed}:{index}")
    has_seed = any(option.key == SEED for option in game_class(spec.game_id).OPTIONS)
    game = make(spec.game_id, **_game_options(spec, index, has_seed))
    seats = seating(index, len(spec.players))
    bots: list[Bot] = []
    for seat in range(game.num_players):
        bot = make_bot(spec.players[seats[seat]], game, rng.randrange(2**31))
        if bot is None:
            raise OptionError("a match needs bots, not humans")
        bots.append(bot)
    record = Record(game, players=[spec.players[p] for p in seats])
    state = game.new_initial_state()
    while not state.is_terminal():
        seat = state.current_player
        action = bots[seat].choose(state.view_state(seat))
        record.add(state, action)
        state.apply_action(action)
    outcome = state.outcome
    assert outcome is not None
    if spec.save_dir is not None:
        record.save(Path(spec.save_dir) / f"{game.id}-{index + 1}.txt", state)
    return GameResult(index, seats, outcome.results, outcome.termination.value, len(record.turns))


def _play_indexed(args: tuple[MatchSpec, int]) -> GameResult:
    return play_game(*args)


def run_match(
    spec: MatchSpec,
    jobs: int = 1,
    progress: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    """Play every game of the match on ``jobs`` processes; results sorted by game index."""
    tasks = [(spec, index) for index in range(spec.games)]
    results: Iterator[GameResult]
    if jobs <= 1:
        results = map(_play_indexed, tasks)
        return _collect(results, progress)
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_ignore_interrupts)
    try:
        chunk = max(1, spec.games // (jobs * 8))
        results = pool.map(_play_indexed, tasks, chunksize=chunk)
        collected = _collect(results, progress)
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown()
    return collected


def _stop(pool: ProcessPoolExecutor) -> None:
    """On Ctrl-C (or a failure) stop at once rather than finish the games under way."""
    # The executor has no public way to end running workers before Python 3.14.
    processes: dict[int, Process] = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which stops the match."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _collect(
    results: Iterator[GameResult], progress: Callable[[GameResult], None] | None
) -> list[GameResult]:
    collected = []
    for result in results:
        collected.append(result)
        if progress is not None:
            progress(result)
    return sorted(collected, key=lambda r: r.index)


def wilson_interval(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion ``score`` observed over ``n`` trials."""
    if n == 0:
        return (0.0, 1.0)
    denominator = 1 + z * z / n
    centre = (score + z * z / (2 * n)) / denominator
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarize(
    spec: MatchSpec, player_names: Sequence[str], results: Sequence[GameResult]
) -> dict[str, object]:
    """Match statistics, as printed by ``boardlab match --json``.

    ``side_wins`` counts wins per seat name, ``player_wins`` per player label, and ``players``
    gives each player's win/draw/loss counts with the score (wins + draws/2 over games) and its
    95% Wilson interval.
    """
    labels = player_labels(spec.players)
    games = len(results)
    side_wins = dict.fromkeys(player_names, 0)
    tallies = {label: Counter[Result]() for label in labels}
    terminations: Counter[str] = Counter()
    draws = 0
    for result in results:
        terminations[result.termination] += 1
        if Result.WIN not in result.results:
            draws += 1
        for seat, seat_result in enumerate(result.results):
            if seat_result is Result.WIN:
                side_wins[player_names[seat]] += 1
            tallies[labels[result.seating[seat]]][seat_result] += 1
    players = []
    for label in labels:
        tally = tallies[label]
        wins, drawn, losses = tally[Result.WIN], tally[Result.DRAW], tally[Result.LOSS]
        score = (wins + drawn / 2) / games if games else 0.0
        low, high = wilson_interval(score, games)
        players.append(
            {
                "player": label,
                "wins": wins,
                "draws": drawn,
                "losses": losses,
                "score": round(score, 4),
                "score_ci95": [round(low, 4), round(high, 4)],
            }
        )
    mean_plies = sum(r.plies for r in results) / games if games else 0.0
    return {
        "game": spec.game_id,
        "options": {key: value for key, value in spec.options.items()},
        "seed": spec.seed,
        "games": games,
        "draws": draws,
        "mean_plies": round(mean_plies, 2),
        "side_wins": side_wins,
        "player_wins": {label: tallies[label][Result.WIN] for label in labels},
        "terminations": dict(sorted(terminations.items())),
        "players": players,
    }
