"""The tournament table says what its games cannot tell: players not shown to differ from the
anchor, and how close two ratings can be and still be told apart."""

from __future__ import annotations

import itertools
import random

from boardlab.analysis.finishes import Finish
from boardlab.analysis.tournament_report import rating_table, standings

TRUE = {"random": 0.0, "close": 10.0, "far": 600.0}


def _games(per_table: int) -> list[Finish]:
    rng = random.Random(2)
    games = []
    for table in itertools.combinations(TRUE, 3):
        for index in range(per_table):
            seating = table[index % 3 :] + table[: index % 3]
            odds = [10 ** (TRUE[p] / 400) for p in seating]
            winner = rng.choices(range(3), weights=odds)[0]
            games.append(Finish(seating, tuple(0 if s == winner else 2 for s in range(3))))
    return games


def test_the_table_names_players_not_shown_to_differ_from_the_anchor() -> None:
    table = rating_table(standings(_games(120), "random"))
    assert "Not shown to be stronger or weaker than random (the 95% interval holds 0): close." in (
        table
    )
    assert "far" not in table.split("Not shown")[1].split(".")[0]
    typical = table.split("A typical interval is ± ")[1]
    wide = int(typical.split(" ")[0])
    narrow = int(
        rating_table(standings(_games(480), "random"))
        .split("A typical interval is ± ")[1]
        .split()[0]
    )
    assert 1.6 < wide / narrow < 2.4  # four times the games, half the width
