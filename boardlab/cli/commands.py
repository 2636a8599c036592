"""The non-interactive subcommands: games, moves, show, perft, replay, match and bench."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from boardlab.analysis.bench import bench_game
from boardlab.analysis.ladder import TABLE_HEAD, pairings, play_rung
from boardlab.analysis.match import (
    GameResult,
    MatchSpec,
    Tally,
    check_match,
    iter_match,
    player_labels,
)
from boardlab.cli.pictures import replay_pictures, show_pictures
from boardlab.core.engine import engine_name
from boardlab.core.errors import OptionError
from boardlab.core.game import Game
from boardlab.core.options import SEED, format_value, parse_assignments
from boardlab.core.outcome import Result
from boardlab.core.perft import divide, leaf_count
from boardlab.core.records import apply_turn, load_record
from boardlab.core.registry import game_class, game_ids, make
from boardlab.core.state import State

MAX_PERFT_DEPTH = 30
"""Deeper perft counts would not finish in a lifetime for any game here (and would recurse)."""

MAX_BENCH_SECONDS = 3600.0
"""The longest measurement ``bench --seconds`` accepts."""


def game_options(args: argparse.Namespace) -> dict[str, str]:
    """The ``--option KEY=VALUE`` pairs, with ``--seed N`` as ``seed=N``."""
    options = parse_assignments(args.option or [])
    if getattr(args, "seed", None) is not None:
        options[SEED] = str(args.seed)
    return options


def seat_options(game_id: str, options: dict[str, str], players: int) -> dict[str, str]:
    """``options`` with a game's ``players`` option, when it has one, set from the specs given.

    So three ``--player`` specs make a three-seat Colosseum Offcuts without ``--option``.
    """
    keys = {spec.key for spec in game_class(game_id).OPTIONS}
    if players and "players" in keys and "players" not in options:
        return {**options, "players": str(players)}
    return options


def make_game(args: argparse.Namespace) -> Game:
    """The game named by ``args.game`` with the options given on the command line."""
    return make(args.game, **game_options(args))


def start_state(game: Game, position: str | None, moves: list[str]) -> State:
    """The position text (or the initial position) with ``moves`` played from it."""
    state = game.state_from_text(position) if position is not None else game.new_initial_state()
    for move in moves:
        state.play(move)
    return state


REFERENCE_NOTE = " (bots think slower; the fast extra brings the compiled engine)"


def cmd_games(args: argparse.Namespace) -> int:
    """List the installed games with their players, the engine that runs them, and options."""
    if args.json:
        print(json.dumps([_game_entry(game_id) for game_id in game_ids()], indent=2))
        return 0
    for game_id in game_ids():
        cls = game_class(game_id)
        low, high = cls.min_players, cls.max_players
        count = str(low) if low == high else f"{low}-{high}"
        names = ", ".join(make(game_id).player_names)
        print(f"{game_id}  {cls.name}  ({count} players; default seats: {names})")
        engine = engine_name(make(game_id))
        slower = "" if engine == "compiled" else REFERENCE_NOTE
        print(f"    engine: {engine}{slower}")
        for spec in cls.OPTIONS:
            shown = "random" if spec.default is None else format_value(spec.default)
            print(f"    {spec.key}={shown}  [{spec.allowed()}]  {spec.help}")
    return 0


def _game_entry(game_id: str) -> dict[str, object]:
    cls = game_class(game_id)
    return {
        "id": game_id,
        "name": cls.name,
        "min_players": cls.min_players,
        "max_players": cls.max_players,
        "player_names": list(make(game_id).player_names),
        "engine": engine_name(make(game_id)),
        "has_chance": cls.has_chance,
        "has_hidden_information": cls.has_hidden_information,
        "options": [
            {
                "key": spec.key,
                "kind": spec.kind,
                "default": spec.default,
                "allowed": spec.allowed(),
                "help": spec.help,
            }
            for spec in cls.OPTIONS
        ],
    }


def cmd_moves(args: argparse.Namespace) -> int:
    """Print the sorted legal moves after the given moves."""
    game = make_game(args)
    state = start_state(game, args.position, args.moves)
    for move in state.legal_moves():
        print(move)
    if state.outcome is not None:
        print(f"game over: {state.outcome.describe(game.player_names)}", file=sys.stderr)
    return 0


def describe_state(state: State) -> str:
    """The board, the side to move (or the outcome) and the position text."""
    names = state.game.player_names
    lines = [state.render().rstrip("\n"), ""]
    if state.outcome is None:
        lines.append(f"To move: {names[state.current_player]}")
    else:
        lines.append(f"Game over: {state.outcome.describe(names)}")
    lines.append(f"Position: {state.position_text()}")
    return "\n".join(lines)


def cmd_show(args: argparse.Namespace) -> int:
    """Print the board, side to move, position text and outcome (or the SVG picture)."""
    game = make_game(args)
    state = start_state(game, args.position, args.moves)
    svg = show_pictures(state, args)
    print(describe_state(state) if svg is None else svg.rstrip("\n"))
    return 0


def cmd_perft(args: argparse.Namespace) -> int:
    """Count leaf positions; with --divide, per first decision too."""
    least = 1 if args.divide else 0
    if not least <= args.depth <= MAX_PERFT_DEPTH:
        raise OptionError(
            f"bad depth {args.depth}: it must be an integer from {least} to {MAX_PERFT_DEPTH}"
        )
    state = start_state(make_game(args), args.position, args.moves)
    if not args.divide:
        print(leaf_count(state, args.depth))
        return 0
    total = 0
    for move, count in divide(state, args.depth):
        print(f"{move}: {count}")
        total += count
    print(total)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Load and validate a record, then show its final position (or every turn)."""
    record, final = load_record(args.file)
    names = record.game.player_names
    print(f"Game: {record.game.id}")
    for name, player in zip(names, record.players, strict=True):
        print(f"Player {name}: {player}")
    if args.step:
        state = record.start_state()
        print()
        print(state.render().rstrip("\n"))
        for number, turn in enumerate(record.turns, 1):
            state = apply_turn(state, turn)
            print(f"\n{number} {names[turn.seat]}: {turn.text}")
            print(state.render().rstrip("\n"))
    print()
    print(describe_state(final))
    outcome = record.outcome(final)
    unended = "aborted (no result)" if record.aborted else "unfinished"
    print(f"Result: {outcome.describe(names) if outcome else unended}")
    if args.svg is not None:
        count = replay_pictures(record, args.svg)
        print(f"Pictures: {count} SVG files in {args.svg}")
    return 0


