"""Tournaments: many bot specs meet at tables of 2-5 seats; games are stored as they finish.

A *table* is one pairing (two seats) or one group of ``seats`` players (three to five seats)
playing ``games_per_pairing`` games with seats rotated: game ``i`` puts entrant
``(s + i) mod seats`` in seat ``s``. Formats:

* ``round-robin``: every pairing, or every group of ``seats`` players;
* ``gauntlet``: the first player against every pairing (or group) of the others;
* ``swiss``: rounds; each round seats players of similar score together, avoiding tables that
  already met where it can; a player left over sits the round out.

Games are played by the lab's runner (:func:`boardlab.analysis.runner.run_tasks`) into its run
store (:class:`boardlab.analysis.store.RunStore`), so a stopped tournament resumes where it
stopped. Game ``i`` of every table takes its bot seeds from the tournament seed and ``i``, and
its chance seed from the seed and its seat rotation, so the same seed gives the same games
(for bots with iteration or depth budgets) whatever the job count or the resumes.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardlab.ai import make_bot
from boardlab.analysis.finishes import RANK, Finish, pair_score
from boardlab.analysis.match import player_labels
from boardlab.analysis.runner import run_tasks
from boardlab.analysis.seeding import TaskMaker, sorted_options
from boardlab.analysis.store import RunStore
from boardlab.analysis.trace import GameTask, play_traced
from boardlab.core.errors import OptionError
from boardlab.core.game import Game
from boardlab.core.options import SEED
from boardlab.core.outcome import Result
from boardlab.core.registry import game_class, make

FORMATS = ("round-robin", "swiss", "gauntlet")
CONFIG_VERSION = 1


@dataclass(frozen=True)
class TournamentConfig:
    """What determines a tournament; stored in its run directory and compared on resume."""

    game: str
    players: tuple[str, ...]
    seats: int = 2
    format: str = "round-robin"
    games_per_pairing: int = 2
    seed: int = 0
    options: dict[str, str] = field(default_factory=dict)
    rounds: int = 0
    """Swiss rounds; 0 means ceil(log2(players))."""

    @property
    def labels(self) -> list[str]:
        """A unique label per player: a repeated spec gets ``#2``, ``#3``, ..."""
        return player_labels(self.players)

    @property
    def swiss_rounds(self) -> int:
        """The number of Swiss rounds played."""
        return self.rounds or max(1, math.ceil(math.log2(len(self.players))))

    def to_json(self) -> dict[str, Any]:
        """The configuration as JSON data."""
        return {
            "version": CONFIG_VERSION,
            "kind": "tournament",
            "game": self.game,
            "players": list(self.players),
            "seats": self.seats,
            "format": self.format,
            "games": self.games_per_pairing,
            "seed": self.seed,
            "options": dict(sorted(self.options.items())),
            "rounds": self.swiss_rounds if self.format == "swiss" else 0,
        }


@dataclass(frozen=True)
class Table:
    """Players (indices into the tournament's players) who play a series of games together."""

    name: str
    entrants: tuple[int, ...]


def check_tournament(config: TournamentConfig) -> Game:
    """Validate the configuration: format, counts, game and seats, and every player spec."""
    if config.format not in FORMATS:
        raise OptionError(f"unknown format {config.format!r}; formats are: {', '.join(FORMATS)}")
    if config.games_per_pairing < 1:
        raise OptionError(f"bad --games-per-pairing {config.games_per_pairing}: it must be >= 1")
    if config.rounds < 0:
        raise OptionError(f"bad number of rounds {config.rounds}: it must be >= 0")
    if config.options.get("players", str(config.seats)) != str(config.seats):
        raise OptionError(f"--option players={config.options['players']} contradicts the seats")
    if SEED in config.options:
        raise OptionError("a tournament seeds each game's chance itself; use --seed")
    game = make(config.game, **game_options(config))
    if game.num_players != config.seats:
        raise OptionError(f"{game.id} cannot be played with {config.seats} seats")
    if len(config.players) < config.seats:
        raise OptionError(
            f"a {config.seats}-seat tournament needs at least {config.seats} players, "
            f"{len(config.players)} given"
        )
    for spec in config.players:
        if make_bot(spec, game, 0) is None:
            raise OptionError(f"a tournament needs bots; {spec!r} is not a bot")
    return game


def game_options(config: TournamentConfig) -> dict[str, str]:
    """The game's options, with its ``players`` option set to the seat count where it has one."""
    keys = {option.key for option in game_class(config.game).OPTIONS}
    if "players" in keys:
        return {**config.options, "players": str(config.seats)}
    return dict(config.options)


def fixed_tables(config: TournamentConfig) -> list[Table]:
    """The tables of a round-robin or gauntlet, in a fixed order."""
    everyone = range(len(config.players))
    if config.format == "gauntlet":
        groups = [(0, *rest) for rest in itertools.combinations(everyone[1:], config.seats - 1)]
    else:
        groups = list(itertools.combinations(everyone, config.seats))
    return [Table(f"t{number:03d}", group) for number, group in enumerate(groups, 1)]


