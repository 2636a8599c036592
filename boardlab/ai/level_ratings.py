"""Measured ratings of the bot levels, per game and seat count, for lobbies and docs.

``level_ratings.json`` beside this module is written by tournaments of ``random``, ``greedy``
and the four levels (``boardlab tournament ... --level-ratings FILE``; the commands are in
``docs/bots.md``). Ratings are on an Elo-like scale with ``random`` = 0 in every game and seat
count. Each level's entry keeps the spec it stood for when it was measured, so a level whose
spec has changed since reads as unrated instead of showing a stale number.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from boardlab.ai.levels import LEVELS, level_spec
from boardlab.core.files import write_atomic
from boardlab.core.registry import game_class, make

RATINGS_FILE = Path(__file__).with_name("level_ratings.json")
LEVEL = "level:"


@cache
def _shipped() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RATINGS_FILE.read_text(encoding="utf-8"))
    return data


def _game(game_id: str, seats: int) -> Any:
    keys = {option.key for option in game_class(game_id).OPTIONS}
    return make(game_id, **({"players": str(seats)} if "players" in keys else {}))


def level_rating(game_id: str, seats: int, spec: str) -> float | None:
    """The measured rating of ``spec`` (``level:easy``, ``random``, ...) or None if unmeasured.

    None also when a level's spec has changed since its tournament.
    """
    entry = _shipped().get(game_id, {}).get(str(seats), {}).get("ratings", {}).get(spec)
    if entry is None:
        return None
    if spec.startswith(LEVEL) and entry.get("spec") != level_spec(
        _game(game_id, seats), spec.removeprefix(LEVEL)
    ):
        return None
    rating: float = entry["rating"]
    return rating


def merge(path: Path, game_id: str, seats: int, standings: dict[str, Any]) -> None:
    """Store a tournament's ratings under ``[game][seats]`` in the JSON file at ``path``.

    ``standings`` is the JSON that ``boardlab tournament --json`` prints. Each level also records
    the spec it stands for now.
    """
    table: dict[str, Any] = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    game = _game(game_id, seats)
    ratings = {}
    for row in standings["ratings"]:
        entry: dict[str, Any] = {"rating": row["rating"], "ci95": row["ci95"]}
        level = row["player"].removeprefix(LEVEL)
        if row["player"].startswith(LEVEL) and level in LEVELS:
            entry["spec"] = level_spec(game, level)
        ratings[row["player"]] = entry
    config = standings["config"]
    table.setdefault(game_id, {})[str(seats)] = {
        "games_per_pairing": config["games"],
        "seed": config["seed"],
        "games": standings["games"],
        "planned": standings["planned"],
        "ratings": ratings,
    }
    write_atomic(path, json.dumps(table, indent=2, sort_keys=True) + "\n")


def markdown(data: dict[str, Any] | None = None) -> str:
    """The ratings file as one markdown table: a row per game and seat count, a column per
    player (``random``, ``greedy``, the levels), each cell the rating and its 95% interval."""
    data = _shipped() if data is None else data
    columns = ["random", "greedy", *(f"{LEVEL}{level}" for level in LEVELS)]
    lines = [
        "| game | seats | games played of planned | "
        + " | ".join(c.removeprefix(LEVEL) for c in columns)
        + " |",
        "|---|---:|---:|" + "---:|" * len(columns),
    ]
    for game_id in sorted(data):
        for seats in sorted(data[game_id], key=int):
            entry = data[game_id][seats]
            cells = []
            for column in columns:
                rating = entry["ratings"].get(column)
                low, high = rating["ci95"] if rating else (0, 0)
                if rating is None:
                    cells.append("—")
                elif low == high:
                    cells.append(f"{rating['rating']:.0f}")
                else:
                    cells.append(f"{rating['rating']:.0f} ({low:.0f} to {high:.0f})")
            played = f"{entry['games']} of {entry['planned']}"
            lines.append(f"| {game_id} | {seats} | {played} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown())
