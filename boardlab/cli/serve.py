"""``boardlab serve``: bind the port, print the address to open, run the web app until stopped."""

from __future__ import annotations

import argparse
import errno
import fcntl
import importlib.util
import ipaddress
import os
import resource
import signal
import socket
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from boardlab.core.errors import BoardlabError
from boardlab.web.limits import Limits
from boardlab.web.migrations import SchemaTooNew
from boardlab.web.notifications_settings import add_mail_arguments, mail_settings
from boardlab.web.origin import host_port
from boardlab.web.sqlite_store import SqliteStore
from boardlab.web.store import StoreUnavailable
from boardlab.web.stores import is_postgres_url, open_store

if TYPE_CHECKING:
    from boardlab.web.postgres_store import PostgresStore

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
WEBSOCKET_MAX_BYTES = 4096
LISTEN_BACKLOG = 2048
"""uvicorn's own default: room for many browsers connecting at once."""
DESCRIPTOR_RESERVE = 100
"""Descriptors kept from connections for the server's own files: the store and its journal,
the bot workers' pipes, the event loop's (about 40 in all, measured)."""
DESCRIPTORS_WANTED = 1 << 16
"""Where the soft descriptor limit is raised to at start, within the hard one."""
ADDRESSES_AT_THEIR_CAPS = 8
"""Addresses whose full connection and websocket caps the descriptors should hold, or the
operator is told."""
MIN_CONNECTIONS = 64
"""Connections below which the server refuses to start: a few browsers would fill them."""


def default_db() -> Path:
    """Where matches are kept unless ``--db`` says otherwise (the XDG data folder)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "boardlab" / "web.sqlite3"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``boardlab serve``."""
    parser.add_argument(
        "--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST})"
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0: any)"
    )
    parser.add_argument(
        "--db",
        metavar="PATH|URL",
        help=f"SQLite file of the matches (default {default_db()}; one server per file), or a "
        "PostgreSQL database as postgresql://USER:PASSWORD@HOST:PORT/NAME (the 'postgres' "
        "extra); the schema is created or migrated at start",
    )
    limits = parser.add_argument_group(
        "limits per client", "what one client address may ask (see docs/web.md, Security)"
    )
    for flag, field, kind, text in LIMIT_OPTIONS:
        limits.add_argument(
            flag,
            dest=field,
            metavar="SECONDS" if flag.endswith("timeout") else "N",
            type=_positive(kind),
            default=getattr(Limits(), field),
            help=text,
        )
    limits.add_argument(
        "--trusted-proxy",
        metavar="ADDRESS",
        help="a reverse proxy's address: take the client address of its requests from their "
        "X-Forwarded-For header (default: trust no proxy; every address is its own client)",
    )
    parser.add_argument(
        "--live-matches",
        type=int,
        metavar="N",
        help="matches kept in memory; idle ones are dropped and reloaded when asked for "
        "(default in docs/web.md)",
    )
    parser.add_argument(
        "--allowed-host",
        action="append",
        metavar="NAME",
        help="a host name this server answers to (repeat for several; default: the address "
        "it listens on, with localhost for a loopback address; any name when it listens on "
        "every address). Other Host headers, such as a DNS name rebound to this address, are "
        "refused",
    )
    parser.add_argument(
        "--access-log",
        metavar="PATH",
        help="write one line per request and websocket to PATH ('-': standard error), in the "
        "Common Log Format with the seconds taken; rotated at 50 MB, 3 old files kept "
        "(default: no access log; refused requests are logged either way)",
    )
    parser.add_argument(
        "--no-prepare-bots",
        dest="prepare_bots",
        action="store_false",
        help="do not load every game's compiled bots at start (by default each bot worker "
        "does, so that no player waits on it; the first start after an install compiles them)",
    )
    add_mail_arguments(parser)


LIMIT_OPTIONS = [
    ("--creations-per-minute", "creations_per_minute", float, "match creations per minute"),
    ("--creation-burst", "creation_burst", int, "match creations at once, before the rate"),
    (
        "--moves-per-minute",
        "moves_per_minute",
        float,
        "moves (turns, previews, resignations, takebacks) per minute",
    ),
    ("--move-burst", "move_burst", int, "moves at once, before the rate"),
    (
        "--analyses-per-minute",
        "analyses_per_minute",
        float,
        "the analysis board's bot searches per minute",
    ),
    ("--analysis-burst", "analysis_burst", int, "analysis bot searches at once, before the rate"),
    (
        "--account-attempts-per-minute",
        "account_attempts_per_minute",
        float,
        "sign-ups, sign-ins, password changes and account deletions per minute, per address "
        "and per account name",
    ),
    (
        "--account-attempt-burst",
        "account_attempt_burst",
        int,
        "account attempts at once, before the rate",
    ),
    (
        "--chat-lines-per-minute",
        "chat_lines_per_minute",
        float,
        "chat lines per minute, per address and per seat of a match",
    ),
    ("--chat-burst", "chat_burst", int, "chat lines at once, before the rate"),
    (
        "--gets-per-minute",
        "gets_per_minute",
        float,
        "GET requests and websocket handshakes per minute (a past position's picture counts "
        "4, static files nothing)",
    ),
    ("--get-burst", "get_burst", int, "GET requests at once, before the rate"),
    (
        "--connections-per-address",
        "connections_per_address",
        int,
        "HTTP connections open at once (further ones are answered 429 and closed)",
    ),
    (
        "--websockets-per-address",
        "websockets_per_address",
        int,
        "websockets open at once (further handshakes are refused: 403)",
    ),
    ("--header-timeout", "header_seconds", float, "seconds for a request's headers to arrive"),
    ("--body-timeout", "body_seconds", float, "seconds for a request's body to arrive"),
    (
        "--first-message-timeout",
        "first_message_seconds",
        float,
        "seconds for a websocket's first message to arrive",
    ),
]
"""``boardlab serve``'s options for :class:`~boardlab.web.limits.Limits`: flag, field, type."""


