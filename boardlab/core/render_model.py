"""The render model: a picture of one position as plain data, and the click path of a decision.

Every game describes its positions with these types (``State.render_model``), and one renderer
(``boardlab.render.svg``) draws any of them; the web front end uses the same pictures. The model
knows nothing about SVG: it is geometry, pieces and words.

Coordinates are board units with ``y`` growing downwards (as in SVG); the model's ``extent`` is
the box that holds every cell and label. A cell's ``id`` is its notation name, so a click on a
cell maps straight to notation.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, is_dataclass
from typing import Any, Literal

Shape = Literal["square", "hex", "circle"]
"""How a cell is drawn: an axis-aligned square, a pointy-top hexagon, or a round spot."""

PieceShape = Literal["disc", "square", "triangle", "diamond"]
"""The outline of a piece, so kinds that must look different do (a Colosseum Fortification
is a square, a Board Piece a disc; a Cyvasse mountain a triangle)."""

SPECTATOR = -1
"""The view of somebody who holds no seat: every seat's hidden information is hidden."""


@dataclass(frozen=True)
class Piece:
    """One piece, or ``count`` identical pieces, of a stack or a pool.

    ``owner`` is a seat (None for neutral items such as a Cyvasse mountain). ``kind`` is a
    stable machine name (``tower``, ``king``, ``fortification``); ``label`` the short text drawn
    on it (a letter, a number, or empty). ``face`` is a mode the kind can show (``light`` or
    ``dark`` in Colosseum Offcuts), empty where the game has none. ``hidden`` marks an item that
    exists but whose identity this view may not see. ``id`` names a piece a person can click
    (a pool item such as an Anacund group), else empty. ``shape`` is its outline.
    """

    owner: int | None
    kind: str
    label: str = ""
    face: str = ""
    count: int = 1
    hidden: bool = False
    id: str = ""
    shape: PieceShape = "disc"


@dataclass(frozen=True)
class Cell:
    """One cell of the board: its notation name, geometry, kind, and stack bottom to top.

    ``x``/``y`` is the centre and ``size`` the side of a square, or the circumradius of a hex
    or circle. ``kind`` is ``normal`` or a game's special kind (``centre``, ``bonus``,
    ``blocked``, ``mountain``, ``zone``, ``hidden``, ``home``…); ``owner`` ties a kind to a seat
    (whose home row or deployment zone), else None. ``label`` is text printed on the cell
    itself (an Anacund value), not a piece.
    """

    id: str
    shape: Shape
    x: float
    y: float
    size: float
    kind: str = "normal"
    owner: int | None = None
    label: str = ""
    stack: tuple[Piece, ...] = ()


@dataclass(frozen=True)
class Label:
    """A coordinate label or a caption at a point of the board."""

    text: str
    x: float
    y: float


@dataclass(frozen=True)
class Pool:
    """Pieces off the board: a reserve, a supply, groups beside a track, captured pieces.

    ``x``/``y`` is where the pool is drawn (its top-left corner), inside the model's extent.
    """

    id: str
    title: str
    owner: int | None
    x: float
    y: float
    pieces: tuple[Piece, ...] = ()


@dataclass(frozen=True)
class ClickPath:
    """What a person clicks to make one decision.

    ``targets`` are cell ids, or pool piece ids, in click order (``c1-c3`` is ``("c1", "c3")``;
    an Anacund placement is the group then the square). A decision with no place on the board
    is a named ``button`` (``H``, ``pass``, ``end``) with no targets.
    """

    targets: tuple[str, ...] = ()
    button: str = ""


