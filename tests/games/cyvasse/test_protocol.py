"""Cyvasse on the shared protocol: conformance, perft, notation, position text (§10-11),
views (§4.3, §11), options (§12), presets, and hypothesis properties."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.core.conformance import run_conformance
from boardlab.core.errors import (
    BoardlabError,
    IllegalMoveError,
    NotationError,
    OptionError,
    PositionError,
)
from boardlab.core.registry import make
from boardlab.core.render_model import SPECTATOR
from boardlab.games.cyvasse import CyvasseState
from boardlab.games.cyvasse.presets import (
    PRESETS,
    lineup_decisions,
    lineup_from_state,
    load_presets,
    preset_decisions,
    random_lineup,
    save_preset,
)
from tests.games.cyvasse.helpers import game

DEPLOYED = (
    "1d4/1t2c2/1hb1b1h1/l1eskse1l/1M1r1r1rM1/11/1MR1R1R1M1/L1ES1SE1L/1H1B1BH1/2C1KT1/4D1 N - - 0 2"
)


def perft(state: CyvasseState, depth: int) -> int:
    """Leaves at ``depth`` decisions."""
    if depth == 0:
        return 1
    return sum(perft(state.child(a), depth - 1) for a in state.legal_actions())


# -- conformance and perft ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "playouts"),
    [
        ({}, 2),
        ({"cavalry_second_optional": True}, 1),
        ({"losing_attacks": "suicide"}, 1),
        ({"dragon_blocked_by_dragon": True}, 1),
        ({"army": "K1D1H1L1B1C1T1M2", "no_capture_plies": 30}, 2),
    ],
)
def test_conformance(options: dict[str, object], playouts: int) -> None:
    endings = run_conformance(game(**options), playouts, seed=7)
    assert sum(endings.values()) == playouts


def test_perft_from_the_deployed_position_of_fact_3() -> None:
    """Depth 1 is the 149 of Test fact 3. Depth 2 sums the replies: 116 of North's decisions
    end the turn (South replies) and 33 are first cavalry jumps (North's second jump follows);
    the per-unit counts below were checked by hand for the Dragon and the Rabbles."""
    state = game().state_from_text(DEPLOYED)
    assert perft(state, 1) == 149
    children = [state.child(a) for a in state.legal_actions()]
    assert sum(1 for c in children if not c.turn_start) == 33
    assert perft(state, 2) == 17802


# -- §10 notation ------------------------------------------------------------------------------


def test_s10_notation_errors_are_typed_and_helpful() -> None:
    state = game().state_from_text("5k/7/8/9/10/4r6/10/9/2L5/7/K5 S - - 0 2")
    with pytest.raises(NotationError, match=r"^malformed move 'c3c4': write a placement"):
        state.parse_action("c3c4")
    with pytest.raises(IllegalMoveError, match="did you mean c3xe6"):
        state.parse_action("c3-e6")
    with pytest.raises(IllegalMoveError, match="k1 is not a hex"):
        state.parse_action("k1-a1")
    with pytest.raises(IllegalMoveError, match="holds no South unit"):
        state.parse_action("d3-d4")
    with pytest.raises(IllegalMoveError, match="deployment is over"):
        state.parse_action("K@a1")
    for action in state.legal_actions():
        assert state.parse_action(state.action_to_str(action)) == action


# -- §11 position text and views ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("6/7/8/9/10/11/10/9/8/7/6 S d - 0", "6 fields"),
        ("6/7/8/9/10/11/10/9/8/7 S d - 0 0", "11 ranks"),
        ("33/7/8/9/10/11/10/9/8/7/6 S d - 0 0", "one number"),
        ("5/7/8/9/10/11/10/9/8/7/6 S d - 0 0", "covers 5"),
        ("6/7/8/9/10/11/10/9/8/7/6 X d - 0 0", "S or N"),
        ("6/7/8/9/10/11/10/9/8/7/6 S d - 0 00", "leading zeros"),
        ("6/7/8/9/10/11/10/9/8/7/6 S d - 1 0", "counter is 0"),
        ("6/7/8/9/10/11/10/9/8/7/D5 S d - 0 0", "first ones"),
        ("k5/7/8/9/10/11/10/9/8/7/K5 S d - 0 0", "nothing may stand"),
        ("6/7/8/9/10/11/10/9/8/7/K5 N d - 0 1", "whole army"),
        ("5k/7/8/9/10/11/10/9/8/7/KK4 S - - 0 2", "South has 2 K"),
        ("5k/7/8/9/10/11/10/9/8/7/6 N - - 0 2", "King may be missing"),
        ("5k/7/8/9/10/11/10/9/2R5/7/K5 S b3-c3 - 0 2", "Light or Heavy Horse"),
        ("5k/7/8/9/10/11/10/9/8/7/K5 S - - 0 1", "ply 2"),
    ],
)
def test_s11_rejects_bad_position_texts(text: str, problem: str) -> None:
    with pytest.raises(PositionError, match=problem):
        game().state_from_text(text)


def test_s11_views_hide_the_other_deployment_until_both_are_done() -> None:
    state = game().new_initial_state()
    state.play("K@e2+D@e1")
    assert state.view_text(0) == state.position_text()
    assert state.view_text(1) == "6/7/8/9/10/11/10/9/8/7/6 S d - 0 0"
    state.play(PRESETS["classic"].split("+", 2)[2])
    state.play("K@e8")
    view = state.view_state(1)
    assert view.position_text() == "6/7/8/4k4/10/11/10/9/8/7/6 N d - 0 1"
    drawing = view.render()
    assert "?" in drawing and "D" not in drawing.split("South (ranks")[0].split("\n", 1)[1]
    assert view.legal_moves() == state.legal_moves()
    assert game().view_from_text(view.position_text()).legal_moves() == state.legal_moves()
    with pytest.raises(PositionError, match="South's whole army must be in its zone"):
        game().state_from_text(view.position_text())
    shown = game(hidden_setup=False).state_from_text(state.position_text())
    assert shown.view_text(1) == shown.position_text()


@pytest.mark.parametrize("hidden_setup", [True, False])
def test_s11_view_hidden_zones_names_the_zones_each_view_hides(hidden_setup: bool) -> None:
    """The read-only accessor (used by the RL encoder) agrees with ``view_state``, also on a
    view state, for both seats and a spectator."""
    rng = random.Random(3)
    state = game(army="K1H1R2M1", hidden_setup=hidden_setup).new_initial_state()
    hid = 0
    while state.deploying:
        for seen in (state, state.view_state(1 - state.side)):
            for player in (0, 1, SPECTATOR):
                zones = seen.view_hidden_zones(player)
                assert zones == seen.view_state(player).hidden_zones
                hid += len(zones)
        state.apply_action(rng.choice(state.legal_actions()))
    assert (hid > 0) == hidden_setup
    assert state.view_hidden_zones(0) == state.view_hidden_zones(1) == ()


@pytest.mark.parametrize(("south", "north"), [(6, 0), (19, 0), (19, 4)])
def test_s11_a_spectator_shown_a_seats_view_sees_no_more_than_a_spectator(
    south: int, north: int
) -> None:
    """The view of a view hides what either hides: a seat's view, looked at again as a
    spectator, is the spectator's view of the game (nothing of either army leaks back)."""
    rng = random.Random(5)
    state = game().new_initial_state()
    for _ in range(south + north):
        state.apply_action(rng.choice(state.legal_actions()))
    spectator = state.view_state(SPECTATOR)
    for seat in (0, 1):
        again = state.view_state(seat).view_state(SPECTATOR)
        assert again.position_text() == spectator.position_text()
        assert sorted(again.hidden_zones) == sorted(spectator.hidden_zones)


def test_s11_a_search_from_a_view_assumes_a_mirrored_army() -> None:
    state = game(first_tie="north").new_initial_state()
    for action in preset_decisions(state, "fortress"):
        state.apply_action(action)
    view = state.view_state(1)
    for action in preset_decisions(view, "classic"):
        view.apply_action(action)
    assert not view.deploying and view.veiled == -1
    assert lineup_from_state(view, 0) == PRESETS["classic"]
    assert view.current_player == 1


# -- §12 options -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"army": "K2"}, "exactly one King"),
        ({"army": "D1K1"}, "once each"),
        ({"army": "K1R0"}, "letter-count"),
        ({"army": "K1R40"}, "at most 40"),
        ({"losing_attacks": "maybe"}, "illegal, suicide"),
        ({"first_tie": "east"}, "random, south, north"),
        ({"no_capture_plies": -1}, "integer"),
        ({"hidden_setup": "yes"}, "true or false"),
        ({"colour": "red"}, "unknown option"),
    ],
)
def test_s12_options_are_validated(options: dict[str, object], problem: str) -> None:
    with pytest.raises(OptionError, match=problem):
        make("cyvasse", **options)


