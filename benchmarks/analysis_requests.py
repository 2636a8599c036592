"""Benchmark of the analysis board's requests against a real ``boardlab serve`` on 127.0.0.1.

For each game: a line of random legal decisions from its start (``--decisions`` long, or to
the game's end), then the wall time of ``POST /api/analysis/position`` at the end of that line
(the whole line replayed and the picture drawn), of ``POST /api/analysis/evaluate`` with each
bot level (the bot's search, budget 3 s, plus the replay), and of ``POST /api/analysis/play``
(a new match storing the line's turns). One JSON line per game; the machine's load changes the
figures, so note it with them.

    python benchmarks/analysis_requests.py --decisions 300
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import boardlab
from boardlab.core.registry import game_ids

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.web.conftest import Server, start_server

OPTIONS: dict[str, dict[str, Any]] = {"cyvasse": {"seed": 1}}


def random_line(game_id: str, decisions: int, seed: int) -> tuple[dict[str, Any], list[str]]:
    """The source of a game's start and a line of random decisions: about ``decisions`` long,
    ending at the start of a turn of a game that is not over (so it can be analysed and played
    on)."""
    game = boardlab.make(game_id, **OPTIONS.get(game_id, {}))
    state = game.new_initial_state()
    rng = random.Random(seed)
    line: list[str] = []
    kept = 0  # the longest prefix of the line that ends at a turn start, the game going on
    while not state.is_terminal() and kept < decisions:
        action = rng.choice(state.legal_actions())
        line.append(state.action_to_str(action))
        state.apply_action(action)
        if state.turn_start and not state.is_terminal():
            kept = len(line)
    source = {"game": game_id, "options": dict(game.option_items()), "start": None}
    return source, line[:kept]


def timed(server: Server, path: str, body: dict[str, Any], repeat: int) -> float:
    """The median wall time in ms of ``repeat`` requests (each must succeed)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        status, answer = server.post(path, body)
        times.append(1000 * (time.perf_counter() - start))
        assert status in (200, 201), answer
    return round(statistics.median(times), 1)


def main() -> None:
    """Measure every game and print one JSON line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=300, help="length of the line")
    parser.add_argument("--repeat", type=int, default=3, help="requests per figure")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(
            Path(folder) / "bench.sqlite3",
            options=(
                "--move-burst",
                "1000000",
                "--creation-burst",
                "1000000",
                "--analysis-burst",
                "1000000",
            ),
        )
        try:
            for game_id in game_ids():
                source, line = random_line(game_id, args.decisions, 1)
                body = {"source": source, "line": line}
                figures: dict[str, Any] = {"game": game_id, "decisions": len(line)}
                figures["position_ms"] = timed(server, "/api/analysis/position", body, args.repeat)
                for bot in ("level:easy", "level:medium", "level:hard", "level:expert"):
                    figures[f"evaluate_{bot}_ms"] = timed(
                        server, "/api/analysis/evaluate", {**body, "bot": bot}, args.repeat
                    )
                play = {**body, "seat": 0, "bot": "random"}
                figures["play_on_ms"] = timed(server, "/api/analysis/play", play, args.repeat)
                print(json.dumps(figures), flush=True)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
