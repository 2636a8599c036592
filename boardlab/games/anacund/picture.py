"""The picture of an Anacund position (render model) and the click path of a placement.

The ring of 36 squares is the perimeter of the 3 x 17 rectangle (spec §2): squares 1-17 along
the top row left to right, 18 in the middle of the right end, 19-35 along the bottom row right
to left, 36 in the middle of the left end; the middle cells of columns 2-16 are not squares.
Each square shows its value from the layout; the bonus square is a cell of kind ``bonus``
until it is blocked (the notes always name it).
Square numbers are labels outside the rectangle, and a captured piece lies further out beside
its square, on a round cell ``beside-N`` of kind ``captured``, in its captor's colour.

Each player's groups are a pool, A's below the board and B's above: one entry per group size,
labelled with the size, with a count when two or three groups have that size. The side to
move's entries are clickable, with ids such as ``A6`` (A's group of six). A placement ``6@19``
is clicked as the group, then the square: ``A6``, ``19``.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import TYPE_CHECKING

from boardlab.core.render_layout import LABEL_OFFSET, POOL_HEIGHT, Box, extent, pool_width
from boardlab.core.render_model import Cell, ClickPath, Label, Piece, Pool, RenderModel
from boardlab.games.anacund import rules
from boardlab.games.anacund.board import COLUMNS, SQUARES
from boardlab.games.anacund.notation import decode
from boardlab.games.anacund.position import SIDES
from boardlab.games.anacund.render import (
    last_placement_lines,
    score_lines,
    seat_line,
    status_line,
)

if TYPE_CHECKING:
    from boardlab.games.anacund.state import AnacundState

SEAT_COLOURS = ("#2E2B28", "#FBF7EE")
"""A plays the dark side of the pieces, B the light side (spec §1, §4)."""
BESIDE_DISTANCE = 1.05
"""How far outside its square's edge a captured piece lies: beyond the square's number."""
BESIDE_RADIUS = 0.3
MAX_ENTRIES = 3
"""A player has three groups, so a pool holds at most three entries."""
_GAP = 3.0 + BESIDE_DISTANCE + BESIDE_RADIUS + 0.2
POOL_Y = (round(_GAP, 3), round(3.0 - _GAP - POOL_HEIGHT, 3))
"""The top of each player's pool: A's below the captured pieces of the bottom row, B's above
those of the top row (the rectangle is 3 units high)."""
TITLES = ("{} (Dark) groups", "{} (Light) groups")
TRACKS = {
    "ring": "Ring track: squares 36 and 1 are neighbours.",
    "open": "Open track: squares 36 and 1 are not neighbours.",
}


def _centre(index: int) -> tuple[float, float, float, float]:
    """Centre of square ``index`` (0-based) and the outward direction of its side."""
    square = index + 1
    if square <= COLUMNS:
        return square - 0.5, 0.5, 0.0, -1.0
    if square == COLUMNS + 1:
        return COLUMNS - 0.5, 1.5, 1.0, 0.0
    if square < SQUARES:
        return SQUARES - square - 0.5, 2.5, 0.0, 1.0
    return 0.5, 1.5, -1.0, 0.0


def _square(state: AnacundState, index: int) -> Cell:
    """Square ``index`` with its value, its kind and the piece on it."""
    code = state.squares[index]
    x, y, _, _ = _centre(index)
    kind = "normal"
    if code in rules.BLOCKED:  # unplayable first: a blocked bonus square is named in the notes
        kind = "blocked"
    elif index + 1 == state.layout.bonus:
        kind = "bonus"
    stack = (Piece(rules.PIECE.index(code), "piece"),) if code in rules.PIECE else ()
    return Cell(
        str(index + 1), "square", x, y, 1.0, kind, label=state.layout.values[index], stack=stack
    )


def _number(index: int) -> Label:
    """The square's number, just outside the rectangle."""
    x, y, dx, dy = _centre(index)
    reach = 0.5 + LABEL_OFFSET
    return Label(str(index + 1), round(x + dx * reach, 3), round(y + dy * reach, 3))


