"""Benchmark: how late after a clock runs out the server commits the flag, by its own timer.

``python -m tests.web.clock_latency [--matches 40] [--base 2]`` starts ``boardlab serve`` on
127.0.0.1 with a temporary store, creates ``--matches`` Murus Gallicus matches of two humans
on a ``--base``-second clock, plays both free first turns in each, then sends nothing to them:
every flag comes from the server's timer. A flag event is dated when the time ran out; the
lobby line's ``updated`` is when the flag was committed, so their difference is the timer's
lateness. Prints p50/p99/max in ms. Loopback only, bounded by the clocks (plus 30 s).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from datetime import datetime
from pathlib import Path

from tests.web.conftest import start_server

TURNS = ("d1-d3", "a7-a5")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--base", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(Path(folder) / "boardlab.sqlite3")
        try:
            body = {
                "game": "murus-gallicus",
                "seats": [{"kind": "human"}, {"kind": "invite"}],
                "clock": {"base": args.base, "increment": 0},
            }
            deadlines: dict[str, float] = {}
            for _ in range(args.matches):
                status, answer = server.post("/api/matches", body)
                assert status == 201, answer
                match = answer["id"]
                tokens = [seat["token"] for seat in answer["seats"]]
                for ply, text in enumerate(TURNS):
                    turn = {"seat": ply, "ply": ply, "turn": text}
                    status, view = server.post(f"/api/matches/{match}/turn", turn, tokens[ply])
                    assert status == 200, view
                clock = view["clock"]
                deadlines[match] = clock["since"] + clock["remaining"][0]
            limit = time.monotonic() + args.base * args.matches + 30
            late: list[float] = []
            while len(late) < len(deadlines) and time.monotonic() < limit:
                time.sleep(0.5)
                late = []
                for line in server.get(f"/api/matches?limit={args.matches}")[1]["matches"]:
                    if line["status"] == "finished" and line["id"] in deadlines:
                        committed = datetime.fromisoformat(line["updated"]).timestamp()
                        late.append(committed - deadlines[line["id"]])
        finally:
            server.stop()
    if len(late) < len(deadlines):
        raise SystemExit(f"only {len(late)} of {len(deadlines)} matches were flagged")
    late_ms = sorted(1000 * seconds for seconds in late)
    p99 = late_ms[min(len(late_ms) - 1, round(0.99 * (len(late_ms) - 1)))]
    print(
        f"{len(late_ms)} flags by the server's timer: lateness p50 "
        f"{statistics.median(late_ms):.1f} ms, p99 {p99:.1f} ms, max {late_ms[-1]:.1f} ms"
    )


if __name__ == "__main__":
    main()
