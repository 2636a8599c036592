"""``boardlab tournament``: rank bot specs by a stored, resumable tournament, with ratings."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from boardlab.ai import level_ratings
from boardlab.analysis.runner import BACKENDS
from boardlab.analysis.tournament import (
    FORMATS,
    TournamentConfig,
    finishes,
    game_options,
    run_tournament,
    total_games,
)
from boardlab.core.errors import OptionError
from boardlab.core.files import write_atomic
from boardlab.core.options import parse_assignments
from boardlab.core.registry import make

SUMMARY = "rank bot specs by a round-robin, Swiss or gauntlet tournament, with ratings"
PLOT = "ratings.png"
STANDINGS = "standings.json"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``boardlab tournament``."""
    parser.add_argument("game", metavar="GAME", help="game id")
    parser.add_argument(
        "--player", action="append", metavar="SPEC", help="a bot spec to rank (repeatable)"
    )
    parser.add_argument("--format", choices=FORMATS, default="round-robin", help="pairing format")
    parser.add_argument(
        "--games-per-pairing",
        type=int,
        metavar="N",
        help="games per pairing or group, seats rotated (default: the number of seats)",
    )
    parser.add_argument(
        "--seats", type=int, metavar="K", help="seats per game (default: the game's)"
    )
    parser.add_argument("--rounds", type=int, default=0, metavar="R", help="Swiss rounds")
    parser.add_argument("--jobs", type=int, default=1, metavar="J", help="worker processes")
    parser.add_argument("--backend", choices=BACKENDS, default="local", help="game runner")
    parser.add_argument("--address", metavar="ADDR", help="Ray cluster address")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="tournament seed")
    parser.add_argument(
        "--option", action="append", metavar="KEY=VALUE", help="a game option (repeatable)"
    )
    parser.add_argument(
        "--out", metavar="DIR", help="run directory (default: tournament-GAME-Kp-sSEED)"
    )
    parser.add_argument("--resume", action="store_true", help="continue the run in --out")
    parser.add_argument(
        "--stored",
        action="store_true",
        help="play nothing: rate the games stored in --out so far (implies --resume)",
    )
    parser.add_argument(
        "--anchor", default="random", metavar="SPEC", help="the player rated 0 (default: random)"
    )
    parser.add_argument(
        "--level-ratings",
        metavar="FILE",
        help="also merge the ratings into FILE (JSON by game and seats, read by the server)",
    )
    parser.add_argument("--json", action="store_true", help="print the standings as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar on stderr")


class ProgressBar:
    """A one-line progress bar on stderr: games done of all, elapsed time, time left."""

    def __init__(self) -> None:
        self.start = time.monotonic()
        self.first: int | None = None
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        if self.first is None:
            self.first = done
        elapsed = time.monotonic() - self.start
        fresh = done - self.first
        left = (total - done) * elapsed / fresh if fresh else 0.0
        width = 30
        filled = width * done // max(total, 1)
        bar = "#" * filled + "." * (width - filled)
        eta = f", ~{left:.0f} s left" if fresh and done < total else ""
        sys.stderr.write(f"\r[{bar}] {done}/{total} games, {elapsed:.0f} s{eta}   ")
        sys.stderr.flush()
        self.shown = True

    def finish(self) -> None:
        """End the bar's line, if one was drawn."""
        if self.shown:
            sys.stderr.write("\n")


def cmd_tournament(args: argparse.Namespace) -> int:
    """Play (or resume) the tournament, then print the ratings and crosstable and save a plot."""
    if not args.player or len(args.player) < 2:
        raise OptionError("give at least two --player specs to rank")
    options = parse_assignments(args.option or [])
    seats = args.seats or make(args.game, **options).num_players
    # --seats K and --option players=K are one setting: keep one spelling so a resume matches.
    if options.pop("players", str(seats)) != str(seats):
        raise OptionError(f"--option players contradicts --seats {seats}")
    config = TournamentConfig(
        game=args.game,
        players=tuple(args.player),
        seats=seats,
        format=args.format,
        games_per_pairing=args.games_per_pairing or seats,
        seed=args.seed,
        options=options,
        rounds=args.rounds,
    )
    if args.anchor not in config.labels:
        raise OptionError(f"the anchor {args.anchor!r} is not one of the --player specs")
    try:
        from boardlab.analysis import tournament_report as report
    except ImportError as error:
        raise OptionError(
            f"boardlab tournament needs the lab extra ({error.name} is missing): "
            "pip install 'boardlab[lab]'"
        ) from None
    out = Path(args.out or f"tournament-{args.game}-{seats}p-s{args.seed}")
    progress = None if args.quiet else ProgressBar()
    try:
        rows = run_tournament(
            config,
            out,
            args.jobs,
            args.resume or args.stored,
            args.backend,
            args.address,
            progress,
            play=not args.stored,
        )
    finally:
        if progress is not None:
            progress.finish()
    result = report.standings(finishes(config, rows), args.anchor)
    data = {
        "game": args.game,
        "config": config.to_json(),
        "games": len(rows),
        "planned": total_games(config),
        **report.as_json(result),
    }
    write_atomic(out / STANDINGS, json.dumps(data, indent=2) + "\n")
    name = make(args.game, **game_options(config)).name
    report.plot(result, f"{name}, {seats} seats: {len(rows)} games", out / PLOT)
    if args.level_ratings:
        level_ratings.merge(Path(args.level_ratings), args.game, seats, data)
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        print(report.rating_table(result))
        print()
        print(report.crosstable(result))
        print(f"\n{len(rows)} games in {out}; plot: {out / PLOT}")
    return 0
