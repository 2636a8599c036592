"""Cyvasse pictures: render-model harness, geometry, pieces, hidden deployments, click paths."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from boardlab.core.render_conformance import run_render_conformance
from boardlab.core.render_model import SPECTATOR, ClickPath, Piece, RenderModel
from boardlab.games.cyvasse import CyvasseState
from boardlab.games.cyvasse.board import LETTERS, RANK_LEN, RANKS
from boardlab.games.cyvasse.picture import RADIUS
from boardlab.games.cyvasse.presets import PRESETS, lineup_decisions
from boardlab.games.cyvasse.units import UNIT_LETTERS
from boardlab.render.pieces import piece_name
from boardlab.render.pools import POOL_HEIGHT, pool_width
from tests.games.cyvasse.helpers import game, pos

DEPLOYED = (
    "1d4/1t2c2/1hb1b1h1/l1eskse1l/1M1r1r1rM1/11/1MR1R1R1M1/L1ES1SE1L/1H1B1BH1/2C1KT1/4D1 N - - 0 2"
)
"""Spec §14 fact 3: both armies deployed, North to move."""


def test_random_playouts_pass_the_render_harness() -> None:
    assert run_render_conformance(game(seed=1, max_plies=12), playouts=1, seed=5) > 38


def test_options_with_end_and_open_deployment_pass_the_render_harness() -> None:
    options = {"hidden_setup": False, "cavalry_second_optional": True, "max_plies": 4}
    assert run_render_conformance(game(seed=2, **options), playouts=1, seed=3) > 38


def test_hexes_are_pointy_rows_one_apart_with_south_at_the_bottom() -> None:
    model = pos(DEPLOYED).render_model()
    assert len(model.cells) == 91 and {cell.shape for cell in model.cells} == {"hex"}
    centre = model.cell("f6")
    for name in ("e5", "e6", "e7", "f5", "f7", "g6"):
        other = model.cell(name)
        assert math.dist((centre.x, centre.y), (other.x, other.y)) == pytest.approx(1.0)
    assert model.cell("a1").y == model.cell("f1").y > centre.y > model.cell("a11").y
    assert model.cell("a6").x < centre.x < model.cell("k6").x
    assert centre.size == pytest.approx(1 / math.sqrt(3))
    texts = Counter(label.text for label in model.labels)
    # Ranks are numbered on the left; the right end of each rank names its last hex, so the
    # files g-k that never reach rank 1 or 11 are labelled too.
    assert texts["6"] == 1 and texts["11"] == 1 and texts["a"] == 2 and texts["f"] == 4
    assert [texts[letter] for letter in "ghijk"] == [2, 2, 2, 2, 1]
    (k,) = [label for label in model.labels if label.text == "k"]
    k6 = model.cell("k6")
    assert k.y == pytest.approx(k6.y) and k.x > k6.x


def _pieces(model: RenderModel) -> Counter[tuple[int | None, str]]:
    return Counter(
        (piece.owner, piece.label or piece.shape) for cell in model.cells for piece in cell.stack
    )


def test_pieces_match_the_position_text() -> None:
    model = pos(DEPLOYED).render_model()
    board = DEPLOYED.split()[0]
    expected: Counter[tuple[int | None, str]] = Counter()
    for letter in board:
        if letter == "M":
            expected[None, "triangle"] += 1
        elif letter.upper() in UNIT_LETTERS:
            expected[0 if letter.isupper() else 1, letter.upper()] += 1
    assert _pieces(model) == expected
    assert model.cell("e2").stack[0].kind == "king" and model.cell("b7").stack[0].owner is None
    # One piece a hex, named as the picture's titles name it (no "x2" on any of them).
    assert {piece.count for cell in model.cells for piece in cell.stack} == {1}
    names = {piece_name(model, piece) for cell in model.cells for piece in cell.stack}
    assert {"neutral mountain", "South king", "North trebuchet"} <= names
    assert {cell.kind for cell in model.cells} == {"normal"}
    assert model.phase == "play" and model.to_move == 1 and model.status == "North to move"
    assert [pool.pieces for pool in model.pools] == [(), ()]
    assert RenderModel.from_json(model.to_json()) == model


def test_lost_units_go_to_the_pool_and_the_outcome_is_the_status() -> None:
    state = pos("6/7/8/5r3/10/2k8/10/9/2L5/7/K5 S - - 7 40")
    state.play("c3xc6")
    model = state.render_model()
    north = model.pools[0]
    assert north.title == "Captured from North" and model.to_move is None and model.phase == "over"
    lost = {piece.label: piece.count for piece in north.pieces}
    assert {piece.owner for piece in north.pieces} == {1}
    assert lost == {"K": 1, "D": 1, "E": 2, "H": 2, "L": 2, "S": 2, "R": 2, "B": 2, "C": 1, "T": 1}
    assert model.status == "Game over: South won (King captured)"


def _deploying(south: int, north: int, seed: int, north_seed: int = 0) -> CyvasseState:
    """South has placed ``south`` items (all 19 if North has begun) drawn with ``seed``, North
    ``north`` items drawn with ``north_seed``."""
    state = game().new_initial_state()
    for count, rng in ((south, random.Random(seed)), (north, random.Random(north_seed))):
        for _ in range(count):
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_the_other_sides_deployment_is_hidden_whatever_it_is() -> None:
    for south, north, changed in (
        (6, 0, _deploying(6, 0, seed=2)),
        (19, 4, _deploying(19, 4, seed=1, north_seed=2)),
    ):
        hider = 0 if north == 0 else 1
        watcher = 1 - hider
        state = _deploying(south, north, seed=1)
        assert state.position_text() != changed.position_text()
        for view in (watcher, SPECTATOR):
            model = state.render_model(view=view)
            assert model.to_json() == changed.render_model(view=view).to_json()
            hidden = [cell for cell in model.cells if cell.kind == "hidden"]
            zones = {hider} if view == watcher else {0, hider}
            assert len(hidden) == 40 * len(zones) and {cell.owner for cell in hidden} == zones
            assert not any(cell.stack for cell in hidden)
            assert model.pools[1 - hider].pieces[0].hidden
    more = _deploying(19, 9, seed=1, north_seed=3).render_model(view=0)
    assert more.to_json() == _deploying(19, 4, seed=1).render_model(view=0).to_json()


def test_the_spectator_sees_no_zone_still_hidden_but_each_side_its_own() -> None:
    state = _deploying(19, 4, seed=1)
    spectator = state.render_model(view=SPECTATOR)
    assert {cell.owner for cell in spectator.cells if cell.kind == "hidden"} == {0, 1}
    assert not any(cell.stack for cell in spectator.cells)
    assert spectator.status == "North deploys in secret"
    north = state.render_model(view=1)
    assert sum(len(cell.stack) for cell in north.cells) == 4
    assert north.status == "North deploys: next item H (15 left)"
    assert state.view_text(SPECTATOR) == "6/7/8/9/10/11/10/9/8/7/6 N d - 0 1"
    opening = game().new_initial_state()
    assert {cell.kind for cell in opening.render_model(view=1).cells} == {
        "hidden",
        "zone",
        "normal",
    }
    assert {cell.kind for cell in opening.render_model(view=0).cells} == {"zone", "normal"}


def test_after_deployment_everyone_sees_everything() -> None:
    state = game().new_initial_state()
    for name in ("classic", "classic"):
        for action in lineup_decisions(state, PRESETS[name]):
            state.apply_action(action)
    full = state.render_model()
    for view in (0, 1, SPECTATOR):
        assert state.render_model(view=view).cells == full.cells


def _paths(state: CyvasseState) -> dict[str, ClickPath]:
    return {state.action_to_str(a): path for a, path in state.click_paths().items()}


def test_click_paths_are_what_a_player_expects() -> None:
    shots = _paths(pos("5k/7/8/5rr2/5Mr3/5C5/10/9/8/7/K5 S - - 0 2"))
    assert shots["f6*g7"] == ClickPath(("f6", "g7")) and shots["f6-d4"] == ClickPath(("f6", "d4"))
    cavalry = pos("5k/7/8/9/10/4r6/10/9/2L5/7/K5 S - - 0 2", cavalry_second_optional=True)
    assert _paths(cavalry)["c3xe6"] == ClickPath(("c3", "e6"))
    cavalry.play("c3-c6")
    second = _paths(cavalry)
    assert second["end"] == ClickPath(button="end") and second["c6-c4"] == ClickPath(("c6", "c4"))
    assert cavalry.render_model().status == "South to move: second jump after c3-c6"
    stuck = pos("5k/7/8/9/10/11/10/9/8/MM5/KM4 S - - 0 2")
    assert _paths(stuck) == {"pass": ClickPath(button="pass")}
    opening = game().new_initial_state()
    assert opening.next_item() == "K"
    assert _paths(opening)["K@e2"] == ClickPath(("e2",))


def test_notes_name_the_hidden_deployments_a_forced_pass_and_the_counters() -> None:
    deploying = _deploying(19, 4, seed=1)
    assert deploying.render_model(view=SPECTATOR).notes == (
        "South's deployment is hidden",
        "North's deployment is hidden",
        "Ply 1, plies without capture 0",
    )
    assert deploying.render_model(view=1).notes == (
        "South's deployment is hidden",
        "Ply 1, plies without capture 0",
    )
    assert deploying.render_model(view=0).notes[0] == "North's deployment is hidden"
    stuck = pos("5k/7/8/9/10/11/10/9/8/MM5/KM4 S - - 0 2")
    stuck.play("pass")
    assert stuck.render_model().notes == (
        "The previous ply was a forced pass",
        "Ply 3, plies without capture 1",
    )
    # South passes again: the game is a draw, and the note gives way to the outcome.
    drawn = pos("5k/7/8/9/10/11/10/9/8/MM5/KM4 S - p 4 9")
    model = drawn.render_model()
    assert model.notes == ("Ply 9, plies without capture 4",)
    assert model.status == "Game over: draw (no side could move)"


def test_s4_pools_hold_what_each_side_has_still_to_deploy() -> None:
    """With an open deployment: South has placed all 19, North 4 of them (K, D, E, E)."""
    state = _deploying(19, 4, seed=1, north_seed=2)
    state = game(hidden_setup=False).state_from_text(state.position_text())
    for view in (0, 1, SPECTATOR):
        north, south = state.render_model(view=view).pools
        assert (north.title, south.title) == ("North to deploy", "South to deploy")
        left = {(piece.label or piece.kind): piece.count for piece in north.pieces}
        assert left == {"H": 2, "L": 2, "S": 2, "R": 3, "B": 2, "C": 1, "T": 1, "mountain": 2}
        assert south.pieces == ()
        assert {piece.owner for piece in north.pieces if piece.kind != "mountain"} == {1}
    opening = game(hidden_setup=False).new_initial_state()
    opening.play("K@e2+D@e1")
    north, south = opening.render_model(view=1).pools
    assert sum(piece.count for piece in north.pieces) == 19
    assert sum(piece.count for piece in south.pieces) == 17
    assert "K" not in {piece.label for piece in south.pieces}


def test_pools_are_drawn_inside_the_picture_north_above_the_board_and_south_below() -> None:
    """The pools' boxes (as the SVG draws them) stay inside the extent and clear of the board
    and its letters, also with every kind of unit lost."""
    captured = pos("6/7/8/5r3/10/2k8/10/9/2L5/7/K5 S - - 7 40")
    captured.play("c3xc6")
    for state in (game().new_initial_state(), captured):
        model = state.render_model()
        left, top, width, height = model.extent
        assert left == -(left + width) and top == -(top + height)  # centred on the board
        board = [(cell.x, cell.y) for cell in model.cells]
        board += [(label.x, label.y) for label in model.labels]
        north, south = model.pools
        for pool in (north, south):
            assert left <= pool.x and pool.x + pool_width(pool) <= left + width
            assert top <= pool.y and pool.y + POOL_HEIGHT <= top + height
        assert north.y + POOL_HEIGHT < min(y for _, y in board) - RADIUS / 2
        assert north.y + POOL_HEIGHT == pytest.approx(-south.y)  # as far from the board
        assert south.y > max(y for _, y in board) + RADIUS / 2
        assert all(left < x < left + width for x, _ in board)


def test_s2_ranks_are_numbered_left_named_right_and_lettered_below_and_above() -> None:
    """Where a reader finds each label: the rank's number just left of its first hex and the
    letter of its last hex just right of it, at the rank's height; the letters of rank 1 under
    its hexes and those of rank 11 over theirs (y grows downwards). Nothing else is written."""
    model = pos(DEPLOYED).render_model()
    expected = []  # text, the hex it labels, the direction from the hex to the label
    for rank in range(1, RANKS + 1):
        files = LETTERS[: RANK_LEN[rank - 1]]
        expected += [(str(rank), f"a{rank}", (-1, 0)), (files[-1], f"{files[-1]}{rank}", (1, 0))]
        if rank in (1, RANKS):
            expected += [
                (letter, f"{letter}{rank}", (0, 1 if rank == 1 else -1)) for letter in files
            ]
    assert len(model.labels) == len(expected) == 2 * RANKS + 12
    remaining = list(model.labels)
    for text, name, (dx, dy) in expected:
        cell = model.cell(name)
        found = [
            label
            for label in remaining
            if label.text == text
            and RADIUS < dx * (label.x - cell.x) + dy * (label.y - cell.y) < 3 * RADIUS
            and dy * (label.x - cell.x) - dx * (label.y - cell.y) == pytest.approx(0)
        ]
        assert found, f"no label {text!r} by {name}"
        remaining.remove(found[0])
    assert remaining == []


def test_s4_a_hidden_deployment_shows_as_one_unknown_item_in_the_hiders_colour() -> None:
    """While North deploys, South's picture shows North's pool as a single `?` of North's,
    titled as such, and the spectator's shows both pools so; the phase is the deployment."""
    state = _deploying(19, 4, seed=1)
    for view, hidden in ((0, (1,)), (SPECTATOR, (1, 0))):
        model = state.render_model(view=view)
        assert model.phase == "deployment"
        assert [(pool.id, pool.owner) for pool in model.pools] == [
            ("North-pool", 1),
            ("South-pool", 0),
        ]
        for side in hidden:
            (piece,) = model.pools[1 - side].pieces
            assert piece == Piece(side, "item", "?", hidden=True)
            assert piece_name(model, piece) == f"hidden piece of {('South', 'North')[side]}"
