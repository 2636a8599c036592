"""Load benchmark of ``boardlab serve`` on loopback: decisions/s and update latency.

``python -m boardlab.web.load [--games 100] [--seconds 20]`` starts a server on 127.0.0.1 with
a temporary store, then plays Murus Gallicus hot-seat matches through the JSON API, one
websocket client per seat. Each client plays a random legal move whenever its websocket view
says it is to move (so matches reach different positions, as real ones do); the latency of a
decision is the time from sending its POST to the other seat's websocket receiving the view
that contains it. A finished match is replaced by a new one. Three phases: one match played
as fast as the server answers (decisions/s on one game);
``--games`` matches played as fast as it answers (decisions/s across them: the server is
saturated, so latency there is mostly queueing); ``--games`` matches whose players think
``--think`` seconds (0.5x to 1.5x, at random) before each decision (the update latency of a
busy but not saturated server). Needs the ``web`` extra. Talks to 127.0.0.1 only, and stops
after ``--seconds`` per phase. Each line also gives the server's CPU time per decision (all its
work, match creation and websocket handshakes included), which does not depend on how busy the
machine is, and the load script's own (it shares the machine with the server, so it is kept
light: one process, one asyncio loop, a plain HTTP/1.1 client, views decoded without their
pictures).

``--db postgresql://…`` plays against a PostgreSQL store instead (an empty database or schema of
its own: the matches played are left in it), and ``--processes N`` starts N servers on it: the
two seats of a match are served by two different processes (seat 0 by one, seat 1 by the next),
so that every decision's latency is that of a turn committed by one process reaching a websocket
held by another (LISTEN/NOTIFY and the catch-up read). The server CPU is then that of all the
server processes, and each line also gives the CPU of the machine's PostgreSQL processes per
decision, and the servers' resident memory at the end of the phase.

``--spectators K`` adds K spectator websockets to every match (through the servers in turn): a
decision is then timed to the last of its followers' frames (the other seat's and the
spectators'). A first line, before the phases, gives the servers' memory per live match and
per websocket: ``--games`` matches are created, then their seats' and spectators' websockets
opened, the servers' resident memory read before and after each step.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

HOST = "127.0.0.1"
MATCH = {"game": "murus-gallicus", "seats": [{"kind": "human"}, {"kind": "invite"}]}
SVG_START = '"svg":"<svg '
SVG_END = '</svg>\\n"'
"""Where the picture of a view starts and ends in the JSON text (the renderer ends every
SVG with a newline)."""


@dataclass
class Tally:
    """What a phase measured."""

    decisions: int = 0
    latencies: list[float] = field(default_factory=list)
    """For each decision seen by all its followers: the seconds from its POST to the last of
    their frames."""
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, kind: str) -> None:
        """Count one failed decision by its kind (an HTTP status or an exception name)."""
        self.errors[kind] = self.errors.get(kind, 0) + 1


class Connection:
    """One keep-alive HTTP/1.1 connection to the server, for JSON requests.

    A general client (httpx) spent some 1.5 ms of CPU per request here, more than the server
    spent answering it, on two cores the load script shares with the server. The server answers
    every request of the API with a ``Content-Length``, which is all this reads. A connection
    the server has closed while it was idle (uvicorn's keep-alive timeout is 5 s, and a seat
    may think longer between two turns) is opened again; a request the server closed it on is
    sent once more on a new one (a turn names its ply, so a second copy of a turn that was
    played is refused, never played twice).
    """

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: dict[str, Any], token: str = "") -> tuple[int, bytes]:
        """POST ``body`` as JSON; the status and the body of the answer."""
        reused = self.reader is not None and not self.reader.at_eof()
        try:
            return await self._post(path, body, token)
        except (ConnectionError, asyncio.IncompleteReadError):
            if not reused:
                raise
            self.close()
            return await self._post(path, body, token)

    async def _post(self, path: str, body: dict[str, Any], token: str) -> tuple[int, bytes]:
        """One request and its answer, on the open connection or a new one."""
        if self.reader is None or self.writer is None or self.reader.at_eof():
            self.close()
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        data = json.dumps(body).encode()
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        self.writer.write(
            f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
            f"{auth}Content-Length: {len(data)}\r\n\r\n".encode()
            + data
        )
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        length = 0
        for line in lines[1:]:
            name, _, value = line.partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        return int(lines[0].split()[1]), await self.reader.readexactly(length)

    def close(self) -> None:
        """Close the connection, if it is open."""
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


@dataclass
class Decision:
    """A decision posted and not yet seen by all its followers."""

    sent: float
    """When its POST was sent (``time.perf_counter``)."""
    mover: int
    """The seat that made it (its own websocket's frame is not a follower's)."""
    waiting: int
    """How many followers (the other seat, the spectators) have not had its frame yet."""


@dataclass
class Follower:
    """One websocket of a match: a seat's or a spectator's (``seat`` -1)."""

    seat: int
    seen: int = 0
    """The last ply whose view this websocket received."""

    def saw(self, ply: int, pending: dict[int, Decision], tally: Tally) -> None:
        """The view at ``ply`` arrived: it holds every decision up to ``ply``; a decision
        whose last follower this was is timed."""
        now = time.perf_counter()
        for done in range(self.seen + 1, ply + 1):
            decision = pending.get(done)
            if decision is None or decision.mover == self.seat:
                continue
            decision.waiting -= 1
            if decision.waiting == 0:
                tally.latencies.append(now - pending.pop(done).sent)
        self.seen = max(self.seen, ply)


def light_view(message: str) -> dict[str, Any]:
    """A websocket message decoded without the picture of its view, which the load script
    never reads: decoding the SVG (some 50 kB of escaped text) was most of the decoding."""
    start = message.find(SVG_START)
    end = message.find(SVG_END, start)
    if start >= 0 and end >= 0:
        message = f'{message[:start]}"svg":""{message[end + len(SVG_END) :]}'
    decoded: dict[str, Any] = json.loads(message)
    return decoded


async def next_view(socket_: ClientConnection, stop: float) -> dict[str, Any] | None:
    """The next view this websocket receives, or None once ``stop`` has passed."""
    while True:
        try:
            message = light_view(
                str(await asyncio.wait_for(socket_.recv(), stop - time.perf_counter()))
            )
        except TimeoutError:
            return None
        if message.get("type") == "view":
            view: dict[str, Any] = message["view"]
            return view


async def follow(
    socket_: ClientConnection,
    pending: dict[int, Decision],
    tally: Tally,
    stop: float,
) -> None:
    """A spectator's client: receive the views until the match ends, timing the decisions."""
    follower = Follower(-1)
    while (view := await next_view(socket_, stop)) is not None:
        follower.saw(view["ply"], pending, tally)
        if view["status"] != "active":
            return


