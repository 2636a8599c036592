"""Bot-vs-bot series: seats rotate across games, seeds derive from one match seed.

Game ``i`` (counted from 0) seats player ``(seat + i) mod n`` in seat ``seat``, so with two
players the first seat alternates. Each game's bot seeds come from the match seed and ``i``
alone, so a match gives the same games whether it runs in one process or many. For games with
chance, the chance seed comes from the match seed and the round ``i // n``: the n games of one
rotation meet the same luck from every seat, which takes the luck out of the comparison.
"""

from __future__ import annotations

import functools
import math
import random
from collections import Counter
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from boardlab.ai import make_bot
from boardlab.ai.base import Bot
from boardlab.analysis.compiled import Decisions
from boardlab.analysis.runner import run_tasks
from boardlab.core.errors import OptionError, SaveError
from boardlab.core.files import check_folder, stop_signals_held, write_atomic
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
    record: str = field(default="", compare=False, repr=False)
    """The game record's text when the match saves records (written by the parent process)."""


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
    if spec.save_dir is not None:
        folder = check_folder(spec.save_dir)
        earlier = sorted(folder.glob(f"{game.id}-*.txt"))
        if earlier:
            # Records of two runs in one folder would be read as one series.
            raise SaveError(
                f"{spec.save_dir} already holds records of another run ({earlier[0].name}, ...); "
                "choose a new or empty folder"
            )
    return game


def record_path(spec: MatchSpec, index: int) -> Path:
    """Where game ``index`` of the match is saved."""
    assert spec.save_dir is not None
    return Path(spec.save_dir) / f"{spec.game_id}-{index + 1}.txt"


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
    # Random bots choose on the compiled engine; the record replays their decisions.
    source = Decisions(game, bots, evaluations=False)
    decision = 0
    while not state.is_terminal():
        if source.planned(state, decision) is None:
            seat = state.current_player
            action = bots[seat].choose(state.view_state(seat))
        else:
            action = source.action(decision)
        record.add(state, action)
        state.apply_action(action)
        decision += 1
    source.check_end(decision)
    outcome = state.outcome
    assert outcome is not None
    text = record.to_text(state) if spec.save_dir is not None else ""
    return GameResult(
        index, seats, outcome.results, outcome.termination.value, len(record.turns), text
    )


def iter_match(spec: MatchSpec, jobs: int = 1) -> Generator[GameResult, None, None]:
    """Play the games on up to ``jobs`` processes, yielding each as it ends (records saved).

    Only this process writes files, so workers that are stopped leave nothing half-written.
    Close the iterator to stop early; the workers end with it.
    """
    play = functools.partial(play_game, spec)
    for result in run_tasks(play, range(spec.games), jobs, total=spec.games):
        # A stop signal waits until the caller has the result of the game just saved, so a
        # record on disk is always a game the caller counted.
        with stop_signals_held():
            if result.record:
                write_atomic(record_path(spec, result.index), result.record, durable=False)
            yield replace(result, record="")


def run_match(
    spec: MatchSpec,
    jobs: int = 1,
    progress: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    """Play every game of the match on ``jobs`` processes; results sorted by game index."""
    collected = []
    games = iter_match(spec, jobs)
    try:
        for result in games:
            collected.append(result)
            if progress is not None:
                progress(result)
    finally:
        games.close()
    return sorted(collected, key=lambda r: r.index)


def wilson_interval(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion ``score`` observed over ``n`` trials."""
    if n == 0:
        return (0.0, 1.0)
    denominator = 1 + z * z / n
    centre = (score + z * z / (2 * n)) / denominator
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


class Tally:
    """Match statistics kept as games end: constant memory however many games are played."""

    def __init__(self, spec: MatchSpec, player_names: Sequence[str]) -> None:
        self.spec = spec
        self.names = tuple(player_names)
        self.labels = player_labels(spec.players)
        self.games = 0
        self.draws = 0
        self.plies = 0
        self.side_wins = dict.fromkeys(self.names, 0)
        self.tallies = {label: Counter[Result]() for label in self.labels}
        self.terminations: Counter[str] = Counter()

    def add(self, result: GameResult) -> None:
        """Count one finished game."""
        self.games += 1
        self.plies += result.plies
        self.terminations[result.termination] += 1
        if Result.WIN not in result.results:
            self.draws += 1
        for seat, seat_result in enumerate(result.results):
            if seat_result is Result.WIN:
                self.side_wins[self.names[seat]] += 1
            self.tallies[self.labels[result.seating[seat]]][seat_result] += 1

    def player_wins(self) -> dict[str, int]:
        """Wins per player label so far."""
        return {label: self.tallies[label][Result.WIN] for label in self.labels}

    def summary(self) -> dict[str, object]:
        """The statistics as printed by ``boardlab match --json`` (see :func:`summarize`)."""
        games = self.games
        players = []
        for label in self.labels:
            tally = self.tallies[label]
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
        return {
            "game": self.spec.game_id,
            "options": dict(self.spec.options.items()),
            "seed": self.spec.seed,
            "games": games,
            "draws": self.draws,
            "mean_plies": round(self.plies / games, 2) if games else 0.0,
            "side_wins": self.side_wins,
            "player_wins": self.player_wins(),
            "terminations": dict(sorted(self.terminations.items())),
            "players": players,
        }


def summarize(
    spec: MatchSpec, player_names: Sequence[str], results: Sequence[GameResult]
) -> dict[str, object]:
    """Match statistics, as printed by ``boardlab match --json``.

    ``side_wins`` counts wins per seat name, ``player_wins`` per player label, and ``players``
    gives each player's win/draw/loss counts with the score (wins + draws/2 over games) and its
    95% Wilson interval.
    """
    tally = Tally(spec, player_names)
    for result in results:
        tally.add(result)
    return tally.summary()
