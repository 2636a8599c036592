"""The measured level ratings: merging a tournament's standings, reading them, staleness."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from boardlab.ai import level_ratings
from boardlab.ai.levels import LEVELS, level_spec

PLAYERS = ("level:expert", "level:hard", "greedy", "random")
COVARIANCE = {
    ("level:expert", "level:expert"): 25600.0,
    ("level:hard", "level:hard"): 23400.0,
    ("level:expert", "level:hard"): 24000.0,
    ("greedy", "greedy"): 3136.0,
}
STANDINGS: dict[str, Any] = {
    "config": {"games": 4, "seed": 0},
    "games": 60,
    "planned": 60,
    "method": "davidson-luce, firth",
    "ratings": [
        {"player": "level:expert", "rating": 812.5, "ci95": [500.0, 1125.0]},
        {"player": "level:hard", "rating": 700.0, "ci95": [400.0, 1000.0]},
        {"player": "greedy", "rating": 120.0, "ci95": [10.0, 230.0]},
        {"player": "random", "rating": 0.0, "ci95": [0.0, 0.0]},
    ],
    # Variances (Elo points squared): 160^2 for expert, 153^2 for hard, 56^2 for greedy; the
    # anchor's row and column are 0.
    "covariance": {
        a: {b: COVARIANCE.get((a, b), COVARIANCE.get((b, a), 0.0)) for b in PLAYERS}
        for a in PLAYERS
    },
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
    # The gap's interval from the covariance: 112.5 ± 1.96 sqrt(25600 + 23400 - 2 * 24000).
    gap = data["carnyx"]["2"]["ratings"]["level:expert"]["gap"]
    assert gap["below"] == "level:hard" and gap["diff"] == 112.5
    assert gap["ci95"] == [round(112.5 - 1.96 * 1000**0.5, 1), round(112.5 + 1.96 * 1000**0.5, 1)]
    assert level_ratings.level_rating("carnyx", 2, "level:expert") == 812.5
    assert level_ratings.level_rating("carnyx", 2, "greedy") == 120.0
    assert level_ratings.level_rating("carnyx", 2, "level:easy") is None
    assert level_ratings.level_rating("colosseum-offcuts", 4, "level:expert") is None


def test_a_level_not_told_apart_from_the_one_below_shows_no_rating(ratings_file: Path) -> None:
    level_ratings.merge(ratings_file, "carnyx", 2, STANDINGS)
    data = json.loads(ratings_file.read_text())
    ratings = data["carnyx"]["2"]["ratings"]
    # hard is not told apart from medium, which was not measured: no rating for it.
    assert level_ratings.level_rating("carnyx", 2, "level:hard") is None
    # Without the covariance the gap is bounded as if uncorrelated: 112.5 ± 1.96 * 221 holds 0.
    del ratings["level:expert"]["gap"]
    assert not level_ratings.separated(ratings, "level:expert")
    ratings_file.write_text(json.dumps(data))
    level_ratings._shipped.cache_clear()
    assert level_ratings.level_rating("carnyx", 2, "level:expert") is None
    assert "≈ hard" in level_ratings.markdown(data)


def test_a_level_whose_spec_changed_reads_as_unrated(ratings_file: Path) -> None:
    level_ratings.merge(ratings_file, "carnyx", 2, STANDINGS)
    data = json.loads(ratings_file.read_text())
    data["carnyx"]["2"]["ratings"]["level:expert"]["spec"] = "alphabeta:depth=9"
    ratings_file.write_text(json.dumps(data))
    assert level_ratings.level_rating("carnyx", 2, "level:expert") is None


def test_every_shipped_level_rating_is_current_anchored_and_shown_only_when_told_apart() -> None:
    shipped = json.loads(level_ratings.RATINGS_FILE.read_text())
    for game_id, by_seats in shipped.items():
        for seats, entry in by_seats.items():
            ratings = entry["ratings"]
            assert ratings["random"]["rating"] == 0.0
            game = level_ratings._game(game_id, int(seats))
            for level in LEVELS:
                spec = f"level:{level}"
                if spec not in ratings:  # left out of a reduced tournament: shown unrated
                    assert level_ratings.level_rating(game_id, int(seats), spec) is None
                    continue
                assert ratings[spec]["spec"] == level_spec(game, level), (game_id, seats, level)
                shown = level_ratings.level_rating(game_id, int(seats), spec)
                assert (shown is not None) == level_ratings.separated(ratings, spec)