async def play_seat(
    http: Connection,
    socket_: ClientConnection,
    match: str,
    seat: int,
    token: str,
    pending: dict[int, Decision],
    tally: Tally,
    stop: float,
    think: float,
    followers: int,
) -> None:
    """One seat's client: play whenever the view says so; time the other seat's decisions
    (a decision is timed when the last of its ``followers`` has its frame)."""
    follower = Follower(seat)
    while (view := await next_view(socket_, stop)) is not None:
        ply = view["ply"]
        follower.saw(ply, pending, tally)
        if view["status"] != "active":
            return
        if view["to_move"] == seat and view["legal"]:
            if think:
                await asyncio.sleep(think * random.uniform(0.5, 1.5))
            pending[ply + 1] = Decision(time.perf_counter(), seat, followers)
            body = {"seat": seat, "ply": ply, "turn": random.choice(view["legal"])["text"]}
            try:
                status, answer = await http.post(f"/api/matches/{match}/turn", body, token)
            except (OSError, asyncio.IncompleteReadError) as error:
                tally.error(type(error).__name__)
                return
            if status == 200:
                tally.decisions += 1
            else:
                tally.error(f"{status}: {json.loads(answer).get('error')}")


async def play_matches(
    ports: list[int], stop: float, tally: Tally, think: float, spectators: int
) -> None:
    """Create matches one after another and play each to its end, until ``stop``; seat ``i``
    plays through ``ports[i]`` (its HTTP connection and its websocket), and ``spectators``
    websockets follow it, through the ports in turn.

    Each seat has its own connection: a seat may post its turn before the answer to the other
    seat's has been read.
    """
    while time.perf_counter() < stop:
        http = [Connection(port) for port in ports]
        sockets: list[ClientConnection] = []
        try:
            answer = json.loads((await http[0].post("/api/matches", MATCH))[1])
            match, tokens = answer["id"], [seat["token"] for seat in answer["seats"]]
            pending: dict[int, Decision] = {}
            for port, token in zip(ports, tokens, strict=True):
                sockets.append(await connect(f"ws://{HOST}:{port}/ws/matches/{match}"))
                await sockets[-1].send(json.dumps({"tokens": [token]}))
            for n in range(spectators):
                port = ports[n % len(ports)]
                sockets.append(await connect(f"ws://{HOST}:{port}/ws/matches/{match}"))
                await sockets[-1].send(json.dumps({"tokens": []}))
            followers = len(sockets) - 1
            await asyncio.gather(
                *(
                    play_seat(
                        http[seat], sock, match, seat, token, pending, tally, stop, think, followers
                    )
                    for seat, (sock, token) in enumerate(zip(sockets, tokens, strict=False))
                ),
                *(follow(sock, pending, tally, stop) for sock in sockets[len(tokens) :]),
            )
        except (OSError, TimeoutError, asyncio.IncompleteReadError) as error:
            # A server too busy to open a websocket in time (10 s) or to answer: counted, and
            # the next match is started.
            tally.error(f"match start: {type(error).__name__}")
        finally:
            for sock in sockets:
                await sock.close()
            for connection in http:
                connection.close()


