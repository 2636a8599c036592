"""The compiled Anacund kernel plays the reference rules bit for bit (issue 20).

Lock-step random games over every option (random layouts from several seeds, ``l0``, explicit
layouts that trigger the fallback value rule, both tracks, the bonus and tie rules), perft
against the reference, and the rare rules played from built positions and compared after
every placement: flanking across the ring seam, captures on both sides at once, self-landlock,
blocked squares, the fallback value rule, three placements a turn, and the final scores.
"""

from __future__ import annotations

import pytest

pytest.importorskip("numba")

import numpy as np

import boardlab
from boardlab.core.engine import ENGINE_VARIABLE, Kernel, kernel_for
from boardlab.core.engine_check import compare, lockstep
from boardlab.core.outcome import Result
from boardlab.core.perft import perft
from boardlab.games.anacund.kernel import make_kernel
from boardlab.games.anacund.kernel_cases import L0
from boardlab.games.anacund.kernel_cases import OPTION_SETS as OPTIONS
from tests.games.kernel_helpers import kernel_perft, play_both


def kernel_of(**options: object) -> Kernel:
    return make_kernel(boardlab.make("anacund", **options))


@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
def test_lockstep_random_games(options: dict[str, object]) -> None:
    """Every game is exactly 36 placements, each compared in both engines."""
    kernel = kernel_of(**options)
    assert lockstep(kernel.game, kernel, games=8, seed=20) == 8 * 36


@pytest.mark.parametrize(("options", "counts"), [({"layout": "l0"}, [1, 6, 66, 696])])
def test_perft_from_l0(options: dict[str, object], counts: list[int]) -> None:
    """The counts of test_anacund_protocol (depths 0-3)."""
    kernel = kernel_of(**options)
    s = kernel.encode(kernel.game.new_initial_state())
    assert [kernel_perft(kernel, s, depth) for depth in range(4)] == counts


@pytest.mark.parametrize(
    "text",
    [
        f"{L0} 2 .........abb...............a..b..a.. A 0 663/555",
        f"{L0} 2 ba......................b..a..b..a.. A 0 663/555",
        f"{L0} 2 ..................a..b..A..B..a..b.. A 0 663/663",
    ],
)
def test_perft_equals_the_reference(text: str) -> None:
    """Depth 3 (a whole turn) from the built positions of facts 3, 8 and 7, on both tracks."""
    for track in ("ring", "open"):
        kernel = kernel_of(layout="l0", track=track)
        state = kernel.game.state_from_text(text)
        assert kernel_perft(kernel, kernel.encode(state), 3) == perft(state, 3)


@pytest.mark.parametrize(
    ("track", "after"),
    [
        ("ring", f"{L0} 2 Aa......................b..a..b..a.a A 1 662/555"),
        ("open", f"{L0} 2 ba......................b..a..b..a.a A 1 662/555"),
    ],
)
def test_flanking_across_the_ring_seam(track: str, after: str) -> None:
    """Fact 8: A's 3@36 flanks B's piece on 1 with A's on 2 across the seam, on the ring only."""
    kernel = kernel_of(layout="l0", track=track)
    state, _ = play_both(kernel, f"{L0} 2 ba......................b..a..b..a.. A 0 663/555", "3@36")
    assert state.position_text() == after


def seam_position(pieces: dict[int, str], groups: str) -> str:
    """An l0 position with A to place: ``pieces`` by square index, plus six spread pieces."""
    board = ["."] * 36
    for index, piece in {5: "a", 8: "b", 11: "a", 14: "b", 17: "a", 20: "b", **pieces}.items():
        board[index] = piece
    return f"{L0} 2 {''.join(board)} A 0 {groups}"


@pytest.mark.parametrize(("track", "captured"), [("ring", True), ("open", False)])
def test_a_run_across_the_seam_is_flanked(track: str, captured: bool) -> None:
    """B's run on 36 and 1 lies across the seam between A's pieces on 35 and 2: placing on 2
    captures it on the ring (walking back over the seam), and nothing on the open track."""
    pieces = {34: "a", 35: "b", 0: "b", 23: "a", 26: "b", 29: "a"}
    kernel = kernel_of(layout="l0", track=track)
    state, _ = play_both(kernel, seam_position(pieces, "651/444"), "1@2")
    assert state.position_text().split()[2][:2] == ("Aa" if captured else "ba")
    assert state.position_text().split()[2][35] == ("A" if captured else "b")


@pytest.mark.parametrize(("track", "landlocked"), [("ring", True), ("open", False)])
def test_self_landlock_across_the_seam(track: str, landlocked: bool) -> None:
    """A's piece placed on 36 between B's pieces on 35 and 1 is landlocked on the ring only."""
    pieces = {34: "b", 0: "b", 23: "a", 26: "b", 29: "a", 31: "a"}
    kernel = kernel_of(layout="l0", track=track)
    state, _ = play_both(kernel, seam_position(pieces, "633/444"), "3@36")
    assert state.position_text().split()[2][35] == ("B" if landlocked else "a")


