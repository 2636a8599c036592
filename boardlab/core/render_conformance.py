"""The render-model harness every game passes: pictures and click paths of random positions.

At every decision of seeded random playouts it checks that the render model is well formed
(cell ids unique, every cell and pool inside the extent, seats and players consistent), that
its JSON round-trips, that every seat's view and the spectator's view can be drawn, and that
the click paths of the legal decisions are complete (every decision has one), point only at
ids the picture has (also in the view of the seat to move), and are distinct (no two
decisions share one path).
"""

from __future__ import annotations

import random

from boardlab.core.conformance import ConformanceError
from boardlab.core.game import Game
from boardlab.core.render_model import SPECTATOR, RenderModel
from boardlab.core.state import State


def _fail(state: State, what: str) -> ConformanceError:
    return ConformanceError(f"{state.game.id}: {what} at {state.position_text()!r}")


def check_model(state: State, model: RenderModel) -> None:
    """Check the shape of one render model of ``state``."""
    game = state.game
    if model.game != game.id or model.players != game.player_names:
        raise _fail(state, "render model names the wrong game or players")
    ids = [cell.id for cell in model.cells]
    if len(set(ids)) != len(ids):
        raise _fail(state, "two cells share an id")
    min_x, min_y, width, height = model.extent
    for cell in model.cells:
        reach = cell.size / 2 if cell.shape == "square" else cell.size
        inside_x = min_x <= cell.x - reach and cell.x + reach <= min_x + width
        inside_y = min_y <= cell.y - reach and cell.y + reach <= min_y + height
        if not (inside_x and inside_y):
            raise _fail(state, f"cell {cell.id} lies outside the extent")
    owners = [piece.owner for cell in model.cells for piece in cell.stack]
    owners += [piece.owner for pool in model.pools for piece in pool.pieces]
    if any(owner is not None and not 0 <= owner < game.num_players for owner in owners):
        raise _fail(state, "a piece belongs to no seat of the game")
    if any(piece.count < 1 for cell in model.cells for piece in cell.stack):
        raise _fail(state, "a stack holds a piece entry with count below 1")
    if state.is_terminal() != (model.to_move is None):
        raise _fail(state, "to_move is set exactly when the game is not over")
    if RenderModel.from_json(model.to_json()) != model:
        raise _fail(state, "render model JSON does not round-trip")


def check_click_paths(state: State, model: RenderModel) -> None:
    """Every legal decision has one distinct click path onto ids of ``model``."""
    known = {cell.id for cell in model.cells}
    known |= {piece.id for pool in model.pools for piece in pool.pieces if piece.id}
    paths = state.click_paths()
    if set(paths) != set(state.legal_actions()):
        raise _fail(state, "click paths do not cover exactly the legal decisions")
    seen: dict[object, int] = {}
    for action, path in paths.items():
        if bool(path.targets) == bool(path.button):
            raise _fail(state, f"{state.action_to_str(action)}: give targets or a button")
        unknown = [target for target in path.targets if target not in known]
        if unknown:
            raise _fail(state, f"{state.action_to_str(action)} clicks unknown ids {unknown}")
        key = (path.targets, path.button)
        if key in seen:
            names = state.action_to_str(seen[key]), state.action_to_str(action)
            raise _fail(state, f"{names[0]} and {names[1]} share one click path")
        seen[key] = action


def check_pictures(state: State) -> None:
    """Check the full model, every seat's view and the spectator view of one state."""
    model = state.render_model()
    check_model(state, model)
    check_click_paths(state, model)
    for view in (*range(state.game.num_players), SPECTATOR):
        seen = state.render_model(view=view)
        check_model(state, seen)
        if not state.is_terminal() and view == state.current_player:
            check_click_paths(state, seen)


def run_render_conformance(game: Game, playouts: int, seed: int) -> int:
    """Check the pictures of every position of ``playouts`` random games; returns how many."""
    rng = random.Random(seed)
    checked = 0
    for _ in range(playouts):
        state = game.new_initial_state()
        while True:
            check_pictures(state)
            checked += 1
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
    return checked
