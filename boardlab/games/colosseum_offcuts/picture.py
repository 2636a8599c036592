"""The picture of a Colosseum Offcuts position (render model) and the clicks of each decision.

The grid is unbounded, so the picture shows the footprint's bounding box grown by one cell on
every side (3 x 3 around ``0,0`` before the first placement): every cell a legal decision can
name touches an occupied cell, so it is drawn. North is up, as in the terminal drawing. A Board
Piece is a disc and a Fortification a square; the face is ``light`` in Mobile mode and ``dark``
in Attack mode. Pools beside the board hold the counters each seat has still to place (setup)
or the Fortifications it has lost (play).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardlab.core.render_model import Cell, ClickPath, Label, Piece, Pool, RenderModel
from boardlab.games.colosseum_offcuts import rules
from boardlab.games.colosseum_offcuts.board import ATTACK, FORT

if TYPE_CHECKING:
    from boardlab.games.colosseum_offcuts.state import ColosseumState

LABEL_GAP = 0.45
"""Distance of the coordinate labels from the outer cell edges."""
MARGIN = 0.3
POOL_HEIGHT = 1.4
POOL_GAP = 0.2
PER_KIND = 2
"""Board Pieces, and Fortifications, of each seat (spec §3)."""


def counter_piece(counter: int, count: int = 1) -> Piece:
    """A counter as a piece: Fortification square or Board Piece disc, light or dark face."""
    fort = bool(counter & FORT)
    return Piece(
        owner=counter >> 2,
        kind="fortification" if fort else "board-piece",
        label="F" if fort else "B",
        face="dark" if counter & ATTACK else "light",
        count=count,
        shape="square" if fort else "disc",
    )


def _area(state: ColosseumState) -> tuple[int, int, int, int]:
    """West, east, south and north grid bounds of the drawn cells."""
    stacks = state.stacks
    xs = [x for x, _ in stacks] or [0]
    ys = [y for _, y in stacks] or [0]
    return min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1


def render_model(state: ColosseumState) -> RenderModel:
    """The picture of ``state`` (Colosseum has no hidden information)."""
    west, east, south, north = _area(state)
    cells = tuple(
        Cell(
            id=f"{x},{y}",
            shape="square",
            x=float(x),
            y=float(-y),
            size=1.0,
            stack=tuple(counter_piece(c) for c in state.stacks.get((x, y), ())),
        )
        for y in range(north, south - 1, -1)
        for x in range(west, east + 1)
    )
    reach = 0.5 + LABEL_GAP
    labels = [
        Label(str(x), float(x), edge)
        for x in range(west, east + 1)
        for edge in (-north - reach, -south + reach)
    ]
    labels += [
        Label(str(y), edge, float(-y))
        for y in range(north, south - 1, -1)
        for edge in (west - reach, east + reach)
    ]
    pools = _pools(state, east + reach + 0.6, -north - 0.5)
    right = max(pool.x + _pool_width(pool) for pool in pools)
    bottom = max(-south + reach, pools[-1].y + POOL_HEIGHT)
    min_x, min_y = west - reach - MARGIN, -north - reach - MARGIN
    terminal = state.is_terminal()
    return RenderModel(
        game=state.game.id,
        players=state.game.player_names,
        extent=(min_x, min_y, right + MARGIN - min_x, bottom + MARGIN - min_y),
        cells=cells,
        labels=tuple(labels),
        pools=pools,
        to_move=None if terminal else state.side,
        phase="setup" if state.setup else "over" if terminal else "play",
        status=_status(state),
        notes=_notes(state),
    )


def _pool_width(pool: Pool) -> float:
    """The drawn width of a pool (RENDER-CONVENTIONS: slots of 0.9, or the title's length)."""
    return max(0.9 * len(pool.pieces) + 0.9, 0.22 * len(pool.title))


def _pools(state: ColosseumState, x: float, top: float) -> tuple[Pool, ...]:
    """One pool per seat, stacked beside the board: counters to place, or Fortifications lost."""
    placed = [[0, 0] for _ in range(state.game.players)]
    for stack in state.stacks.values():
        for counter in stack:
            placed[counter >> 2][1 if counter & FORT else 0] += 1
    pools = []
    for seat, (bps, forts) in enumerate(placed):
        name = state.game.player_names[seat]
        base = seat << 2
        if state.setup:
            title = f"{name} to place"
            pieces = [
                counter_piece(base | kind, PER_KIND - have)
                for kind, have in ((0, bps), (FORT, forts))
                if have < PER_KIND
            ]
        else:
            title = f"Captured from {name}"
            lost = PER_KIND - forts
            pieces = [Piece(seat, "fortification", "F", count=lost, shape="square")] if lost else []
        y = round(top + seat * (POOL_HEIGHT + POOL_GAP), 4)
        pools.append(Pool(f"{name}-pool", title, seat, x, y, tuple(pieces)))
    return tuple(pools)


def _status(state: ColosseumState) -> str:
    """One sentence: the outcome, the setup placement, or the action of the turn to play."""
    name = state.game.player_names[state.side]
    if state.outcome is not None:
        return "Game over: " + state.outcome.describe(state.game.player_names)
    if state.setup:
        kind = "a Fortification" if state.setup >= 4 else "a Board Piece"
        return f"{name} places {kind} (setup step S{state.setup})"
    if state.first is None:
        return f"{name} to move: action 1 of 2"
    return f"{name} to move: action 2 of 2, after {state.first}"


def _notes(state: ColosseumState) -> tuple[str, ...]:
    """The seats' counters and eliminations, and the draw counters (as the terminal shows)."""
    notes = []
    for seat, name in enumerate(state.game.player_names):
        counters = [c for stack in state.stacks.values() for c in stack if c >> 2 == seat]
        forts = sum(1 for c in counters if c & FORT)
        out = " (eliminated)" if not state.setup and not forts else ""
        notes.append(f"{name}: {len(counters) - forts} Board Pieces, {forts} Fortifications{out}")
    notes.append(
        f"Ply {state.ply}; turns without capture {state.no_capture}; "
        f"forced passes in a row {state.forced_pass}"
    )
    return tuple(notes)


def click_path(state: ColosseumState, action: int) -> ClickPath:
    """What a player clicks for one decision.

    A placement is its cell; a flip is the counter's cell clicked twice; a Mobile or Attack
    move is its origin, then its destination. When an Attack move and a Mobile move share both
    cells (the player's Attack-mode counter on top of their own Mobile one), the Mobile move,
    which carries the whole stack, takes a third click on the destination. ``pass`` is a
    button.
    """
    window = state.game.window
    cells = window.cells
    if action == rules.pass_action(window):
        return ClickPath(button="pass")
    if action < cells:
        return ClickPath((_name(state, action),))
    if action < 2 * cells:
        here = _name(state, action - cells)
        return ClickPath((here, here))
    if action < 6 * cells:
        origin, direction = divmod(action - 2 * cells, 4)
        return ClickPath((_name(state, origin), _name(state, window.steps[origin][direction])))
    origin, dest = divmod(action - 6 * cells, cells)
    path = (_name(state, origin), _name(state, dest))
    if dest in window.steps[origin]:
        attack = 2 * cells + 4 * origin + window.steps[origin].index(dest)
        if attack in state.legal_actions():
            return ClickPath((*path, path[1]))
    return ClickPath(path)


def _name(state: ColosseumState, index: int) -> str:
    """The notation name of a window index of the current frame."""
    frame = state.frame()
    rx, ry = divmod(index, state.game.window.size)
    return f"{rx + frame.ax},{ry + frame.ay}"
