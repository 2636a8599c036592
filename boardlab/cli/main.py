"""The ``boardlab`` command: argument parsing, dispatch, and one-line errors for bad input."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from boardlab import __version__
from boardlab.ai.levels import LEVELS
from boardlab.cli import analyse, commands, db, pictures, playtest, serve, tournament
from boardlab.cli.play import TerminalGame
from boardlab.cli.signals import Stopped, install_stop_handlers, restore_handlers
from boardlab.core.errors import BoardlabError, OptionError, one_line
from boardlab.core.options import SEED, parse_assignments
from boardlab.core.registry import game_class, make

PROG = "boardlab"


class UsageError(Exception):
    """A command line argparse rejected; its message is one line."""


PLAYER_SPECS = """\
player SPEC: KIND[:KEY=VALUE[,KEY=VALUE...]]
  human                       a person at this terminal
  random                      uniformly random legal decisions
  greedy[:noise=X]            best immediate evaluation
  alphabeta[:depth=N,time=S,nodes=N,noise=X,compiled=true|false]
                              alpha-beta search (paranoid with 3+ seats; default depth=3)
  mcts[:iters=N,time=S,c=X,rollout=N,reuse=true|false]
                              Monte Carlo tree search (default iters=1000)
  level:NAME                  a tuned bot: """ + ", ".join(LEVELS)


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Help that shows each option's default (when it has a meaningful one) and keeps epilogs."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if action.default not in (None, False, argparse.SUPPRESS) and "(default" not in text:
            text += " (default: %(default)s)"
        return text


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises instead of printing usage and exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _add_game_options(parser: argparse.ArgumentParser, seed_help: str) -> None:
    parser.add_argument(
        "--option",
        action="append",
        metavar="KEY=VALUE",
        help="a game option (repeatable); `boardlab games` lists them",
    )
    parser.add_argument("--seed", type=int, metavar="N", help=seed_help)


def _add_position(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", metavar="GAME", help="game id (see `boardlab games`)")
    parser.add_argument(
        "moves", nargs="*", metavar="MOVE", help="decisions or '+'-joined turns to play first"
    )
    parser.add_argument("--position", metavar="TEXT", help="start from this position text")
    _add_game_options(parser, "shorthand for --option seed=N")


def build_parser() -> argparse.ArgumentParser:
    """The full command-line parser."""
    parser = _Parser(prog=PROG, description="Play, analyse and playtest abstract strategy games.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def command(
        name: str, summary: str, run: Callable[[argparse.Namespace], int], epilog: str = ""
    ) -> _Parser:
        child: _Parser = sub.add_parser(
            name, help=summary, description=summary, epilog=epilog, formatter_class=_Formatter
        )
        child.set_defaults(run=run)
        return child

    games = command("games", "list the games, their players and options", commands.cmd_games)
    games.add_argument("--json", action="store_true", help="print JSON")

    moves = command("moves", "print the sorted legal moves", commands.cmd_moves)
    _add_position(moves)

    show = command("show", "print the board, side to move and position text", commands.cmd_show)
    _add_position(show)
    pictures.add_show_options(show)

    perft = command("perft", "count leaf positions DEPTH decisions deep", commands.cmd_perft)
    perft.add_argument("game", metavar="GAME", help="game id")
    perft.add_argument("depth", metavar="DEPTH", type=int, help="depth in decisions")
    perft.add_argument("moves", nargs="*", metavar="MOVE", help="moves to play first")
    perft.add_argument("--position", metavar="TEXT", help="start from this position text")
    perft.add_argument("--divide", action="store_true", help="print the count per first move")
    _add_game_options(perft, "shorthand for --option seed=N")

    play = command("play", "play in the terminal: humans and/or bots", _cmd_play, PLAYER_SPECS)
    play.add_argument("game", metavar="GAME", help="game id")
    play.add_argument(
        "--player",
        action="append",
        metavar="SPEC",
        help="one per seat in seat order: human, random, ... (default: human vs random)",
    )
    play.add_argument("--position", metavar="TEXT", help="start from this position text")
    play.add_argument(
        "--save", metavar="FILE", help="keep the record in FILE, rewritten after every turn"
    )
    play.add_argument("--force", action="store_true", help="let --save overwrite an existing file")
    play.add_argument(
        "--resume",
        metavar="FILE",
        help="go on with the unfinished game saved in FILE (and keep saving to it)",
    )
    _add_game_options(play, "seed for the bots and for the game's chance")

    match = command("match", "play a series of bot-vs-bot games", commands.cmd_match, PLAYER_SPECS)
    match.add_argument("game", metavar="GAME", help="game id")
    match.add_argument(
        "--player", action="append", metavar="SPEC", help="one bot per seat (seats rotate)"
    )
    match.add_argument("--games", type=int, default=10, metavar="N", help="number of games")
    match.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="J",
        help="worker processes (at most one per game and per CPU)",
    )
    match.add_argument(
        "--option", action="append", metavar="KEY=VALUE", help="a game option (repeatable)"
    )
    match.add_argument(
        "--seed", type=int, metavar="S", help="match seed: bots and chance derive from it"
    )
    match.add_argument(
        "--save-dir",
        metavar="DIR",
        help="save each game as DIR/GAME-N.txt (DIR must hold no records of another run)",
    )
    match.add_argument("--json", action="store_true", help="print the summary as JSON")
    match.add_argument("--quiet", action="store_true", help="no progress on stderr")

    rungs = command(
        "ladder",
        "measure bot levels, each against the one below (markdown table)",
        commands.cmd_ladder,
    )
    rungs.add_argument("game", metavar="GAME", help="game id")
    rungs.add_argument("--games", type=int, default=100, metavar="N", help="games per rung")
    rungs.add_argument("--jobs", type=int, default=1, metavar="J", help="worker processes")
    rungs.add_argument("--seed", type=int, default=0, metavar="S", help="match seed")
    rungs.add_argument(
        "--option", action="append", metavar="KEY=VALUE", help="a game option (repeatable)"
    )
    rungs.add_argument(
        "--rungs",
        nargs="+",
        default=["random", *LEVELS],
        metavar="SPEC",
        help="weakest to strongest: level names or bot specs (default: random and the levels)",
    )
    rungs.add_argument("--quiet", action="store_true", help="no progress on stderr")

    ranked = command("tournament", tournament.SUMMARY, tournament.cmd_tournament)
    tournament.add_arguments(ranked)

    lab = command("analyse", "playtest a game or compare variants (report)", analyse.cmd_analyse)
    analyse.add_arguments(lab)

    replay = command("replay", "validate a game record and show it", commands.cmd_replay)
    replay.add_argument("file", metavar="FILE", help="a game record")
    replay.add_argument("--step", action="store_true", help="show the board after every turn")
    replay.add_argument(
        "--svg", metavar="DIR", help="write DIR/turn-N.svg: the start and every turn's position"
    )

    bench = command("bench", "perft and random-playout speed per game", commands.cmd_bench)
    bench.add_argument("--game", action="append", metavar="ID", help="only this game")
    bench.add_argument(
        "--seconds", type=float, default=2.0, metavar="S", help="time per measurement"
    )
    bench.add_argument("--json", action="store_true", help="print JSON")

    web = command("serve", "run the web app: play in the browser", serve.cmd_serve)
    serve.add_arguments(web)

    store = command("db", db.SUMMARY, db.cmd_db)
    db.add_arguments(store, _Formatter)
    tests = command("playtest", playtest.SUMMARY, playtest.cmd_playtest)
    playtest.add_arguments(tests, _Formatter)
    return parser


def _cmd_play(args: argparse.Namespace) -> int:
    if args.resume is not None:
        if args.position is not None or args.option:
            raise OptionError("--resume takes the game, options and position from the record")
        session = TerminalGame.resume(
            args.game, args.resume, args.player, args.seed, args.save, args.force
        )
        return session.run()
    options = commands.seat_options(
        args.game, parse_assignments(args.option or []), len(args.player or [])
    )
    if args.seed is not None and any(o.key == SEED for o in game_class(args.game).OPTIONS):
        options.setdefault(SEED, str(args.seed))
    game = make(args.game, **options)
    players = args.player or ["human"] + ["random"] * (game.num_players - 1)
    if len(players) != game.num_players:
        raise OptionError(
            f"{game.id} has {game.num_players} seats ({', '.join(game.player_names)}); "
            f"give one --player per seat, {len(players)} given"
        )
    session = TerminalGame(game, players, args.position, args.seed)
    session.target(args.save, args.force)
    return session.run()


def _fail(message: str) -> int:
    # After a hang-up even stderr may be gone; the exit code still tells.
    with contextlib.suppress(OSError):
        print(f"{PROG}: error: {one_line(message)}", file=sys.stderr)
    return 2


def _os_message(error: OSError) -> str:
    reason = error.strerror or str(error)
    return f"{error.filename}: {reason}" if error.filename else reason


def _silence_stdout() -> None:
    """Send what is left of stdout to /dev/null, so exit does not fail flushing it again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _flush_stdout() -> None:
    """Flush stdout inside the error boundary: a full disk (``> /dev/full``) shows up here."""
    try:
        sys.stdout.flush()
    except OSError:
        _silence_stdout()
        raise


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code.

    This is the one error boundary: bad input, unwritable files, numbers out of range and
    interruptions all end here as one line ``boardlab: error: ...`` (exit 2), a note on
    stderr (exit 128 + signal), or silence when the reader of stdout has gone away (exit 1).
    """
    handlers = install_stop_handlers()
    try:
        args, extra = build_parser().parse_known_args(argv)
        # Moves may follow options (`moves GAME --option k=v MOVE`): argparse leaves them over.
        if extra and hasattr(args, "moves") and not any(x.startswith("-") for x in extra):
            args.moves += extra
        elif extra:
            raise UsageError(f"unrecognized arguments: {' '.join(extra)}")
        code: int = args.run(args)
        _flush_stdout()
        return code
    except (UsageError, BoardlabError) as error:
        return _fail(str(error))
    except Stopped as stop:
        return 128 + stop.signum
    except KeyboardInterrupt:
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); stop quietly without a flush error at exit.
        _silence_stdout()
        return 1
    except OSError as error:
        return _fail(_os_message(error))
    except (ValueError, OverflowError, RecursionError, MemoryError) as error:
        # Input beyond what Python can hold or convert (e.g. a 5000-digit number).
        return _fail(f"bad input: {error}" if str(error) else f"bad input ({type(error).__name__})")
    except SystemExit as exit_:
        # --help and --version exit through argparse.
        return exit_.code if isinstance(exit_.code, int) else 0
    finally:
        restore_handlers(handlers)