async def phase(
    ports: list[int], games: int, seconds: float, think: float, spectators: int
) -> tuple[Tally, float]:
    """Play ``games`` matches at once for ``seconds``, match ``n``'s seats on the servers
    ``n`` and ``n + 1`` of ``ports`` (in turn); returns the tally and elapsed time."""
    tally = Tally()
    start = time.perf_counter()
    stop = start + seconds
    count = len(ports)
    pairs = [[ports[n % count], ports[(n + 1) % count]] for n in range(games)]
    await asyncio.gather(*(play_matches(pair, stop, tally, think, spectators) for pair in pairs))
    return tally, time.perf_counter() - start


async def open_matches(
    ports: list[int], games: int, spectators: int, pids: list[int]
) -> dict[str, Any]:
    """The servers' memory per live match and per websocket, from their resident memory
    between three steps: ``games`` matches are created; each gets its seats' and
    ``spectators`` websockets, each waiting for its first view (so each match is drawn); each
    gets one more spectator's websocket (the cost of a websocket alone, its match drawn
    already). A live match is then what the first two steps cost but its websockets."""
    http = [Connection(port) for port in ports]
    sockets: list[ClientConnection] = []

    async def follow_each(tokens_of: list[list[list[str]]]) -> int:
        """Open a websocket per token list of each match, through the servers in turn; how
        many of them had a view within a minute."""
        opened = len(sockets)
        for n, (match, _) in enumerate(matches):
            for k, tokens in enumerate(tokens_of[n]):
                port = ports[(n + k) % len(ports)]
                sockets.append(await connect(f"ws://{HOST}:{port}/ws/matches/{match}"))
                await sockets[-1].send(json.dumps({"tokens": tokens}))
        stop = time.perf_counter() + 60
        views = await asyncio.gather(*(next_view(sock, stop) for sock in sockets[opened:]))
        return sum(view is not None for view in views)

    try:
        before = resident_mb(pids)
        matches = []
        for n in range(games):
            answer = json.loads((await http[n % len(http)].post("/api/matches", MATCH))[1])
            matches.append((answer["id"], [seat["token"] for seat in answer["seats"]]))
        followed = await follow_each(
            [[[token] for token in tokens] + [[]] * spectators for _, tokens in matches]
        )
        connected = resident_mb(pids)
        followed += await follow_each([[[]] for _ in matches])
        per_websocket = (resident_mb(pids) - connected) / games
        first = len(sockets) - games
        return {
            "phase": f"{games} idle matches, {len(sockets)} websockets",
            "websockets_with_a_view": followed,
            "server_kb_per_match": round(
                1000 * (connected - before - first * per_websocket) / games
            ),
            "server_kb_per_websocket": round(1000 * per_websocket),
        }
    finally:
        for sock in sockets:
            await sock.close()
        for connection in http:
            connection.close()


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def database_pids() -> list[int]:
    """The machine's PostgreSQL server processes (whose CPU a PostgreSQL run reports)."""
    pids = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and (entry / "comm").read_text().strip() == "postgres":
                pids.append(int(entry.name))
        except OSError:
            continue  # it ended meanwhile
    return pids


def total_cpu(pids: list[int]) -> float:
    """The CPU seconds of the processes ``pids`` that still run."""
    total = 0.0
    for pid in pids:
        try:
            total += cpu_seconds(pid)
        except OSError:
            continue
    return total


def resident_mb(pids: list[int]) -> float:
    """The resident memory of the processes ``pids``, in MB."""
    pages = sum(int(Path(f"/proc/{pid}/statm").read_text().split()[1]) for pid in pids)
    return round(pages * os.sysconf("SC_PAGE_SIZE") / 1e6, 1)