@dataclass(frozen=True)
class RenderModel:
    """A position as a picture: board, pools, labels and the words around them.

    ``extent`` is ``(min_x, min_y, width, height)`` in board units. ``to_move`` is the seat to
    move (None once the game is over); ``phase`` a short word (``setup``, ``deployment``,
    ``play``, ``over``); ``status`` one sentence for people (``Romans to move``). ``scores`` is
    one number per seat where the game keeps score. ``last_turn`` holds the click paths of the
    decisions of the previous turn; ``view`` the seat whose view this is (None: everything,
    ``SPECTATOR``: nobody's secrets).
    """

    game: str
    players: tuple[str, ...]
    extent: tuple[float, float, float, float]
    cells: tuple[Cell, ...]
    labels: tuple[Label, ...] = ()
    pools: tuple[Pool, ...] = ()
    to_move: int | None = None
    phase: str = "play"
    status: str = ""
    scores: tuple[float, ...] | None = None
    last_turn: tuple[ClickPath, ...] = ()
    view: int | None = None
    notes: tuple[str, ...] = ()
    """Further lines of game information (no-return memory, hunkered seats, counters)."""
    seat_colours: tuple[str, ...] = ()
    """CSS colours of each seat's pieces where the game names them (Carnyx's dark and light
    stones); empty to let the renderer use its colour-blind-safe palette."""

    def cell(self, cell_id: str) -> Cell:
        """The cell with this id (KeyError if there is none)."""
        for cell in self.cells:
            if cell.id == cell_id:
                return cell
        raise KeyError(cell_id)

    def to_json(self) -> str:
        """The model as a JSON text."""
        return json.dumps(to_plain(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> RenderModel:
        """The model of a JSON text made by :meth:`to_json`."""
        return model_from_dict(json.loads(text))


def to_plain(value: object) -> Any:
    """Dicts, lists and scalars of a model (``dataclasses.asdict`` without its deep copies)."""
    if is_dataclass(value) and not isinstance(value, type):
        return {key: to_plain(item) for key, item in vars(value).items()}
    if isinstance(value, tuple):
        return [to_plain(item) for item in value]
    return value


def model_from_dict(data: dict[str, Any]) -> RenderModel:
    """Rebuild a model from :func:`to_plain` output (lists become tuples)."""

    def pieces(items: list[dict[str, Any]]) -> tuple[Piece, ...]:
        return tuple(Piece(**item) for item in items)

    scores = data["scores"]
    return RenderModel(
        game=data["game"],
        players=tuple(data["players"]),
        extent=(data["extent"][0], data["extent"][1], data["extent"][2], data["extent"][3]),
        cells=tuple(Cell(**{**cell, "stack": pieces(cell["stack"])}) for cell in data["cells"]),
        labels=tuple(Label(**label) for label in data["labels"]),
        pools=tuple(Pool(**{**pool, "pieces": pieces(pool["pieces"])}) for pool in data["pools"]),
        to_move=data["to_move"],
        phase=data["phase"],
        status=data["status"],
        scores=None if scores is None else tuple(scores),
        last_turn=tuple(
            ClickPath(targets=tuple(path["targets"]), button=path["button"])
            for path in data["last_turn"]
        ),
        view=data["view"],
        notes=tuple(data["notes"]),
        seat_colours=tuple(data["seat_colours"]),
    )


@dataclass(frozen=True)
class Occupancy:
    """What the board holds, summed up from a render model: per seat the pieces on the board
    (a stack's ``count``; neutral items count for no seat), the ids of the cells holding a
    seat's piece, and the ids of every cell (a board may grow, as Colosseum Offcuts' does)."""

    pieces: tuple[int, ...]
    occupied: frozenset[str]
    cells: frozenset[str]

    @classmethod
    def of(cls, model: RenderModel, seats: int) -> Occupancy:
        """The occupancy of a render model of a game with ``seats`` seats."""
        pieces = [0] * seats
        occupied = set()
        for cell in model.cells:
            for piece in cell.stack:
                if piece.owner is not None and 0 <= piece.owner < seats:
                    pieces[piece.owner] += piece.count
                    occupied.add(cell.id)
        return cls(tuple(pieces), frozenset(occupied), frozenset(c.id for c in model.cells))
