"""How long the lobby's "Your games" request takes: ``POST /api/mine`` for N held matches of
T turns each, on a real ``boardlab serve``, warm (matches in memory) and cold (just restarted:
every match is loaded from the store and replayed).

    python -m tests.web.mine_bench --matches 100 --turns 40
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

import boardlab
from boardlab.ai.players import make_bot
from tests.web.browser_play import create_match
from tests.web.conftest import Server, start_server


def fill(server: Server, matches: int, turns: int) -> dict[str, list[str]]:
    """Hot-seat Murus Gallicus matches of ``turns`` random turns; their ids and seat-0 tokens."""
    held = {}
    for n in range(matches):
        created = create_match(server, "murus-gallicus", [{"kind": "human"}, {"kind": "human"}])
        tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
        state = boardlab.make("murus-gallicus").new_initial_state()
        bot = make_bot("random", state.game, n)
        assert bot is not None
        for ply in range(turns):
            if state.is_terminal():
                break
            seat = state.current_player
            action = bot.choose(state)
            body = {"seat": seat, "ply": ply, "turn": state.action_to_str(action)}
            state.apply_action(action)
            status, answer = server.post(f"/api/matches/{created['id']}/turn", body, tokens[seat])
            assert status == 200, answer
        held[created["id"]] = [tokens[0]]
    return held


def timed(server: Server, body: dict[str, Any], label: str) -> None:
    start = time.perf_counter()
    status, answer = server.post("/api/mine", body)
    elapsed = time.perf_counter() - start
    assert status == 200, answer
    print(f"{label:>5}: {len(answer['matches'])} matches in {elapsed * 1000:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--turns", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.sqlite3"
        server = start_server(db)
        try:
            body = {"matches": fill(server, args.matches, args.turns)}
            timed(server, body, "warm")
        finally:
            server.stop()
        server = start_server(db)
        try:
            timed(server, body, "cold")
            timed(server, body, "warm")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
