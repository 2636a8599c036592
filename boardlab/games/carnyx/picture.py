"""The picture of a Carnyx position (render model) and the click path of a decision.

Rank 1, Dark's home rank, is at the bottom and c3 is the centre. A stack lists its pieces
bottom to top, runs of one colour as one entry with a count. Beside the board, Light's pools
are at the top and Dark's at the bottom: the reserve (the unplaced pieces during setup) next
to its home rank, the supply between. While the game is played, a round cell ``off`` lies
beyond the far edge of the side to move: exits go there.

Click paths: a setup placement is its square; a deployment the mover's reserve piece ``R``,
then the square (``R@a1`` is R, a1); a move or capture its origin and target; an exit its
origin and ``off``, then the re-entry square if one is named (``b5-off@b1`` is b5, off, b1);
``H`` and ``pass`` are buttons.
"""

from __future__ import annotations

from itertools import groupby
from typing import TYPE_CHECKING

from boardlab.core.render_layout import LABEL_OFFSET, POOL_HEIGHT, extent, grid_labels, pool_width
from boardlab.core.render_model import Cell, ClickPath, Piece, Pool, RenderModel
from boardlab.games.carnyx.board import (
    CENTRE,
    COLOURS,
    DEPLOY_BASE,
    EXIT_BASE,
    FILES,
    HOME,
    HUNKER,
    MOVE_BASE,
    MOVE_TARGET,
    NAMES,
    PASS,
    SETUP_BASE,
    SIZE,
)
from boardlab.games.carnyx.render import note_lines, pool_lines, status_line

if TYPE_CHECKING:
    from boardlab.games.carnyx.state import CarnyxState

SEAT_COLOURS = ("#2E2B28", "#FBF7EE")
"""Dark's and Light's disks (spec §1)."""
RESERVE = "R"
"""The id of the reserve piece of the side to move, clicked first to deploy (as in ``R@a1``)."""
OFF = "off"
"""The id of the cell beyond the far edge that exits go to (the ``off`` of ``c4-off``)."""
OFF_RADIUS = 0.4
OFF_DISTANCE = 1.2
"""How far the centre of ``off`` lies outside the board: beyond the file labels."""
POOL_X = SIZE + LABEL_OFFSET + 0.6
_OFF_Y = (-OFF_DISTANCE, SIZE + OFF_DISTANCE)
"""Where ``off`` lies for each seat: Dark exits across rank 5 (top), Light across rank 1."""


def _stack(letters: str) -> tuple[Piece, ...]:
    """Pieces bottom to top, each run of one colour one entry with its count."""
    return tuple(
        Piece(COLOURS.index(colour), "disc", count=len(list(run)))
        for colour, run in groupby(letters)
    )


def _square(square: int, letters: str) -> Cell:
    rank = square // SIZE
    kind, owner = "normal", None
    if square == CENTRE:
        kind = "centre"
    elif rank in (0, SIZE - 1):
        kind, owner = "home", 0 if rank == 0 else 1
    return Cell(
        id=NAMES[square],
        shape="square",
        x=square % SIZE + 0.5,
        y=SIZE - 1 - rank + 0.5,
        size=1.0,
        kind=kind,
        owner=owner,
        stack=_stack(letters),
    )


def _pools(state: CarnyxState) -> tuple[Pool, ...]:
    """Each seat's supply, and its reserve, or its unplaced pieces during setup."""
    names = state.game.player_names
    slots: list[tuple[int, str, str, tuple[Piece, ...]]] = []
    for seat in (1, 0):  # Light's pools at the top, Dark's at the bottom
        unplaced, supply, reserve = state.pools[3 * seat : 3 * seat + 3]
        letter = COLOURS[seat]
        if state.in_setup:
            near = (f"unplaced-{letter}", "unplaced", Piece(seat, "disc", count=unplaced))
        else:
            clickable = RESERVE if seat == state.side and state.outcome is None else ""
            near = (
                f"reserve-{letter}",
                "reserve",
                Piece(seat, "disc", count=reserve, id=clickable),
            )
        far = (f"supply-{letter}", "supply", Piece(seat, "disc", count=supply))
        for pool_id, what, piece in (near, far) if seat == 1 else (far, near):
            slots.append((seat, pool_id, f"{names[seat]} {what}", (piece,) if piece.count else ()))
    return tuple(
        Pool(pool_id, title, seat, POOL_X, round(index * POOL_HEIGHT - 0.3, 3), pieces)
        for index, (seat, pool_id, title, pieces) in enumerate(slots)
    )


def render_model(state: CarnyxState) -> RenderModel:
    """The board, the pools, the hunker set and no-return memory, and the side to move."""
    names = state.game.player_names
    outcome = state.outcome
    cells = [_square(square, letters) for square, letters in enumerate(state.board)]
    playing = outcome is None and not state.in_setup
    offs = [Cell(OFF, "circle", SIZE / 2, y, OFF_RADIUS, kind="exit", label="off") for y in _OFF_Y]
    labels = grid_labels(FILES, [str(rank) for rank in range(SIZE, 0, -1)])
    pools = _pools(state)
    # The extent does not depend on the position: both places of ``off`` and the widest
    # pool title are inside it, so the picture keeps its size through the game.
    width = max(pool_width(f"{name} unplaced", 1) for name in names)
    boxes = [(pool.x, pool.y, width, POOL_HEIGHT) for pool in pools]
    if playing:
        cells.append(offs[state.side])
    phase = "over" if outcome is not None else "setup" if state.in_setup else "play"
    return RenderModel(
        game=state.game.id,
        players=names,
        extent=extent(cells + offs, labels, boxes),
        cells=tuple(cells),
        labels=labels,
        pools=pools,
        to_move=None if outcome is not None else state.side,
        phase=phase,
        status=status_line(state, example=False),
        notes=(*pool_lines(state, align=False), *note_lines(state)),
        seat_colours=SEAT_COLOURS,
    )


def click_path(state: CarnyxState, action: int) -> ClickPath:
    """The squares, reserve piece, ``off`` cell or button that make ``action`` (module doc)."""
    if action == HUNKER:
        return ClickPath(button="H")
    if action == PASS:
        return ClickPath(button="pass")
    if action < DEPLOY_BASE:
        return ClickPath(targets=(NAMES[action - SETUP_BASE],))
    if action < MOVE_BASE:
        return ClickPath(targets=(RESERVE, NAMES[action - DEPLOY_BASE]))
    if action < EXIT_BASE:
        origin = (action - MOVE_BASE) >> 3
        return ClickPath(targets=(NAMES[origin], NAMES[MOVE_TARGET[action - MOVE_BASE]]))
    origin, slot = divmod(action - EXIT_BASE, 6)
    reentry = (NAMES[HOME[state.side][slot - 1]],) if slot else ()
    return ClickPath(targets=(NAMES[origin], OFF, *reentry))
