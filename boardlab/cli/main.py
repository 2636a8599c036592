"""The ``boardlab`` command: argument parsing, dispatch, and one-line errors for bad input."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from boardlab import __version__
from boardlab.ai.levels import LEVELS
from boardlab.cli import commands, pictures, serve
from boardlab.cli.play import TerminalGame
from boardlab.core.errors import BoardlabError, OptionError
from boardlab.core.options import SEED, parse_assignments
from boardlab.core.registry import game_class, make

PROG = "boardlab"


class UsageError(Exception):
    """A command line argparse rejected; its message is one line."""


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

    def command(name: str, summary: str, run: Callable[[argparse.Namespace], int]) -> _Parser:
        child: _Parser = sub.add_parser(name, help=summary, description=summary)
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

    play = command("play", "play in the terminal: humans and/or bots", _cmd_play)
    play.add_argument("game", metavar="GAME", help="game id")
    play.add_argument(
        "--player",
        action="append",
        metavar="SPEC",
        help="one per seat in seat order: human, random, ... (default: human vs random)",
    )
    play.add_argument("--position", metavar="TEXT", help="start from this position text")
    play.add_argument("--save", metavar="FILE", help="save the record to FILE at the end")
    _add_game_options(play, "seed for the bots and for the game's chance")

    match = command("match", "play a series of bot-vs-bot games", commands.cmd_match)
    match.add_argument("game", metavar="GAME", help="game id")
    match.add_argument(
        "--player", action="append", metavar="SPEC", help="one bot per seat (seats rotate)"
    )
    match.add_argument("--games", type=int, default=10, metavar="N", help="number of games")
    match.add_argument("--jobs", type=int, default=1, metavar="J", help="worker processes")
    match.add_argument(
        "--option", action="append", metavar="KEY=VALUE", help="a game option (repeatable)"
    )
    match.add_argument(
        "--seed", type=int, metavar="S", help="match seed: bots and chance derive from it"
    )
    match.add_argument("--save-dir", metavar="DIR", help="save each game as DIR/GAME-N.txt")
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
    return parser


def _cmd_play(args: argparse.Namespace) -> int:
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
    session = TerminalGame(game, players, args.position, args.seed, args.save)
    return session.run()


def _fail(message: str) -> int:
    first_line = message.strip().splitlines()[0] if message.strip() else "failed"
    print(f"{PROG}: error: {first_line}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 success, 2 bad input, 130 interrupted)."""
    try:
        args, extra = build_parser().parse_known_args(argv)
        # Moves may follow options (`moves GAME --option k=v MOVE`): argparse leaves them over.
        if extra and hasattr(args, "moves") and not any(x.startswith("-") for x in extra):
            args.moves += extra
        elif extra:
            raise UsageError(f"unrecognized arguments: {' '.join(extra)}")
        code: int = args.run(args)
        return code
    except UsageError as error:
        return _fail(str(error))
    except BoardlabError as error:
        return _fail(str(error))
    except KeyboardInterrupt:
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); stop quietly without a flush error at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except SystemExit as exit_:
        # --help and --version exit through argparse.
        return exit_.code if isinstance(exit_.code, int) else 0
