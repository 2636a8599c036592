"""The picture of a Cyvasse position (render model) and the clicks of each decision.

The 91 pointy-top hexes lie in 11 rows, rank 1 (South, seat 0) at the bottom, with neighbouring
centres 1.0 apart; each rank is numbered at both ends and the letters of ranks 1 and 11 stand
below and above them (letters count from the left within each rank). During deployment each
side's five ranks are cells of kind ``zone`` owned by that side, and a zone this view may not
see is of kind ``hidden`` and empty. Units are discs labelled with their letter, Mountains
neutral triangles. Pools above (North) and below (South) the board hold the items a side has
still to deploy, then the units it has lost.
"""

from __future__ import annotations

import math

from boardlab.core.render_model import Cell, ClickPath, Label, Piece, Pool, RenderModel
from boardlab.games.cyvasse.board import (
    AXIAL,
    HEX_NAMES,
    LETTERS,
    NUM_HEXES,
    RANK_LEN,
    RANK_START,
    RANKS,
    ZONE_OF,
)
from boardlab.games.cyvasse.position import format_step
from boardlab.games.cyvasse.state import END, MOVE_BASE, PASS, CyvasseState
from boardlab.games.cyvasse.units import (
    EMPTY,
    ITEM_LETTERS,
    MOUNTAIN,
    MOUNTAIN_ITEM,
    UNIT_LETTERS,
    cell_kind,
    cell_side,
)

RADIUS = 1 / math.sqrt(3)
"""Circumradius of a hex whose neighbours' centres are 1.0 apart."""
ROW = 1.5 * RADIUS
"""Vertical distance between the centres of two ranks."""
LABEL_GAP = 0.45
MARGIN = 0.3
POOL_HEIGHT = 1.4
UNIT_KINDS = (
    "king",
    "dragon",
    "elephant",
    "heavy-horse",
    "light-horse",
    "spearman",
    "rabble",
    "crossbowman",
    "catapult",
    "trebuchet",
)
"""Machine names of the units, by kind index (the order of ``UNIT_LETTERS``)."""


def _centre(h: int) -> tuple[float, float]:
    """Board-unit centre of a hex: the pointy-top layout of its axial coordinates."""
    q, r = AXIAL[h]
    return q + r / 2, r * ROW


def item_piece(item: int, side: int, count: int = 1) -> Piece:
    """An item of ``side`` by its ``ITEM_LETTERS`` index: a unit, or a (neutral) Mountain."""
    if item == MOUNTAIN_ITEM:
        return Piece(None, "mountain", count=count, shape="triangle")
    return Piece(side, UNIT_KINDS[item], UNIT_LETTERS[item], count=count)


def _cell_pieces(cell: int) -> tuple[Piece, ...]:
    """The stack of a board cell code: nothing, a Mountain or one unit."""
    if cell == EMPTY:
        return ()
    if cell == MOUNTAIN:
        return (item_piece(MOUNTAIN_ITEM, 0),)
    return (item_piece(cell_kind(cell), cell_side(cell)),)


def _cell(state: CyvasseState, h: int) -> Cell:
    """Hex ``h`` as this state may show it (a hidden zone shows nothing)."""
    x, y = _centre(h)
    zone = ZONE_OF[h]
    kind, owner = "normal", None
    if state.deploying and zone >= 0:
        kind, owner = ("hidden" if zone in state.hidden_zones else "zone"), zone
    stack = () if kind == "hidden" else _cell_pieces(state.board[h])
    return Cell(HEX_NAMES[h], "hex", x, y, RADIUS, kind, owner, stack=stack)


def _labels() -> tuple[Label, ...]:
    """Rank numbers at the left end of each rank, and at its right end the letter of its last
    hex (files g-k reach the board's edge only there); letters below rank 1 and above rank 11."""
    labels = []
    for rank in range(RANKS, 0, -1):
        first = RANK_START[rank - 1]
        last = first + RANK_LEN[rank - 1] - 1
        x, y = _centre(first)
        labels.append(Label(str(rank), x - (0.5 + LABEL_GAP), y))
        x, y = _centre(last)
        labels.append(Label(LETTERS[last - first], x + 0.5 + LABEL_GAP, y))
    for rank, side in ((1, 1), (RANKS, -1)):
        start = RANK_START[rank - 1]
        for index in range(RANK_LEN[rank - 1]):
            x, y = _centre(start + index)
            labels.append(Label(LETTERS[index], x, y + side * (RADIUS + LABEL_GAP)))
    return tuple(labels)