def cmd_match(args: argparse.Namespace) -> int:
    """Play a bot-vs-bot series and print its statistics (those played so far if stopped)."""
    if args.jobs < 1:
        raise OptionError(f"bad --jobs {args.jobs}: it must be an integer >= 1")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    spec = MatchSpec(
        args.game,
        seat_options(args.game, parse_assignments(args.option or []), len(args.player or [])),
        tuple(args.player or []),
        args.games,
        seed,
        args.save_dir,
    )
    game = check_match(spec)
    begin = time.perf_counter()
    tally = Tally(spec, game.player_names)
    progress = None if args.quiet else _Progress(spec.games, player_labels(spec.players))
    stopped: KeyboardInterrupt | None = None
    games = iter_match(spec, args.jobs)
    try:
        for result in games:
            tally.add(result)
            if progress is not None:
                progress(result)
    except KeyboardInterrupt as stop:
        stopped = stop
    finally:
        games.close()
    if progress is not None:
        progress.finish()
    if stopped is not None:
        print(f"interrupted: {tally.games} of {spec.games} games played", file=sys.stderr)
    summary = tally.summary()
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(_match_text(summary, game, time.perf_counter() - begin))
    if stopped is not None:
        raise stopped
    return 0


class _Progress:
    """Progress on stderr: one updated line on a terminal, else a line per tenth of the games.

    Wins are counted per player (bot), not per seat, since seats rotate between games.
    """

    def __init__(self, games: int, labels: list[str]) -> None:
        self.games = games
        self.labels = labels
        self.done = 0
        self.wins = [0] * len(labels)
        self.live = sys.stderr.isatty()
        self.step = max(1, games // 10)

    def __call__(self, result: GameResult) -> None:
        self.done += 1
        for seat, seat_result in enumerate(result.results):
            self.wins[result.seating[seat]] += seat_result is Result.WIN
        wins = ", ".join(f"{n} {w}" for n, w in zip(self.labels, self.wins, strict=True))
        line = f"game {self.done}/{self.games}: wins {wins}"
        if self.live:
            print(f"\r{line}", end="", file=sys.stderr, flush=True)
        elif self.done % self.step == 0 or self.done == self.games:
            print(line, file=sys.stderr, flush=True)

    def finish(self) -> None:
        if self.live:
            print(file=sys.stderr)


def _match_text(summary: dict[str, object], game: Game, seconds: float) -> str:
    side_wins = summary["side_wins"]
    terminations = summary["terminations"]
    players = summary["players"]
    assert isinstance(side_wins, dict) and isinstance(terminations, dict)
    assert isinstance(players, list)
    sides = ", ".join(f"{name} {count}" for name, count in side_wins.items())
    reasons = ", ".join(f"{reason} {count}" for reason, count in terminations.items())
    lines = [
        f"{game.id}: {summary['games']} games in {seconds:.1f} s, seed {summary['seed']}",
        f"wins by side: {sides}; draws {summary['draws']}",
        f"mean plies: {summary['mean_plies']}",
        f"terminations: {reasons}",
        f"{'player':<24} {'W':>5} {'D':>5} {'L':>5} {'score':>6}  95% CI",
    ]
    for row in players:
        low, high = row["score_ci95"]
        lines.append(
            f"{row['player']:<24} {row['wins']:>5} {row['draws']:>5} {row['losses']:>5} "
            f"{row['score']:>6.3f}  [{low:.3f}, {high:.3f}]"
        )
    return "\n".join(lines)


def cmd_bench(args: argparse.Namespace) -> int:
    """Benchmark perft and random playouts for each installed game (or those named)."""
    if not 0 < args.seconds <= MAX_BENCH_SECONDS:
        raise OptionError(
            f"bad --seconds {args.seconds}: it must be a number > 0 and <= {MAX_BENCH_SECONDS}"
        )
    chosen = args.game or game_ids()
    games = [make(game_id) for game_id in chosen]
    reports = []
    for game in games:
        report = bench_game(game, args.seconds)
        reports.append(report.to_json())
        if not args.json:
            p, r = report.perft, report.playouts
            bots = "".join(f"; {key} {value:,.0f}" for key, value in report.bots.items())
            print(
                f"{game.id} ({report.engine} engine): "
                f"perft {p.depth} = {p.leaves} leaves in {p.seconds:.2f} s "
                f"({p.leaves_per_second:,.0f} leaves/s); "
                f"{r.playouts} random playouts in {r.seconds:.2f} s "
                f"({r.playouts_per_second:,.1f}/s, {r.mean_decisions:.1f} decisions each)"
                f"{bots}",
                flush=True,
            )
    if args.json:
        print(json.dumps(reports, indent=2))
    return 0


def cmd_ladder(args: argparse.Namespace) -> int:
    """Measure each rung of the strength ladder against the one below; print a markdown table."""
    if args.jobs < 1:
        raise OptionError(f"bad --jobs {args.jobs}: it must be an integer >= 1")
    if args.games < 1:
        raise OptionError(f"bad --games {args.games}: it must be an integer >= 1")
    if len(args.rungs) < 2:
        raise OptionError("bad --rungs: a ladder needs at least 2 rungs, weakest to strongest")
    options = parse_assignments(args.option or [])
    game = make(args.game, **options)
    print(TABLE_HEAD, flush=True)
    for weak, strong in pairings(args.rungs):
        labels = player_labels((strong,) + (weak,) * (game.num_players - 1))
        progress = None if args.quiet else _Progress(args.games, labels)
        rung = play_rung(
            args.game, options, strong, weak, args.games, args.seed, args.jobs, progress
        )
        if progress is not None:
            progress.finish()
        print(rung.table_row(), flush=True)
    return 0
