"""Measured ratings of the bot levels, per game and seat count, for lobbies and docs.

``level_ratings.json`` beside this module is written by tournaments of ``random``, ``greedy``
and the four levels (``boardlab tournament ... --level-ratings FILE``; the commands are in
``docs/bots.md``). Ratings are on an Elo-like scale with ``random`` = 0 in every game and seat
count. Each level's entry keeps the spec it stood for when it was measured, so a level whose
spec has changed since reads as unrated instead of showing a stale number.

A level's rating is shown only where its tournament tells it apart from the level below it
(``random`` < ``easy`` < ``medium`` < ``hard`` < ``expert``; ``greedy`` against ``random``): the
95% interval of the difference must leave out 0. Entries written since the ratings' Davidson-Luce
fit keep that interval (``gap``, from the fit's covariance); for older entries it is bounded from
the two intervals against ``random`` as if the two ratings were uncorrelated, which widens it when
they are positively correlated, as ratings against a common anchor are. Otherwise the lobby shows
no rating and the docs table "≈" and the level below: no ordering the games do not support.
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path
from statistics import NormalDist
from typing import Any

from boardlab.ai.levels import LEVELS, level_spec
from boardlab.core.files import write_atomic
from boardlab.core.registry import game_class, make

RATINGS_FILE = Path(__file__).with_name("level_ratings.json")
LEVEL = "level:"
Z95 = NormalDist().inv_cdf(0.975)
LADDER = ("random", *(f"{LEVEL}{level}" for level in LEVELS))
"""The lobby's bots, weakest first: each is compared with the one before it."""


def below(spec: str) -> str | None:
    """The bot a spec must be told apart from: the level below, or ``random``."""
    if spec == LADDER[0]:
        return None
    return LADDER[LADDER.index(spec) - 1] if spec in LADDER else LADDER[0]


def gap(ratings: dict[str, Any], spec: str) -> tuple[float, float, float] | None:
    """``spec``'s rating minus the one below it with a 95% interval (module doc); None when
    either is missing."""
    lower = below(spec)
    if spec not in ratings or lower not in ratings:
        return None
    found = ratings[spec].get("gap")
    if found is not None and found["below"] == lower:
        return found["diff"], found["ci95"][0], found["ci95"][1]
    (low_a, high_a), (low_b, high_b) = ratings[spec]["ci95"], ratings[lower]["ci95"]
    diff = ratings[spec]["rating"] - ratings[lower]["rating"]
    half = math.hypot((high_a - low_a) / 2, (high_b - low_b) / 2)
    return diff, diff - half, diff + half


def separated(ratings: dict[str, Any], spec: str) -> bool:
    """Whether the games tell ``spec`` apart from (above) the bot below it."""
    if spec == LADDER[0]:
        return True
    found = gap(ratings, spec)
    return found is not None and found[1] > 0


@cache
def _shipped() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RATINGS_FILE.read_text(encoding="utf-8"))
    return data


def _game(game_id: str, seats: int) -> Any:
    keys = {option.key for option in game_class(game_id).OPTIONS}
    return make(game_id, **({"players": str(seats)} if "players" in keys else {}))


def level_rating(game_id: str, seats: int, spec: str) -> float | None:
    """The measured rating of ``spec`` (``level:easy``, ``random``, ...) or None if unmeasured.

    None also when a level's spec has changed since its tournament, and when its games do not
    tell it apart from the bot below it (module doc).
    """
    ratings = _shipped().get(game_id, {}).get(str(seats), {}).get("ratings", {})
    entry = ratings.get(spec)
    if entry is None or not separated(ratings, spec):
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
    rated = {row["player"] for row in standings["ratings"]}
    covariance = standings.get("covariance", {})
    for row in standings["ratings"]:
        player = row["player"]
        entry: dict[str, Any] = {"rating": row["rating"], "ci95": row["ci95"]}
        level = player.removeprefix(LEVEL)
        if player.startswith(LEVEL) and level in LEVELS:
            entry["spec"] = level_spec(game, level)
        lower = below(player)
        if covariance and lower in rated:
            (other,) = (r for r in standings["ratings"] if r["player"] == lower)
            var = covariance[player][player] + covariance[lower][lower]
            half = Z95 * math.sqrt(max(0.0, var - 2 * covariance[player][lower]))
            diff = row["rating"] - other["rating"]
            entry["gap"] = {
                "below": lower,
                "diff": round(diff, 1),
                "ci95": [round(diff - half, 1), round(diff + half, 1)],
            }
        ratings[player] = entry
    config = standings["config"]
    table.setdefault(game_id, {})[str(seats)] = {
        "method": standings.get("method", "plackett-luce"),
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
                lower = below(column)
                if rating is None:
                    cells.append("—")
                elif not separated(entry["ratings"], column) and lower is not None:
                    cells.append(f"≈ {lower.removeprefix(LEVEL)}")
                elif low == high:
                    cells.append(f"{rating['rating']:.0f}")
                else:
                    cells.append(f"{rating['rating']:.0f} ({low:.0f} to {high:.0f})")
            played = f"{entry['games']} of {entry['planned']}"
            lines.append(f"| {game_id} | {seats} | {played} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown())