LABELS = _labels()
EDGE = max(abs(label.x) for label in LABELS)
"""Half the width covered by the board and its rank numbers."""
TOP = RANKS // 2 * ROW + RADIUS + LABEL_GAP
"""Distance from the centre to the letters above rank 11 (and below rank 1)."""
POOL_TOP = TOP + 0.4
"""Distance from the centre to the near edge of each pool."""
ROWS_DOWN = tuple(
    h
    for rank in range(RANKS, 0, -1)
    for h in range(RANK_START[rank - 1], RANK_START[rank - 1] + RANK_LEN[rank - 1])
)
"""Hex indices from the top rank down, each rank from the left."""


def render_model(state: CyvasseState) -> RenderModel:
    """The picture of ``state``; a view state hides the zones in its ``hidden_zones``."""
    names = state.game.player_names
    pools = (
        _pool(state, 1, round(-POOL_TOP - POOL_HEIGHT, 4)),
        _pool(state, 0, round(POOL_TOP, 4)),
    )
    bottom = round(POOL_TOP + POOL_HEIGHT + MARGIN, 4)
    terminal = state.is_terminal()
    return RenderModel(
        game=state.game.id,
        players=names,
        extent=(-EDGE - MARGIN, -bottom, round(2 * (EDGE + MARGIN), 4), 2 * bottom),
        cells=tuple(_cell(state, h) for h in ROWS_DOWN),
        labels=LABELS,
        pools=pools,
        to_move=None if terminal else state.side,
        phase="over" if terminal else "deployment" if state.deploying else "play",
        status=_status(state),
        notes=_notes(state),
    )


def _pool(state: CyvasseState, side: int, y: float) -> Pool:
    """A side's pool at height ``y``: items to deploy (unknown if hidden), or units lost."""
    name = state.game.player_names[side]
    title, pieces = _pool_contents(state, side)
    return Pool(f"{name}-pool", title, side, -EDGE, y, pieces)


def _pool_contents(state: CyvasseState, side: int) -> tuple[str, tuple[Piece, ...]]:
    """Title and pieces of a side's pool."""
    name = state.game.player_names[side]
    counts = state.game.counts
    if state.deploying:
        title = f"{name} to deploy"
        if side in state.hidden_zones:
            return title, (Piece(side, "item", "?", hidden=True),)
        order = state.game.order
        placed = state.placed if side == state.side else 0 if side > state.side else len(order)
        left = [0] * len(ITEM_LETTERS)
        for item in order[placed:]:
            left[item] += 1
        return title, tuple(item_piece(i, side, n) for i, n in enumerate(left) if n)
    standing = [0] * len(UNIT_LETTERS)
    for cell in state.board:
        if cell > MOUNTAIN and cell_side(cell) == side:
            standing[cell_kind(cell)] += 1
    lost = tuple(
        item_piece(kind, side, counts[kind] - standing[kind])
        for kind in range(len(UNIT_LETTERS))
        if counts[kind] > standing[kind]
    )
    return f"Captured from {name}", lost


def _status(state: CyvasseState) -> str:
    """One sentence: the outcome, the deployment step or the side to move."""
    names = state.game.player_names
    name = names[state.side]
    if state.outcome is not None:
        return "Game over: " + state.outcome.describe(names)
    if state.deploying:
        if state.side in state.hidden_zones:
            return f"{name} deploys in secret"
        left = len(state.game.order) - state.placed
        return f"{name} deploys: next item {state.next_item()} ({left} left)"
    if state.jump is not None:
        return f"{name} to move: second jump after {format_step(state)}"
    return f"{name} to move"


def _notes(state: CyvasseState) -> tuple[str, ...]:
    """The hidden deployments, a forced pass just played and the counters."""
    names = state.game.player_names
    notes = [f"{names[zone]}'s deployment is hidden" for zone in state.hidden_zones]
    if state.passed and state.outcome is None:
        notes.append("The previous ply was a forced pass")
    notes.append(f"Ply {state.ply}, plies without capture {state.no_capture}")
    return tuple(notes)


def click_path(state: CyvasseState, action: int) -> ClickPath:
    """What a player clicks: the hex of a placement (the next item is fixed), the two hexes of
    a move, melee attack or shot, or the ``end`` or ``pass`` button."""
    if action < MOVE_BASE:
        return ClickPath((HEX_NAMES[action],))
    if action == END:
        return ClickPath(button="end")
    if action == PASS:
        return ClickPath(button="pass")
    frm, to = divmod(action - MOVE_BASE, NUM_HEXES)
    return ClickPath((HEX_NAMES[frm], HEX_NAMES[to]))
