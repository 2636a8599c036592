"""The playtest lab's runs: which games a run plays, and playing them into a run store.

A run is a list of *series*: the base game or each variant (same bots, same seeds) and the
rungs of the skill trace (each bot level against the one below). Game ``i`` of every series
takes its bot seeds from the run seed and ``i`` alone, and its chance seed from the run seed
and its seat rotation, so variants are compared on the same luck and the same bot seeds.
Seats rotate: game ``i`` seats player ``(s + i) mod n`` in seat ``s``.

:func:`run_lab` plays the games that the store does not hold yet (so ``--resume`` continues a
stopped run) and returns every trace of the run sorted by series and index: the same run seed
gives the same traces, whatever the job count, the backend, or how often the run was resumed.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from boardlab.ai import make_bot
from boardlab.ai.levels import LEVELS
from boardlab.analysis.runner import run_tasks
from boardlab.analysis.seeding import Options, TaskMaker, sorted_options
from boardlab.analysis.store import RunStore
from boardlab.analysis.trace import BOARD_EVERY, GameTask, GameTrace, play_traced
from boardlab.core.errors import OptionError
from boardlab.core.files import stop_signals_held
from boardlab.core.game import Game
from boardlab.core.options import SEED, format_value
from boardlab.core.registry import game_class, make

BASE = "base"
DEFAULT_PLAYER = "level:easy"
DEFAULT_RUNGS = ("random", "level:easy", "level:medium")
NAME = re.compile(r"[A-Za-z0-9_.-]{1,40}")
CONFIG_VERSION = 1


@dataclass(frozen=True)
class Series:
    """Games of one setting: a name, the game's options, one bot spec per seat, a count."""

    name: str
    label: str
    options: dict[str, str]
    players: tuple[str, ...]
    games: int
    kind: str = "variant"
    """``variant`` (the base game or a variant), ``skill`` (a rung of the skill trace) or
    ``strong`` (a variant played again by strong bots)."""


@dataclass(frozen=True)
class LabConfig:
    """What determines a lab run; stored in the run directory and compared on resume."""

    game: str
    seed: int
    games: int
    options: dict[str, str] = field(default_factory=dict)
    players: tuple[str, ...] = ()
    variants: tuple[tuple[str, dict[str, str]], ...] = ()
    skill_rungs: tuple[str, ...] = DEFAULT_RUNGS
    skill_games: int = 0
    records: int = 5
    """Games per series whose record is kept (the first ones)."""
    board_every: int = BOARD_EVERY
    """Board snapshots (pieces, coverage) every this many decisions; 0: none."""
    deep: bool = False
    """Trace what the deeper metrics need (:mod:`boardlab.analysis.deep_trace`)."""
    strong: str = ""
    """A strong bot that plays every variant again in every seat (:mod:`strong_play`)."""
    strong_games: int = 0
    """Games per variant of the strong bots."""

    def to_json(self) -> dict[str, Any]:
        """The configuration as JSON data; settings added later appear only when they are not
        their defaults, so a run made before them still resumes."""
        found = self._settings()
        if self.deep:
            found["deep"] = True
        if self.strong:
            found["strong"] = self.strong
            found["strong_games"] = self.strong_games
        return found

    def _settings(self) -> dict[str, Any]:
        """The settings every configuration has."""
        return {
            "version": CONFIG_VERSION,
            "game": self.game,
            "seed": self.seed,
            "games": self.games,
            "options": dict(sorted(self.options.items())),
            "players": list(self.players),
            "variants": [[name, dict(sorted(o.items()))] for name, o in self.variants],
            "skill_rungs": list(self.skill_rungs),
            "skill_games": self.skill_games,
            "records": self.records,
            "board_every": self.board_every,
        }


def parse_variant(text: str) -> tuple[str, dict[str, str]]:
    """``name:K=V,K=V`` as its name and options; ``name:`` alone is the base game."""
    name, sep, rest = text.partition(":")
    if not sep or not NAME.fullmatch(name):
        raise OptionError(
            f"bad variant {text!r}: write NAME:KEY=VALUE,KEY=VALUE "
            "(a name of letters, digits, '_', '.', '-')"
        )
    options: dict[str, str] = {}
    for pair in filter(None, rest.split(",")):
        key, eq, value = pair.partition("=")
        if not eq or not key:
            raise OptionError(f"bad option {pair!r} in variant {text!r}: write KEY=VALUE")
        options[key.strip()] = value.strip()
    return name, options


def seat_players(game: Game, players: Sequence[str]) -> tuple[str, ...]:
    """One bot spec per seat: none given means the default bot, one given fills every seat."""
    given = tuple(players) or (DEFAULT_PLAYER,)
    if len(given) == 1:
        given = given * game.num_players
    if len(given) != game.num_players:
        raise OptionError(
            f"{game.id} with these options has {game.num_players} seats "
            f"({', '.join(game.player_names)}); give one --player, or one per seat "
            f"({len(given)} given)"
        )
    for spec in given:
        if make_bot(spec, game, 0) is None:
            raise OptionError(f"self-play needs bots; {spec!r} is not a bot")
    return given


def _game(game_id: str, options: Mapping[str, str], players: int) -> Game:
    keys = {spec.key for spec in game_class(game_id).OPTIONS}
    if SEED in options:
        raise OptionError("the lab seeds each game's chance itself; use --seed, not a seed option")
    if players > 1 and "players" in keys and "players" not in options:
        options = {**options, "players": str(players)}
    return make(game_id, **options)


