"""The lobby shows the ladder's result where a level's rating is not told apart from the level
below (issue 39, item 1): no level ordering the games do not support."""

from __future__ import annotations

from dataclasses import replace

from boardlab.analysis.ladder_results import RUNGS, ladder_result
from boardlab.web.catalogue import ladder, ratings


def test_a_rung_reads_as_its_wins_and_losses() -> None:
    # docs/bots.md: Carnyx expert over hard 38 W 1 D 1 L; Colosseum Offcuts at 4 seats, hard
    # over 3 x medium 20 W 9 D 11 L. Draws are left out, as the ladder's share leaves them.
    assert ladder_result("carnyx", 2, "level:expert") == "beats Hard 38\N{EN DASH}1"
    assert ladder_result("murus-gallicus", 2, "level:easy") == "beats Random 26\N{EN DASH}14"
    found = ladder_result("colosseum-offcuts", 4, "level:hard")
    assert found == "beats 3\N{MULTIPLICATION SIGN} Medium 20\N{EN DASH}11"
    assert ladder_result("carnyx", 2, "random") is None
    assert ladder_result("carnyx", 3, "level:hard") is None  # no such seat count measured


def test_a_rung_played_with_other_specs_is_not_shown() -> None:
    (carnyx,) = (rung for rung in RUNGS if rung.game == "carnyx")
    old = replace(carnyx, specs=(*carnyx.specs[:2], "alphabeta:depth=3", carnyx.specs[3]))
    # hard's spec changed: hard's rung (hard against medium) and expert's (against hard) go.
    assert ladder_result("carnyx", 2, "level:hard", [old]) is None
    assert ladder_result("carnyx", 2, "level:expert", [old]) is None
    assert ladder_result("carnyx", 2, "level:medium", [old]) == "beats Easy 100\N{EN DASH}0"


def test_the_catalogue_gives_the_ladder_only_where_no_rating_is_shown() -> None:
    for game_id, seats in (("murus-gallicus", 2), ("colosseum-offcuts", 3), ("carnyx", 2)):
        shown, told = ratings(game_id, seats), ladder(game_id, seats)
        assert not set(shown) & set(told)
        assert set(shown) | set(told) >= {"level:easy", "level:medium", "level:hard"}
    assert "level:expert" not in ladder("carnyx", 2, compiled=False)