def _positive(kind: type[int] | type[float]) -> Callable[[str], int | float]:
    """An argparse type: a positive number of ``kind`` (argparse names the option)."""

    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            value = 0
        if not 0 < value < 10**9:
            raise argparse.ArgumentTypeError("it must be a positive number below 10**9")
        return value

    return parse


def lock_store(db: Path) -> int:
    """Hold an exclusive lock on ``<db>.lock`` for as long as this process lives (the kernel
    releases it however the process ends); a second server on the same file is refused."""
    path = db.with_name(db.name + ".lock")
    try:
        # Not inherited by child processes (PEP 446), so no leftover worker keeps it.
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise BoardlabError(
            f"cannot create the lock file {str(path)!r}: {error.strerror}"
        ) from error
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        os.close(fd)
        raise BoardlabError(
            f"another boardlab serve is using {str(db)!r}; stop it or choose another --db"
        ) from error
    return fd


def store_name(db: Path | str) -> str:
    """How the operator is told which store this is: the file, or the PostgreSQL database
    without its password (raises ModuleNotFoundError without the ``postgres`` extra)."""
    if is_postgres_url(db):
        from boardlab.web.postgres_store import describe

        return describe(str(db))
    return str(db)


def open_checked(db: Path | str) -> SqliteStore | PostgresStore:
    """The store ``db`` names, opened and migrated; a one-line BoardlabError when it cannot be
    (a PostgreSQL server that cannot be reached, a bad URL, a file that is not a database, a
    schema from a newer Boardlab, the ``postgres`` extra missing)."""
    try:
        name = store_name(db)
    except ModuleNotFoundError as error:
        raise BoardlabError(
            f"a PostgreSQL store needs the 'postgres' extra ({error.name} is missing): "
            "pip install -e '.[postgres]'"
        ) from error
    try:
        return open_store(db)
    except (StoreUnavailable, ValueError) as error:
        if is_postgres_url(db):
            raise BoardlabError(str(error)) from error  # it names the database already
        raise BoardlabError(f"cannot use {name!r} as the store: {error}") from error
    except (sqlite3.Error, SchemaTooNew) as error:
        raise BoardlabError(f"cannot use {name!r} as the store: {error}") from error


def bind(host: str, port: int) -> socket.socket:
    """A listening socket, or a one-line BoardlabError when the address cannot be used."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
    except OSError as error:
        raise BoardlabError(f"cannot open a socket: {error.strerror}") from error
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(LISTEN_BACKLOG)
    except (OSError, OverflowError) as error:
        sock.close()
        if isinstance(error, OSError) and error.errno == errno.EADDRINUSE:
            raise BoardlabError(
                f"port {port} on {host} is already in use; choose another with --port"
            ) from error
        reason = error.strerror if isinstance(error, OSError) else str(error)
        raise BoardlabError(f"cannot listen on {host} port {port}: {reason}") from error
    return sock


def connection_total(limits: Limits) -> int:
    """The connections the server may hold open at once: its descriptor limit (the soft one
    raised toward the hard one first) less ``DESCRIPTOR_RESERVE``. A BoardlabError below
    ``MIN_CONNECTIONS``; a line on stderr if fewer than ``ADDRESSES_AT_THEIR_CAPS`` addresses
    at their caps fit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = DESCRIPTORS_WANTED if hard == resource.RLIM_INFINITY else min(hard, DESCRIPTORS_WANTED)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (OSError, ValueError):
            pass  # the soft limit as it was; the checks below say what it holds
    total = (DESCRIPTORS_WANTED if soft == resource.RLIM_INFINITY else soft) - DESCRIPTOR_RESERVE
    one = limits.connections_per_address + limits.websockets_per_address
    if total < MIN_CONNECTIONS:
        raise BoardlabError(
            f"the descriptor limit ({soft}) leaves {max(total, 0)} connections, fewer than "
            f"{MIN_CONNECTIONS}: raise it with ulimit -n"
        )
    if total < one * ADDRESSES_AT_THEIR_CAPS:
        print(
            f"boardlab: the descriptor limit ({soft}) leaves {total} connections: "
            f"{total // one} addresses at their caps ({one} each) fill them, and further "
            "connections are refused (503); raise it with ulimit -n, or lower "
            "--connections-per-address and --websockets-per-address",
            file=sys.stderr,
        )
    return total


