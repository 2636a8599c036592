"""Every Test fact of rules/anacund.md §14, one test each, named after its number."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.games.anacund import AnacundState
from tests.games.anacund.helpers import l0

L0 = "112312312312312324645645645645645653 2"


def at(text: str, **options: object) -> AnacundState:
    return l0(**options).state_from_text(f"{L0} {text}")


def after(state: AnacundState, *moves: str) -> str:
    for move in moves:
        state.play(move)
    return state.position_text()


def test_fact_01_initial_position() -> None:
    state = l0().new_initial_state()
    assert state.position_text() == f"{L0} .................................... A 0 666/666"
    assert state.legal_moves() == "6@19 6@22 6@25 6@28 6@31 6@34".split()


def test_fact_02_after_6_at_19() -> None:
    state = l0().new_initial_state()
    assert after(state, "6@19") == f"{L0} ..................a................. A 1 665/666"
    assert state.legal_moves() == ("5@21 5@24 5@27 5@30 5@33 5@35 6@22 6@25 6@28 6@31 6@34".split())


def test_fact_03_capturing_a_run() -> None:
    state = at(".........abb...............a..b..a.. A 0 663/555")
    assert state.legal_moves() == "3@13 3@16 3@36 3@4 3@7 6@19 6@22 6@25".split()
    assert after(state, "3@13") == f"{L0} .........aAAa..............a..b..a.. A 1 662/555"


def test_fact_04_self_landlock() -> None:
    state = at("...................b.b..b..a..a..a.. A 0 555/555")
    assert state.legal_moves() == "5@21 5@24 5@27 5@30 5@33 5@35".split()
    assert after(state, "5@21") == f"{L0} ...................bBb..b..a..a..a.. A 1 554/555"


def test_fact_05_conqueror() -> None:
    state = at("..................ab.ba....a..b..... A 0 555/555")
    assert after(state, "5@21") == f"{L0} ..................aAaAa....a..b..... A 1 554/555"


def test_fact_06_blocked_squares_never_flank() -> None:
    state = at("....bBa....................a..b..a.. A 0 663/555")
    assert state.legal_moves() == "3@10 3@13 3@16 3@36 3@4 6@19 6@22 6@25".split()
    assert after(state, "3@4") == f"{L0} ...abBa....................a..b..a.. A 1 662/555"
    contrast = at("....baa....................b..b..a.. A 0 663/555")
    assert after(contrast, "3@4") == f"{L0} ...aAaa....................b..b..a.. A 1 662/555"


def test_fact_07_fallback_value_rule() -> None:
    state = at("..................a..b..A..B..a..b.. A 0 663/663")
    moves = state.legal_moves()
    sixes = [m for m in moves if m.startswith("6@")]
    free = [str(i) for i, c in enumerate(state.position_text().split()[2], 1) if c == "."]
    assert len(free) == 30
    assert sorted(sixes) == sorted(f"6@{s}" for s in free)
    assert [m for m in moves if m.startswith("3@")] == "3@10 3@13 3@16 3@36 3@4 3@7".split()
    assert len(moves) == 36


def test_fact_08_ring_versus_open_track() -> None:
    text = "ba......................b..a..b..a.. A 0 663/555"
    ring = at(text)
    assert ring.legal_moves() == "3@10 3@13 3@16 3@36 3@4 3@7 6@19 6@22".split()
    assert after(ring, "3@36") == f"{L0} Aa......................b..a..b..a.a A 1 662/555"
    line = at(text, track="open")
    assert line.legal_moves() == at(text).legal_moves()
    assert after(line, "3@36") == f"{L0} ba......................b..a..b..a.a A 1 662/555"


FACT_9_TURNS = [
    "6@19+5@21+4@18",
    "6@22+5@24+4@20",
    "3@10+2@12+1@1",
    "3@13+2@15+1@11",
    "6@25+5@27+4@23",
    "6@28+5@30+4@26",
    "3@16+2@17+1@14",
    "3@36+2@3+1@2",
    "6@31+5@33+4@29",
    "6@34+5@35+4@32",
    "3@4+2@6+1@5",
    "3@7+2@9+1@8",
]


def test_fact_09_a_whole_game() -> None:
    state = l0().new_initial_state()
    turns = []
    while not state.is_terminal():
        decisions = []
        for _ in range(3):
            first = state.legal_moves()[0]
            decisions.append(first)
            state.play(first)
        turns.append("+".join(decisions))
    assert turns == FACT_9_TURNS
    assert state.position_text() == f"{L0} BbbBBBbbbBbBbBbBBBBbBbaAabBbaAabBbbb A 0 000/000"
    outcome = state.outcome
    assert outcome is not None and outcome.scores == (6, 35)
    assert outcome.winners == (1,)
    assert outcome.termination is boardlab.Termination.PLACEMENTS_COMPLETE
    assert state.legal_actions() == []


@pytest.mark.parametrize(
    ("seed", "values", "bonus"),
    [
        (0, "114224112261335424632446155663553653", 12),
        (1, "543635515236632664215411452622414313", 32),
        (42, "154523326561366464231146121544523253", 22),
    ],
)
def test_fact_10_seeded_layouts(seed: int, values: str, bonus: int) -> None:
    state = boardlab.make("anacund", seed=seed).new_initial_state()
    assert state.position_text().split()[:2] == [values, str(bonus)]
    assert all(values.count(str(v)) == 6 for v in range(1, 7))
    assert values[bonus - 1] == "1"


@pytest.mark.parametrize("track", ["ring", "open"])
def test_fact_11_score_total_is_41(track: str) -> None:
    rng = random.Random(11)
    for seed in range(1500):
        game = boardlab.make("anacund", seed=seed, track=track)
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        assert state.outcome is not None and state.outcome.scores is not None
        assert sum(state.outcome.scores) == 41