def test_s12_options_are_recorded_with_a_drawn_seed() -> None:
    made = make("cyvasse")
    keys = [key for key, _ in made.option_items()]
    assert keys == [
        "army",
        "cavalry_second_optional",
        "losing_attacks",
        "dragon_blocked_by_dragon",
        "first_tie",
        "seed",
        "hidden_setup",
        "no_capture_plies",
        "max_plies",
        "repetition_draw",
    ]
    assert isinstance(made.seed, int)
    assert made.num_actions == 91 + 91 * 91 + 2


# -- presets -----------------------------------------------------------------------------------


def test_presets_deploy_for_both_sides_and_round_trip(tmp_path: Path) -> None:
    state = game().new_initial_state()
    for name in PRESETS:
        probe = state.clone()
        for action in preset_decisions(probe, name):
            probe.apply_action(action)
        for action in preset_decisions(probe, name):
            probe.apply_action(action)
        assert not probe.deploying
        assert lineup_from_state(probe, 0) == lineup_from_state(probe, 1) == PRESETS[name]
    for action in random_lineup(state, 5):
        state.apply_action(action)
    for action in random_lineup(state, 6):
        state.apply_action(action)
    assert not state.deploying
    file = tmp_path / "presets.json"
    save_preset("mine", lineup_from_state(state, 1), file)
    assert load_presets(file)["mine"] == lineup_from_state(state, 1)
    with pytest.raises(IllegalMoveError, match="bad preset name"):
        save_preset("Bad Name", PRESETS["classic"], file)
    with pytest.raises(IllegalMoveError, match="placements"):
        lineup_decisions(game(army="K1").new_initial_state(), PRESETS["classic"])