def allowed_hosts(host: str, named: list[str] | None) -> list[str] | None:
    """The host names the server answers to: those named, else the address it listens on
    (with the loopback names for a loopback address); None (any) on every address."""
    if named:
        for name in named:
            if host_port(name) is None:
                raise BoardlabError(f"--allowed-host {name!r} is not a host name")
        return named
    if host in ("0.0.0.0", "::", ""):
        return None
    if ipaddress.ip_address(host).is_loopback:
        return [host, "localhost", "127.0.0.1", "::1"]
    return [host]


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the web app until Ctrl-C or SIGTERM."""
    try:
        import uvicorn

        from boardlab.web.access_log import open_access_log
        from boardlab.web.app import create_app
        from boardlab.web.protocol import ConnectionCaps, header_deadline_protocol
    except ModuleNotFoundError as error:
        raise BoardlabError(
            f"the web app needs the 'web' extra ({error.name} is missing): pip install -e '.[web]'"
        ) from error
    # The playtest dashboard's statistics and plots are imported when first asked for (they
    # take seconds to load): their absence is found here, not by a designer's first request.
    for name in ("scipy", "matplotlib"):
        if importlib.util.find_spec(name) is None:
            raise BoardlabError(
                f"the web app needs the 'web' extra ({name} is missing): pip install -e '.[web]'"
            )
    db: Path | str = args.db or default_db()
    lock = None
    if not is_postgres_url(db):
        # Several processes on one PostgreSQL database are the way to grow (docs/web.md); on
        # SQLite, one server per file.
        db = Path(db)
        try:
            db.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise BoardlabError(f"cannot create the folder of --db {str(db)!r}: {error}") from error
        lock = lock_store(db)
    open_checked(db).close()
    if args.access_log is not None:
        try:
            open_access_log(args.access_log)
        except OSError as error:
            raise BoardlabError(
                f"cannot write the access log {args.access_log!r}: {error}"
            ) from error
    live: dict[str, int] = {}
    if args.live_matches is not None:
        if args.live_matches < 1:
            raise BoardlabError("--live-matches must be at least 1")
        live["live_matches"] = args.live_matches
    sock = bind(args.host, args.port)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    mail = mail_settings(args, f"http://{shown}:{port}")

    def ready() -> None:
        print(f"Boardlab is running: open http://{shown}:{port}/", flush=True)
        print(f"Matches are stored in {store_name(db)}; stop with Ctrl-C.", flush=True)

    if args.trusted_proxy is not None and "*" in args.trusted_proxy.split(","):
        print(
            "boardlab: --trusted-proxy '*' believes X-Forwarded-For from every address: each "
            "client can then choose its own address, and with it fresh rate allowances",
            file=sys.stderr,
        )
    hosts = allowed_hosts(host, args.allowed_host)
    if hosts is None:
        print(
            "boardlab: any host name is answered (listening on every address): name this "
            "server with --allowed-host to refuse DNS rebinding",
            file=sys.stderr,
        )
    limits = Limits(**{field: getattr(args, field) for _, field, _, _ in LIMIT_OPTIONS})
    proxies = (args.trusted_proxy or "").split(",")
    caps = ConnectionCaps(
        limits.connections_per_address,
        connection_total(limits),
        exempt=frozenset(address.strip() for address in proxies) - {"", "*"},
    )
    config = uvicorn.Config(
        create_app(
            db,
            ready=ready,
            limits=limits,
            prepare_bots=args.prepare_bots,
            allowed_hosts=hosts,
            mail=mail,
            say=lambda line: print(line, file=sys.stderr, flush=True),
            **live,
        ),
        http=header_deadline_protocol(limits.header_seconds, caps),
        # uvicorn trusts X-Forwarded-For from loopback by default: anyone on the machine
        # could then pick their address, and with it a fresh rate allowance.
        proxy_headers=args.trusted_proxy is not None,
        forwarded_allow_ips=args.trusted_proxy,
        log_level="warning",
        access_log=False,
        ws_max_size=WEBSOCKET_MAX_BYTES,
        # Compressing every view costs the server more CPU than it saves on a local network.
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=3,
    )
    server = uvicorn.Server(config)

    def stop(sig: int, frame: FrameType | None) -> None:
        server.should_exit = True

    # uvicorn shuts down gracefully on these signals, then raises them again once its own
    # handlers are gone: this handler makes that a clean exit, and a signal that comes before
    # uvicorn's handlers are in place stops the server as soon as it has started.
    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        server.run(sockets=[sock])
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if lock is not None:
            os.close(lock)
    print("Boardlab stopped.", flush=True)
    return 0