def report(
    name: str,
    tally: Tally,
    elapsed: float,
    cpu: float,
    client_cpu: float,
    database_cpu: float | None = None,
) -> dict[str, Any]:
    """The figures of one phase; ``cpu``, ``client_cpu`` and ``database_cpu`` are the CPU
    seconds the servers, this load script and PostgreSQL used in it."""
    latencies = sorted(tally.latencies)

    def quantile(q: float) -> float:
        return 1000 * latencies[min(len(latencies) - 1, int(q * len(latencies)))]

    per_decision = 1000 / tally.decisions if tally.decisions else None
    return {
        "phase": name,
        "decisions": tally.decisions,
        "decisions_per_s": round(tally.decisions / elapsed, 1),
        "latency_ms_p50": round(quantile(0.50), 1) if latencies else None,
        "latency_ms_p99": round(quantile(0.99), 1) if latencies else None,
        "latency_ms_mean": round(1000 * statistics.fmean(latencies), 1) if latencies else None,
        "server_cpu_ms_per_decision": round(cpu * per_decision, 1) if per_decision else None,
        "client_cpu_ms_per_decision": round(client_cpu * per_decision, 1) if per_decision else None,
        **(
            {"database_cpu_ms_per_decision": round(database_cpu * per_decision, 1)}
            if database_cpu is not None and per_decision
            else {}
        ),
        "errors": tally.errors,
    }


def start_server(db: Path | str) -> tuple[subprocess.Popen[bytes], int]:
    """``boardlab serve`` on a free loopback port, once it answers; the process and port."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "boardlab", "serve", "--host", HOST, "--port", str(port)]
    # One address plays every match here: its rate allowances and caps must not be what is
    # measured.
    unlimited = [
        *("--creation-burst", "1000000", "--move-burst", "1000000", "--get-burst", "1000000"),
        *("--connections-per-address", "1000", "--websockets-per-address", "5000"),
        "--no-prepare-bots",  # no bot plays here: preparing them would only load the machine
    ]
    process = subprocess.Popen([*command, "--db", str(db), *unlimited], stdout=subprocess.DEVNULL)
    for _ in range(1200):  # two minutes: a loaded machine starts a server slowly
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/api/matches?limit=1", timeout=1):
                return process, port
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("boardlab serve did not start")


def main() -> None:
    """Run the three phases and print one JSON line per phase."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="concurrent matches (phase 2)")
    parser.add_argument("--seconds", type=float, default=20.0, help="duration of each phase")
    parser.add_argument(
        "--think", type=float, default=2.0, help="mean seconds a player thinks (phase 3)"
    )
    parser.add_argument(
        "--spectators",
        type=int,
        default=0,
        help="websockets following each match besides its two seats' (a decision is timed "
        "to the last of its followers' frames)",
    )
    parser.add_argument(
        "--db",
        metavar="URL",
        help="a postgresql:// URL of an empty database to play on (default: a temporary SQLite "
        "file)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes on the --db PostgreSQL database (each match's seats are played "
        "through two of them)",
    )
    args = parser.parse_args()
    if not 1 <= args.games <= 500 or not 0 < args.seconds <= 300 or not 0 < args.think <= 60:
        parser.error("--games must be 1..500, --seconds 0..300 and --think 0..60")
    if not 0 <= args.spectators <= 8:
        parser.error("--spectators must be 0..8")
    if not 1 <= args.processes <= 8 or (args.processes > 1 and args.db is None):
        parser.error("--processes must be 1..8, and more than 1 needs a PostgreSQL --db")
    with tempfile.TemporaryDirectory() as folder:
        servers = [
            start_server(args.db or Path(folder) / "load.sqlite3") for _ in range(args.processes)
        ]
        pids, ports = [process.pid for process, _ in servers], [port for _, port in servers]
        try:
            line = asyncio.run(open_matches(ports, args.games, args.spectators, pids))
            print(json.dumps(line | {"processes": args.processes}), flush=True)
            phases = [
                ("one match, no thinking", 1, 0.0),
                (f"{args.games} matches, no thinking", args.games, 0.0),
                (f"{args.games} matches, {args.think} s thinking", args.games, args.think),
            ]
            for name, games, think in phases:
                database = database_pids() if args.db else []
                before, client_before = total_cpu(pids), time.process_time()
                database_before = total_cpu(database)
                tally, elapsed = asyncio.run(
                    phase(ports, games, args.seconds, think, args.spectators)
                )
                cpu = total_cpu(pids) - before
                client_cpu = time.process_time() - client_before
                database_cpu = total_cpu(database) - database_before if args.db else None
                line = report(name, tally, elapsed, cpu, client_cpu, database_cpu)
                line["processes"] = args.processes
                line["websockets"] = games * (2 + args.spectators)
                line["server_rss_mb"] = resident_mb(pids)
                print(json.dumps(line), flush=True)
        finally:
            for process, _ in servers:
                process.terminate()
            for process, _ in servers:
                process.wait(30)


if __name__ == "__main__":
    main()
