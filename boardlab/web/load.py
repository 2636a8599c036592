"""Load benchmark of ``boardlab serve`` on loopback: decisions/s and update latency.

``python -m boardlab.web.load [--games 100] [--seconds 20]`` starts a server on 127.0.0.1 with
a temporary store, then plays Murus Gallicus hot-seat matches through the JSON API, one
websocket client per seat. Each client plays a random legal move whenever its websocket view
says it is to move (so matches reach different positions, as real ones do: with the first
legal move every match repeated the first one, and the server's picture cache answered for
them); the latency of a decision is the time from sending its POST to the other seat's
websocket receiving the view that contains it. A finished match is replaced by a new
one. Three phases: one match played as fast as the server answers (decisions/s on one game);
``--games`` matches played as fast as it answers (decisions/s across them: the server is
saturated, so latency there is mostly queueing); ``--games`` matches whose players think
``--think`` seconds (0.5x to 1.5x, at random) before each decision (the update latency of a
busy but not saturated server). Needs the ``dev`` extra (httpx). Talks to 127.0.0.1 only,
and stops after ``--seconds`` per phase. Each line also gives the server's CPU time per
decision (all its work, match creation and websocket handshakes included), which does not
depend on how busy the machine is.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

HOST = "127.0.0.1"
MATCH = {"game": "murus-gallicus", "seats": [{"kind": "human"}, {"kind": "invite"}]}


@dataclass
class Tally:
    """What a phase measured."""

    decisions: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, kind: str) -> None:
        """Count one failed decision by its kind (an HTTP status or an exception name)."""
        self.errors[kind] = self.errors.get(kind, 0) + 1


async def play_seat(
    http: httpx.AsyncClient,
    socket_: ClientConnection,
    match: str,
    seat: int,
    token: str,
    sent: dict[int, float],
    tally: Tally,
    stop: float,
    think: float,
) -> None:
    """One seat's client: play whenever the view says so; time the other seat's decisions."""
    while time.perf_counter() < stop:
        try:
            message = json.loads(await asyncio.wait_for(socket_.recv(), stop - time.perf_counter()))
        except TimeoutError:
            return
        if message.get("type") != "view":
            continue
        view = message["view"]
        ply = view["ply"]
        if ply in sent and view["moves"] and view["moves"][-1]["seat"] != seat:
            tally.latencies.append(time.perf_counter() - sent.pop(ply))
        if view["status"] != "active":
            return
        if view["to_move"] == seat and view["legal"]:
            if think:
                await asyncio.sleep(think * random.uniform(0.5, 1.5))
            sent[ply + 1] = time.perf_counter()
            body = {"seat": seat, "ply": ply, "turn": random.choice(view["legal"])["text"]}
            try:
                answer = await http.post(
                    f"/api/matches/{match}/turn",
                    json=body,
                    headers={"Authorization": f"Bearer {token}"},
                )
            except httpx.HTTPError as error:
                tally.error(type(error).__name__)
                return
            if answer.status_code == 200:
                tally.decisions += 1
            else:
                tally.error(f"{answer.status_code}: {answer.json().get('error')}")


async def play_matches(
    base: str, tls: ssl.SSLContext, stop: float, tally: Tally, think: float
) -> None:
    """Create matches one after another and play each to its end, until ``stop``.

    Each match gets its own HTTP client (two keep-alive connections): httpx's pool scans every
    connection it holds on each request, so one client shared by 100 matches spent more of the
    load script's CPU than the server spent answering, and its queueing showed up as latency.
    """
    ws_base = base.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=base, timeout=30, verify=tls) as http:
        while time.perf_counter() < stop:
            answer = (await http.post("/api/matches", json=MATCH)).json()
            match, tokens = answer["id"], [seat["token"] for seat in answer["seats"]]
            sent: dict[int, float] = {}
            sockets = [await connect(f"{ws_base}/ws/matches/{match}") for _ in tokens]
            try:
                for sock, token in zip(sockets, tokens, strict=True):
                    await sock.send(json.dumps({"tokens": [token]}))
                await asyncio.gather(
                    *(
                        play_seat(http, sock, match, seat, token, sent, tally, stop, think)
                        for seat, (sock, token) in enumerate(zip(sockets, tokens, strict=True))
                    )
                )
            finally:
                for sock in sockets:
                    await sock.close()


async def phase(base: str, games: int, seconds: float, think: float) -> tuple[Tally, float]:
    """Play ``games`` matches at once for ``seconds``; returns the tally and elapsed time."""
    tally = Tally()
    # One TLS context for all clients: each would otherwise load the CA bundle again.
    tls = ssl.create_default_context()
    start = time.perf_counter()
    stop = start + seconds
    await asyncio.gather(*(play_matches(base, tls, stop, tally, think) for _ in range(games)))
    return tally, time.perf_counter() - start


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def report(name: str, tally: Tally, elapsed: float, cpu: float) -> dict[str, Any]:
    """The figures of one phase; ``cpu`` is the CPU seconds the server used in it."""
    latencies = sorted(tally.latencies)

    def quantile(q: float) -> float:
        return 1000 * latencies[min(len(latencies) - 1, int(q * len(latencies)))]

    return {
        "phase": name,
        "decisions": tally.decisions,
        "decisions_per_s": round(tally.decisions / elapsed, 1),
        "latency_ms_p50": round(quantile(0.50), 1) if latencies else None,
        "latency_ms_p99": round(quantile(0.99), 1) if latencies else None,
        "latency_ms_mean": round(1000 * statistics.fmean(latencies), 1) if latencies else None,
        "server_cpu_ms_per_decision": round(1000 * cpu / tally.decisions, 1)
        if tally.decisions
        else None,
        "errors": tally.errors,
    }


def start_server(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``boardlab serve`` on a free loopback port, once it answers."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "boardlab", "serve", "--host", HOST, "--port", str(port)]
    process = subprocess.Popen([*command, "--db", str(db)], stdout=subprocess.DEVNULL)
    base = f"http://{HOST}:{port}"
    for _ in range(300):
        try:
            with urllib.request.urlopen(f"{base}/api/matches?limit=1", timeout=1):
                return process, base
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("boardlab serve did not start")


def main() -> None:
    """Run both phases and print one JSON line per phase."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="concurrent matches (phase 2)")
    parser.add_argument("--seconds", type=float, default=20.0, help="duration of each phase")
    parser.add_argument(
        "--think", type=float, default=2.0, help="mean seconds a player thinks (phase 3)"
    )
    args = parser.parse_args()
    if not 1 <= args.games <= 500 or not 0 < args.seconds <= 300 or not 0 < args.think <= 60:
        parser.error("--games must be 1..500, --seconds 0..300 and --think 0..60")
    with tempfile.TemporaryDirectory() as folder:
        process, base = start_server(Path(folder) / "load.sqlite3")
        try:
            phases = [
                ("one match, no thinking", 1, 0.0),
                (f"{args.games} matches, no thinking", args.games, 0.0),
                (f"{args.games} matches, {args.think} s thinking", args.games, args.think),
            ]
            for name, games, think in phases:
                before = cpu_seconds(process.pid)
                tally, elapsed = asyncio.run(phase(base, games, args.seconds, think))
                cpu = cpu_seconds(process.pid) - before
                print(json.dumps(report(name, tally, elapsed, cpu)), flush=True)
        finally:
            process.terminate()
            process.wait(30)


if __name__ == "__main__":
    main()