LABELS = tuple(_number(index) for index in range(SQUARES))


def _beside(index: int, captor: int) -> Cell:
    """The captured piece of square ``index``, in ``captor``'s colour, outside its number."""
    x, y, dx, dy = _centre(index)
    out = 0.5 + BESIDE_DISTANCE
    stack = (Piece(captor, "piece"),)
    return Cell(
        f"beside-{index + 1}",
        "circle",
        round(x + dx * out, 3),
        round(y + dy * out, 3),
        BESIDE_RADIUS,
        "captured",
        stack=stack,
    )


def group_id(seat: int, size: int) -> str:
    """The id of a seat's group entry of this size (``A6``), clicked first to place from it."""
    return f"{SIDES[seat]}{size}"


def _pools(state: AnacundState, width: float) -> tuple[Pool, ...]:
    """Each player's groups, one entry per size: A's below the board, B's above."""
    names = state.game.player_names
    pools: list[Pool] = []
    for seat, y in enumerate(POOL_Y):
        clickable = seat == state.side and state.outcome is None
        sizes = Counter(size for size in state.groups[seat] if size)
        pieces = tuple(
            Piece(
                seat,
                "group",
                label=str(size),
                count=count,
                id=group_id(seat, size) if clickable else "",
            )
            for size, count in sorted(sizes.items(), reverse=True)
        )
        title = TITLES[seat].format(names[seat])
        pools.append(Pool(f"groups-{SIDES[seat]}", title, seat, (COLUMNS - width) / 2, y, pieces))
    return tuple(pools)


def _pool_width(names: tuple[str, ...]) -> float:
    """One width for both pools, enough for three entries and the longer title."""
    return max(pool_width(TITLES[seat].format(names[seat]), MAX_ENTRIES) for seat in (0, 1))


@cache
def _extent(names: tuple[str, ...]) -> Box:
    """The extent of every picture: every square, number, place a captured piece may lie and
    pool is inside it, so the picture keeps its size through the game."""
    cells = [_beside(index, 0) for index in range(SQUARES)]
    cells += [Cell(str(index), "square", *_centre(index)[:2], 1.0) for index in range(SQUARES)]
    width = _pool_width(names)
    boxes = [((COLUMNS - width) / 2, y, width, POOL_HEIGHT) for y in POOL_Y]
    return extent(cells, LABELS, boxes)


def render_model(state: AnacundState) -> RenderModel:
    """The ring, values, bonus, pieces, captured pieces, groups and running scores."""
    names = state.game.player_names
    outcome = state.outcome
    cells = [_square(state, index) for index in range(SQUARES)]
    cells += [
        _beside(index, rules.BLOCKED.index(code))
        for index, code in enumerate(state.squares)
        if code in rules.BLOCKED
    ]
    pools = _pools(state, _pool_width(names))
    return RenderModel(
        game=state.game.id,
        players=names,
        extent=_extent(names),
        cells=tuple(cells),
        labels=LABELS,
        pools=pools,
        to_move=None if outcome is not None else state.side,
        phase="over" if outcome is not None else "play",
        status=status_line(state),
        scores=tuple(float(score) for score in state.scores()),
        notes=(
            TRACKS[str(state.game.options["track"])],
            f"Bonus square: {state.layout.bonus} (+{state.game.bonus_points} for the colour on"
            " or beside it).",
            *(seat_line(state, seat, align=False) for seat in (0, 1)),
            *last_placement_lines(state),
            *(score_lines(state) if outcome is not None else ()),
        ),
        seat_colours=SEAT_COLOURS,
    )


def click_path(state: AnacundState, action: int) -> ClickPath:
    """``6@19`` → the mover's group of six, then square 19."""
    size, index = decode(action)
    return ClickPath(targets=(group_id(state.side, size), str(index + 1)))