def test_random_lineup_is_seeded() -> None:
    state = game().new_initial_state()
    assert random_lineup(state, 3) == random_lineup(state, 3)
    assert random_lineup(state, 3) != random_lineup(state, 4)


# -- properties --------------------------------------------------------------------------------

TOKENS = st.sampled_from([*"123456789KDEHLSRBCTMkdehlsrbct/ -dpx0", "10", "11", "c3-c6"])


@settings(max_examples=200, deadline=None)
@given(st.lists(TOKENS, max_size=40).map("".join))
def test_any_position_text_parses_or_raises_position_error(text: str) -> None:
    try:
        state = game().state_from_text(text)
    except PositionError:
        return
    assert state.position_text() == text


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**31), st.integers(0, 60))
def test_texts_of_random_positions_round_trip(seed: int, plies: int) -> None:
    made = game(seed=seed)
    state = made.new_initial_state()
    for action in random_lineup(state, seed):
        state.apply_action(action)
    for action in random_lineup(state, seed + 1):
        state.apply_action(action)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    again = made.state_from_text(state.position_text())
    assert again.position_text() == state.position_text()
    if not state.is_terminal():
        assert again.legal_moves() == state.legal_moves()


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="abcdefghijkKDEHLSRBCTM@-x*+0123456789endps", max_size=8))
def test_any_decision_text_parses_or_raises_a_typed_error(text: str) -> None:
    state = game().state_from_text(DEPLOYED)
    try:
        action = state.parse_action(text)
    except BoardlabError:
        return
    assert state.action_to_str(action) == text