@pytest.mark.parametrize(
    ("board", "after"),
    [
        # Every other square holds A: the run from 11 round the ring ends on 11 itself, so it
        # is not flanked; B's lone piece is then landlocked between A's pieces on 10 and 12.
        ("a" * 10 + "." + "a" * 25, "a" * 10 + "A" + "a" * 25),
        # B's own run round the ring meets A's piece on 1 at both ends: one square, no capture.
        ("a" + "b" * 9 + "." + "b" * 25, "a" + "b" * 35),
    ],
)
def test_a_run_all_the_way_round_is_never_flanked(board: str, after: str) -> None:
    """Docs, Interpretations: flanking squares must differ, on the attack and the landlock."""
    kernel = kernel_of(layout="l0")
    state, _ = play_both(kernel, f"{L0} 2 {board} B 2 000/100", "1@11")
    assert state.position_text().split()[2] == after


def test_capture_self_landlock_and_conqueror() -> None:
    """Facts 3, 4 and 5: a run captured, a self-landlock, and a conqueror capturing two sides."""
    kernel = kernel_of(layout="l0")
    state, _ = play_both(kernel, f"{L0} 2 .........abb...............a..b..a.. A 0 663/555", "3@13")
    assert state.position_text() == f"{L0} 2 .........aAAa..............a..b..a.. A 1 662/555"
    state, _ = play_both(kernel, f"{L0} 2 ...................b.b..b..a..a..a.. A 0 555/555", "5@21")
    assert state.position_text() == f"{L0} 2 ...................bBb..b..a..a..a.. A 1 554/555"
    state, _ = play_both(kernel, f"{L0} 2 ..................ab.ba....a..b..... A 0 555/555", "5@21")
    assert state.position_text() == f"{L0} 2 ..................aAaAa....a..b..... A 1 554/555"


def test_blocked_squares_never_flank() -> None:
    """Fact 6: a blocked square does not close a run; an A piece does."""
    kernel = kernel_of(layout="l0")
    state, _ = play_both(kernel, f"{L0} 2 ....bBa....................a..b..a.. A 0 663/555", "3@4")
    assert state.position_text() == f"{L0} 2 ...abBa....................a..b..a.. A 1 662/555"
    state, _ = play_both(kernel, f"{L0} 2 ....baa....................b..b..a.. A 0 663/555", "3@4")
    assert state.position_text() == f"{L0} 2 ...aAaa....................b..b..a.. A 1 662/555"


def test_fallback_value_rule() -> None:
    """Fact 7: no free square of value 6 is left, so a 6 goes on any of the 30 free squares."""
    kernel = kernel_of(layout="l0")
    text = f"{L0} 2 ..................a..b..A..B..a..b.. A 0 663/663"
    s = kernel.encode(kernel.game.state_from_text(text))
    assert kernel.legal(kernel.params, s, np.empty(kernel.max_legal, dtype=np.int64)) == 36
    play_both(kernel, text, "6@1 6@2 3@4")


def test_three_placements_make_a_turn_and_the_whole_game_scores() -> None:
    """Fact 9: the first legal placement each time; A keeps the turn for three placements,
    and the finished game scores A 6, B 35 (B's bonus on square 2) in both engines."""
    kernel = kernel_of(layout="l0")
    state = kernel.game.new_initial_state()
    s = kernel.encode(state)
    players = []
    while not state.is_terminal():
        players.append(kernel.player(kernel.params, s))
        action = state.parse_action(state.legal_moves()[0])
        state.apply_action(action)
        kernel.apply(kernel.params, s, action)
        compare(kernel, state, s, f"fact 9 after {state.ply} turns")
    assert players == ([0] * 3 + [1] * 3) * 6
    final = kernel.decode(s)
    assert final.outcome == state.outcome
    assert final.outcome is not None and final.outcome.scores == (6, 35)


TIE = f"{L0} 2 aaaaaaaaaaaaaaaaaabbbbbbbbbbbbbbbbb. B 2 000/100"
"""B's last placement: 1@36 (no value-1 square is free) makes 18 against 18 on an open track."""


@pytest.mark.parametrize(
    ("options", "results"),
    [
        ({"bonus_points": 0}, (Result.DRAW, Result.DRAW)),
        ({"bonus_points": 0, "tie": "b"}, (Result.LOSS, Result.WIN)),
        ({}, (Result.WIN, Result.LOSS)),
    ],
)
def test_final_scores_ties_and_the_bonus(
    options: dict[str, object], results: tuple[Result, Result]
) -> None:
    """Spec §8: equal scores draw, or go to B with tie=b; A's piece on the bonus square 2
    is worth 1 + 5."""
    kernel = kernel_of(layout="l0", track="open", **options)
    state, s = play_both(kernel, TIE, "1@36")
    assert state.outcome is not None and state.outcome.results == results
    assert kernel.decode(s).outcome == state.outcome


def test_the_engine_switch_finds_this_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """``BOARDLAB_ENGINE=fast`` gives this module's kernel; ``python`` gives none."""
    game = boardlab.make("anacund")
    monkeypatch.setenv(ENGINE_VARIABLE, "fast")
    kernel = kernel_for(game)
    assert kernel is not None and kernel.game is game and kernel.legal is kernel_of().legal
    monkeypatch.setenv(ENGINE_VARIABLE, "python")
    assert kernel_for(game) is None
