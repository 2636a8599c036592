"""Perft counts and the shared conformance harness for Carnyx."""

from __future__ import annotations

import pytest

import boardlab
from boardlab.core.conformance import run_conformance
from boardlab.core.state import State

AFTER_SETUP = "2(LL)L1/5/5/5/1D(DD)2 D 0,10,0/0,10,0 - - - 6"


def perft(state: State, depth: int) -> int:
    """Leaves of the decision tree below ``state`` at ``depth`` (each decision one ply)."""
    if depth == 0:
        return 1
    if depth == 1:
        return len(state.legal_actions())
    return sum(perft(state.child(action), depth - 1) for action in state.legal_actions())


@pytest.mark.parametrize(("depth", "count"), [(1, 5), (2, 25), (3, 125), (4, 625)])
def test_perft_from_the_initial_position(depth: int, count: int) -> None:
    """The first six plies are setup placements (spec §4).

    Hand check: each placement may go on any of the 5 home-rank squares of the placer, and
    stacking on one's own pieces is allowed, so every setup ply has exactly 5 decisions
    whatever was placed before: 5, 25, 125, 625.
    """
    assert perft(boardlab.make("carnyx").new_initial_state(), depth) == count


@pytest.mark.parametrize(("depth", "count"), [(1, 6), (2, 32)])
def test_perft_after_setup(depth: int, count: int) -> None:
    """From the position of Test fact 2 (Light: c5 LL, d5 L; Dark: b1 D, c1 DD).

    Hand check: Dark has 6 decisions (fact 2). Light's replies do not depend on Dark's move,
    except after c1-c3: H, c5-c3 (stack south), c5-a5 (stack west; east is blocked by Light's
    own d5), d5-d4, d5-c5 (merge), d5-e5 = 6 replies; after c1-c3 the stack c5 can capture
    on c3, so Light is forced: H, c5xc3 = 2 replies. 5 x 6 + 2 = 32.
    """
    assert perft(boardlab.make("carnyx").state_from_text(AFTER_SETUP), depth) == count


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"allow_merge": False},
        {"jump_own": True},
        {"no_return": "strict"},
        {"conversion": "token"},
        {"single_exit": "reserve"},
    ],
)
def test_conformance(options: dict[str, object]) -> None:
    endings = run_conformance(boardlab.make("carnyx", **options), playouts=8, seed=11)
    assert sum(endings.values()) == 8
