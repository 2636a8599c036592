"""The measured level ratings: merging a tournament's standings, reading them, staleness."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from boardlab.ai import level_ratings
from boardlab.ai.levels import LEVELS

STANDINGS: dict[str, Any] = {
    "config": {"games": 4, "seed": 0},
    "games": 60,
    "planned": 60,
    "ratings": [
        {"player": "level:expert", "rating": 812.5, "ci95": [500.0, 1125.0]},
        {"player": "greedy", "rating": 120.0, "ci95": [10.0, 230.0]},
        {"player": "random", "rating": 0.0, "ci95": [0.0, 0.0]},
    ],
}


@pytest.fixture
def ratings_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A ratings file in a temporary directory, read in place of the shipped one."""
    path = tmp_path / "level_ratings.json"
    monkeypatch.setattr(level_ratings, "RATINGS_FILE", path)
    level_ratings._shipped.cache_clear()
    yield path
    level_ratings._shipped.cache_clear()


def test_merged_ratings_are_read_back_per_game_and_seats(ratings_file: Path) -> None:
    level_ratings.merge(ratings_file, "carnyx", 2, STANDINGS)
    level_ratings.merge(ratings_file, "colosseum-offcuts", 3, STANDINGS)
    data = json.loads(ratings_file.read_text())
    assert data["carnyx"]["2"]["ratings"]["level:expert"]["spec"].startswith("alphabeta:")
    three_seats = data["colosseum-offcuts"]["3"]["ratings"]
    assert three_seats["level:expert"]["spec"].startswith("alphabeta:")
    assert data["carnyx"]["2"]["games"] == 60
    assert level_ratings.level_rating("carnyx", 2, "level:expert") == 812.5
    assert level_ratings.level_rating("carnyx", 2, "greedy") == 120.0
    assert level_ratings.level_rating("carnyx", 2, "level:easy") is None
    assert level_ratings.level_rating("colosseum-offcuts", 4, "level:expert") is None


def test_a_level_whose_spec_changed_reads_as_unrated(ratings_file: Path) -> None:
    level_ratings.merge(ratings_file, "carnyx", 2, STANDINGS)
    data = json.loads(ratings_file.read_text())
    data["carnyx"]["2"]["ratings"]["level:expert"]["spec"] = "alphabeta:depth=9"
    ratings_file.write_text(json.dumps(data))
    assert level_ratings.level_rating("carnyx", 2, "level:expert") is None


def test_every_shipped_level_rating_is_current_and_anchored() -> None:
    shipped = json.loads(level_ratings.RATINGS_FILE.read_text())
    for game_id, by_seats in shipped.items():
        for seats, entry in by_seats.items():
            assert entry["ratings"]["random"]["rating"] == 0.0
            for level in LEVELS:
                rating = level_ratings.level_rating(game_id, int(seats), f"level:{level}")
                assert rating is not None, (game_id, seats, level)