def swiss_tables(
    config: TournamentConfig, round_number: int, rows: Sequence[Mapping[str, Any]]
) -> list[Table]:
    """The tables of Swiss round ``round_number`` (from 1), from the rows of earlier rounds.

    Players are ranked by points (each game scores the share of the table's other players
    finished ahead of), ties by order given; each table takes the best-ranked free player and
    the next best with whom it has not yet shared a table, if there are enough such players.
    """
    points = [0.0] * len(config.players)
    met: set[frozenset[int]] = set()
    for row in rows:
        seating = row["seating"]
        ranks = finish_ranks(row)
        met.update(frozenset(pair) for pair in itertools.combinations(seating, 2))
        for a, b in itertools.permutations(range(len(seating)), 2):
            points[seating[a]] += pair_score(ranks, a, b) / (len(seating) - 1)
    order = sorted(range(len(config.players)), key=lambda p: (-points[p], p))
    tables: list[Table] = []
    while len(order) >= config.seats:
        first = order[0]
        fresh = [p for p in order[1:] if frozenset((first, p)) not in met]
        others = fresh[: config.seats - 1]
        others += [p for p in order[1:] if p not in others][: config.seats - 1 - len(others)]
        group = (first, *sorted(others, key=order.index))
        tables.append(Table(f"r{round_number}-t{len(tables) + 1:02d}", group))
        order = [p for p in order if p not in group]
    return tables


def finish_ranks(row: Mapping[str, Any]) -> tuple[int, ...]:
    """The finishing rank per seat of a stored game (winners 0, drawn seats 1, losers 2)."""
    return tuple(RANK[Result(result)] for result in row["results"])


def table_tasks(
    config: TournamentConfig, tables: Sequence[Table], skip: set[tuple[str, int]]
) -> Iterator[GameTask]:
    """The games of ``tables`` not in ``skip``: game ``i`` of every table before game ``i+1``."""
    maker = TaskMaker(config.game, config.seed)
    options = sorted_options(game_options(config))
    for index in range(config.games_per_pairing):
        for table in tables:
            if (table.name, index) not in skip:
                yield maker.task(
                    table.name, index, options, config.players, table.entrants, record=True
                )


def play_game(task: GameTask) -> dict[str, Any]:
    """Play one tournament game; the stored row keeps its result, not its per-decision trace."""
    trace = play_traced(task)
    return {
        "series": trace.series,
        "index": trace.index,
        "seating": trace.seating,
        "results": trace.results,
        "termination": trace.termination,
        "turns": trace.turns,
        "seconds": trace.seconds,
        "record": trace.record,
    }


def total_games(config: TournamentConfig) -> int:
    """How many games the whole tournament plays."""
    if config.format == "swiss":
        tables = len(config.players) // config.seats * config.swiss_rounds
    else:
        tables = len(fixed_tables(config))
    return tables * config.games_per_pairing


def run_tournament(
    config: TournamentConfig,
    out: str | Path,
    jobs: int = 1,
    resume: bool = False,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    play: bool = True,
) -> list[dict[str, Any]]:
    """Play the games the store at ``out`` lacks; every game row, sorted by table and index.

    ``progress(done, total)`` is called before play and after every stored game. On Ctrl-C the
    stored games stay stored and KeyboardInterrupt propagates. With ``play`` False nothing is
    played: the rows are those stored so far (the partial table of a stopped run).
    """
    check_tournament(config)
    total = total_games(config)
    with RunStore.open(out, config.to_json(), resume) as store:
        stored = {(row["series"], row["index"]): row for row in store.rows()}
        done: dict[tuple[str, int], dict[str, Any]] = {}
        stages = config.swiss_rounds if config.format == "swiss" else 1
        for stage in range(1, stages + 1):
            if config.format == "swiss":
                tables = swiss_tables(config, stage, [done[key] for key in sorted(done)])
            else:
                tables = fixed_tables(config)
            wanted = {(t.name, i) for t in tables for i in range(config.games_per_pairing)}
            done.update((key, row) for key, row in stored.items() if key in wanted)
            if progress is not None:
                progress(len(done), total)
            if not play:
                continue
            todo = table_tasks(config, tables, set(done))
            left = len(wanted) - len(wanted & set(done))
            for row in run_tasks(play_game, todo, jobs, left, backend, address):
                record, row["record"] = row["record"], None
                row["record"] = store.append(row, record)
                done[(row["series"], row["index"])] = row
                if progress is not None:
                    progress(len(done), total)
    return [done[key] for key in sorted(done)]


def finishes(config: TournamentConfig, rows: Sequence[Mapping[str, Any]]) -> list[Finish]:
    """Each game's finish with player labels, in the order of ``rows``."""
    labels = config.labels
    return [Finish(tuple(labels[p] for p in row["seating"]), finish_ranks(row)) for row in rows]
