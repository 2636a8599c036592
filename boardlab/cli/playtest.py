"""``boardlab playtest create``: make a playtest on a running ``boardlab serve`` from the
terminal, as its web form does, and print the link to share and the private dashboard link.

It asks the server (``POST /api/playtests``), so the playtest is checked exactly as the form's
and lands in whichever store the server uses, SQLite or PostgreSQL, while it runs.
"""

from __future__ import annotations

import argparse
import json
import urllib.error
import urllib.request
from typing import Any

from boardlab.core.errors import BoardlabError

SUMMARY = "playtests with people: make one on a running server (share link and dashboard)"
DEFAULT_SERVER = "http://127.0.0.1:8000"
TIMEOUT_SECONDS = 30


def add_arguments(parser: argparse.ArgumentParser, formatter: type[argparse.HelpFormatter]) -> None:
    """The subcommands of ``boardlab playtest``."""
    sub = parser.add_subparsers(dest="playtest_command", metavar="COMMAND", required=True)
    create = sub.add_parser(
        "create",
        help="make a playtest and print its share link and private dashboard link",
        description="Make a playtest of GAME on a running boardlab serve. Playtesters open the\n"
        "share link, read the rules, are given a variant (at random, evenly spread) and a\n"
        "seat (beside other playtesters, or against a bot), play, and answer a short survey\n"
        "when the game ends. The dashboard link is printed once: keep it, it is the only key\n"
        "to the answers (the server keeps only its hash).",
        epilog="example (the Carnyx sheet's conversion question, against each other):\n"
        "  boardlab playtest create carnyx --title 'Carnyx: supply or token?' \\\n"
        "      --variant 'Supply:conversion=supply' --variant 'Token:conversion=token'",
        formatter_class=formatter,
    )
    create.add_argument("game", metavar="GAME", help="the game's id (boardlab games lists them)")
    create.add_argument("--title", help="the playtest's title (default: '<game> playtest')")
    create.add_argument(
        "--variant",
        action="append",
        metavar="NAME:K=V,K=V",
        help="a variant: your name for it and the options it sets (repeatable, at most 4; "
        "none: the game as its rules stand). Players see only 'Variant A', 'Variant B'…",
    )
    create.add_argument(
        "--opponent",
        default="people",
        metavar="WHO",
        help="'people' (playtesters play each other, paired from a waiting list; the default) "
        "or a bot level each plays against: random, level:easy … level:expert",
    )
    create.add_argument(
        "--clock",
        metavar="BASE+INC|Nd",
        help="a time control: seconds plus an increment (300+5), or days a move (1d)",
    )
    create.add_argument(
        "--question",
        action="append",
        metavar="TEXT",
        help="a survey question answered 1 to 5 (repeatable; replaces the four defaults: fun, "
        "clarity of the rules, felt balance, length)",
    )
    create.add_argument(
        "--hide-variant",
        action="store_true",
        help="players are not told which variant they play (by default they see its neutral "
        "name and options)",
    )
    create.add_argument(
        "--ends", metavar="YYYY-MM-DD", help="last day to join (default: in 30 days)"
    )
    create.add_argument(
        "--server",
        default=DEFAULT_SERVER,
        metavar="URL",
        help=f"the running boardlab serve (default {DEFAULT_SERVER})",
    )
    create.add_argument("--json", action="store_true", help="print the server's answer as JSON")
    create.set_defaults(playtest_run=cmd_create)


def cmd_playtest(args: argparse.Namespace) -> int:
    """Run the ``boardlab playtest`` subcommand given."""
    run = args.playtest_run
    code: int = run(args)
    return code


def parse_variant(text: str) -> dict[str, Any]:
    """``NAME:K=V,K=V`` as the API's variant object."""
    name, sep, rest = text.partition(":")
    if not sep or not name.strip():
        raise BoardlabError(f"bad variant {text!r}: write NAME:KEY=VALUE,KEY=VALUE")
    options: dict[str, str] = {}
    for pair in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise BoardlabError(f"bad option {pair!r} in variant {text!r}: write KEY=VALUE")
        options[key.strip()] = value.strip()
    return {"name": name.strip(), "options": options}


def parse_clock(text: str) -> dict[str, int]:
    """``300+5`` or ``2d`` as the API's clock object."""
    try:
        if text.endswith("d"):
            return {"days": int(text[:-1])}
        base, _, increment = text.partition("+")
        return {"base": int(base), "increment": int(increment or 0)}
    except ValueError:
        raise BoardlabError(f"bad clock {text!r}: write BASE+INCREMENT in seconds, or Nd") from None


def request_body(args: argparse.Namespace) -> dict[str, Any]:
    """The ``POST /api/playtests`` body of the command line."""
    body: dict[str, Any] = {"game": args.game, "opponent": args.opponent}
    if args.title:
        body["title"] = args.title
    if args.variant:
        body["variants"] = [parse_variant(text) for text in args.variant]
    if args.clock:
        body["clock"] = parse_clock(args.clock)
    if args.question:
        body["questions"] = args.question
    if args.hide_variant:
        body["show_variant"] = False
    if args.ends:
        body["ends"] = args.ends
    return body


def cmd_create(args: argparse.Namespace) -> int:
    """Ask the server for the playtest and print its links."""
    server = args.server.rstrip("/")
    request = urllib.request.Request(
        f"{server}/api/playtests",
        json.dumps(request_body(args)).encode(),
        {"Content-Type": "application/json", "Accept": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as answer:
            data = json.loads(answer.read())
    except urllib.error.HTTPError as error:
        try:
            reason = json.loads(error.read()).get("error", error.reason)
        except ValueError:
            reason = error.reason
        raise BoardlabError(f"the server refused the playtest: {reason}") from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise BoardlabError(f"cannot reach the server at {server}: {reason}") from None
    if args.json:
        print(json.dumps(data))
        return 0
    print(f"Playtest made: {data['id']}")
    print(f"Share this link with your playtesters: {server}{data['link']}")
    print(f"Your private dashboard (keep it; it is shown only now): {server}{data['dashboard']}")
    return 0
