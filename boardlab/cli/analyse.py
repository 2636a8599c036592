"""``boardlab analyse``: the playtest lab on the command line, with a progress bar and ETA."""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

from boardlab.analysis.lab import DEFAULT_RUNGS, LabConfig, parse_variant, plan_series, run_lab
from boardlab.analysis.runner import BACKENDS
from boardlab.analysis.store import CONFIG, read_config
from boardlab.analysis.trace import BOARD_EVERY
from boardlab.core.errors import OptionError
from boardlab.core.options import parse_assignments

PROG = "boardlab"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``boardlab analyse``."""
    parser.add_argument("game", metavar="GAME", help="game id (see `boardlab games`)")
    parser.add_argument(
        "--option", action="append", metavar="K=V", help="a game option for every variant"
    )
    parser.add_argument(
        "--player",
        action="append",
        metavar="SPEC",
        help="one bot for every seat, or one per seat; seats rotate (default: level:easy)",
    )
    parser.add_argument(
        "--variant",
        action="append",
        metavar="NAME:K=V,K=V",
        help="a variant to compare (repeatable; the first is the baseline; 'NAME:' alone is "
        "the game as given)",
    )
    parser.add_argument("--games", type=int, default=100, metavar="N", help="games per variant")
    parser.add_argument("--jobs", type=int, default=1, metavar="J", help="parallel workers")
    parser.add_argument("--seed", type=int, metavar="S", help="run seed (default: a new one)")
    parser.add_argument("--out", metavar="DIR", help="run directory (default: lab-GAME-SEED)")
    parser.add_argument(
        "--resume", action="store_true", help="continue the run in --out to N games"
    )
    parser.add_argument(
        "--skill-games",
        type=int,
        default=20,
        metavar="M",
        help="games per rung of the skill trace (0: none)",
    )
    parser.add_argument(
        "--skill-rungs",
        nargs="+",
        default=list(DEFAULT_RUNGS),
        metavar="SPEC",
        help="bots of the skill trace, weakest first (level names allowed)",
    )
    parser.add_argument(
        "--records",
        type=int,
        default=5,
        metavar="K",
        help="keep the records of K games per variant",
    )
    parser.add_argument(
        "--board-every",
        type=int,
        default=BOARD_EVERY,
        metavar="K",
        help=f"board snapshot every K decisions for pieces and coverage (0: none; default "
        f"{BOARD_EVERY})",
    )
    parser.add_argument(
        "--strong",
        metavar="SPEC",
        default="",
        help="play every variant again with this bot in every seat (e.g. level:hard) and say "
        "whether the verdict on the seats changes",
    )
    parser.add_argument(
        "--strong-games",
        type=int,
        default=40,
        metavar="N",
        help="games per variant of the --strong bots (default 40)",
    )
    parser.add_argument(
        "--deep",
        action="store_true",
        help="also trace clarity, uncertainty, the chosen move's shortfall, repetition, move "
        "distance and a state-space estimate (evaluates every legal decision: slower)",
    )
    parser.add_argument("--backend", choices=BACKENDS, default="local", help="where games run")
    parser.add_argument("--address", metavar="ADDR", help="Ray cluster address (--backend ray)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")


def cmd_analyse(args: argparse.Namespace) -> int:
    """Play the run (or what is missing of it), then write and announce the report."""
    try:
        from boardlab.analysis.report import write_report
        from boardlab.analysis.summary import summarize_run
    except ImportError as error:
        raise OptionError(
            f"boardlab analyse needs the lab extra ({error.name} is missing): "
            "pip install 'boardlab[lab]'"
        ) from None

    seed = args.seed
    if seed is None and args.resume and args.out and (Path(args.out) / CONFIG).exists():
        seed = int(read_config(args.out)["seed"])
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    out = Path(args.out or f"lab-{args.game}-{seed}")
    config = LabConfig(
        game=args.game,
        seed=seed,
        games=args.games,
        options=parse_assignments(args.option or []),
        players=tuple(args.player or ()),
        variants=tuple(parse_variant(text) for text in args.variant or ()),
        skill_rungs=tuple(args.skill_rungs),
        skill_games=args.skill_games,
        records=args.records,
        board_every=args.board_every,
        deep=args.deep,
        strong=args.strong,
        strong_games=args.strong_games if args.strong else 0,
    )
    if args.variant is not None and len(args.variant) < 2:
        raise OptionError("compare at least two variants (the first is the baseline)")
    series = plan_series(config)
    progress = None if args.quiet else Progress()
    try:
        traces = run_lab(config, out, args.jobs, args.resume, args.backend, args.address, progress)
    except KeyboardInterrupt:
        done = progress.done if progress else "some"
        print(
            f"\n{PROG}: interrupted: {done} games are stored in {out}; "
            f"run the same command with --resume to finish",
            file=sys.stderr,
        )
        return 130
    finally:
        if progress is not None:
            progress.finish()
    summary = summarize_run(config, series, traces)
    page = write_report(out, summary, traces)
    for line in summary["headlines"]:
        print(line)
    print(f"report: {page}")
    return 0


class Progress:
    """A progress bar with rate and ETA on stderr; a line per tenth when not on a terminal.

    The live bar is redrawn at most every ``REDRAW_SECONDS`` (and at the end): a fast game
    lasts a millisecond or two, less than drawing the bar for it would.
    """

    WIDTH = 24
    REDRAW_SECONDS = 0.1

    def __init__(self) -> None:
        self.live = sys.stderr.isatty()
        self.done = 0
        self.start_done = 0
        self.start = time.monotonic()
        self.last_tenth = -1
        self.drawn = -math.inf

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if self.last_tenth < 0:
            self.start_done, self.start = done, now
        self.done = done
        tenth = 10 * done // max(1, total)
        if self.live:
            if now - self.drawn >= self.REDRAW_SECONDS or done == total:
                print(f"\r{self._line(done, total, now)}", end="", file=sys.stderr, flush=True)
                self.drawn = now
        elif tenth != self.last_tenth:
            print(self._line(done, total, now), file=sys.stderr, flush=True)
        self.last_tenth = tenth

    def _line(self, done: int, total: int, now: float) -> str:
        played = done - self.start_done
        elapsed = now - self.start
        rate = played / elapsed if elapsed > 0 else 0.0
        eta = (total - done) / rate if rate > 0 else None
        filled = self.WIDTH * done // max(1, total)
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        return (
            f"[{bar}] {done}/{total} games {100 * done // max(1, total)}% "
            f"{rate:.1f} games/s ETA {_clock(eta)}"
        )

    def finish(self) -> None:
        """End the live line."""
        if self.live:
            print(file=sys.stderr)


def _clock(seconds: float | None) -> str:
    if seconds is None:
        return "--:--"
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