def plan_series(config: LabConfig) -> list[Series]:
    """The series of a run, validated: variants first (or the base game), then skill rungs."""
    if config.games < 1:
        raise OptionError(f"the number of games must be at least 1, got {config.games}")
    if min(config.skill_games, config.records, config.board_every) < 0:
        raise OptionError("--skill-games, --records and --board-every must be 0 or more")
    variants = config.variants or ((BASE, {}),)
    names = [name for name, _ in variants]
    if len(set(names)) != len(names):
        raise OptionError(f"variant names must differ: {', '.join(names)}")
    series = []
    for name, extra in variants:
        options = {**config.options, **extra}
        game = _game(config.game, options, len(config.players))
        players = seat_players(game, config.players)
        label = name if not extra else f"{name} ({', '.join(f'{k}={v}' for k, v in extra.items())})"
        series.append(Series(name, label, _canonical(game, options), players, config.games))
    if config.strong:
        if config.strong_games < 1:
            raise OptionError("--strong needs --strong-games of 1 or more")
        for one in list(series):
            game = make(config.game, **one.options)
            players = seat_players(game, (config.strong,))
            label = f"{one.label}, {config.strong}"
            series.append(
                Series(
                    f"strong-{one.name}", label, one.options, players, config.strong_games, "strong"
                )
            )
    if config.skill_games:
        rungs = [f"level:{r}" if r in LEVELS else r for r in config.skill_rungs]
        if len(rungs) < 2:
            raise OptionError("the skill trace needs at least two rungs, weakest first")
        game = _game(config.game, config.options, 0)
        for number, (weak, strong) in enumerate(itertools.pairwise(rungs), 1):
            players = seat_players(game, (strong,) + (weak,) * (game.num_players - 1))
            others = weak if game.num_players == 2 else f"{game.num_players - 1} x {weak}"
            series.append(
                Series(
                    f"skill-{number}",
                    f"{strong} vs {others}",
                    _canonical(game, config.options),
                    players,
                    config.skill_games,
                    "skill",
                )
            )
    return series


def _canonical(game: Game, options: Mapping[str, str]) -> dict[str, str]:
    """The options given, as the game resolved them (so ``8x7`` and defaults read the same)."""
    return {key: format_value(game.options[key]) for key in options}


def series_makers(config: LabConfig, series: Sequence[Series]) -> dict[str, TaskMaker]:
    """Each series' seeds: the run's, shared by every series so that variants differ by their
    rules alone, except that a series with the same options and bots as an earlier one plays
    with seeds of its own (from the run seed and its name): two identical variants are then
    two independent samples of one game, a null check, not the same games twice."""
    shared = TaskMaker(config.game, config.seed)
    makers: dict[str, TaskMaker] = {}
    seen: set[tuple[Options, tuple[str, ...]]] = set()
    for one in series:
        key = (sorted_options(one.options), tuple(one.players))
        makers[one.name] = shared
        if key in seen:
            own = random.Random(f"boardlab-lab-series:{config.seed}:{one.name}")
            makers[one.name] = TaskMaker(config.game, own.randrange(2**63))
        seen.add(key)
    return makers


def tasks(
    config: LabConfig, series: Sequence[Series], skip: set[tuple[str, int]]
) -> Iterator[GameTask]:
    """The run's games not in ``skip``, lazily, game ``i`` of every series before game ``i+1``.

    Interleaving keeps the series level while a run is under way, so a stopped run already
    compares its variants on equal terms.
    """
    makers = series_makers(config, series)
    plans = [(one, sorted_options(one.options), tuple(range(len(one.players)))) for one in series]
    for index in range(max(s.games for s in series)):
        for one, options, entrants in plans:
            if index < one.games and (one.name, index) not in skip:
                task = makers[one.name].task(
                    one.name,
                    index,
                    options,
                    one.players,
                    entrants,
                    record=index < config.records,
                    board_every=config.board_every,
                )
                yield replace(task, deep=True) if config.deep else task


def run_lab(
    config: LabConfig,
    out: str | Path,
    jobs: int = 1,
    resume: bool = False,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[GameTrace]:
    """Play the run's missing games into the store at ``out``; every trace, sorted.

    ``progress(done, total)`` is called once before play and after every stored game. On
    Ctrl-C (KeyboardInterrupt) the stored games stay stored and the exception propagates.
    """
    series = plan_series(config)
    wanted = {(s.name, i) for s in series for i in range(s.games)}
    with RunStore.open(out, config.to_json(), resume) as store:
        traces = {}
        for row in store.rows():
            trace = GameTrace.from_json(row)
            if trace.key in wanted:
                traces[trace.key] = trace
        total = len(wanted)
        if progress is not None:
            progress(len(traces), total)
        todo = tasks(config, series, set(traces))
        for trace in run_tasks(play_traced, todo, jobs, total - len(traces), backend, address):
            record, trace.record = trace.record, None
            # A stop signal waits until the game just stored is counted, so the count that
            # Ctrl-C reports is the games the store holds.
            with stop_signals_held():
                trace.record = store.append(trace.to_json(), record)
                traces[trace.key] = trace
                if progress is not None:
                    progress(len(traces), total)
    return [traces[key] for key in sorted(traces)]
