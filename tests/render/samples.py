"""Hand-built render models: a square board with stacks and pools, a hex board, a ring track.

They exercise every feature of the renderer without depending on any game.
"""

from __future__ import annotations

import math

from boardlab.core.render_model import Cell, ClickPath, Label, Piece, Pool, RenderModel

FILES = "abcde"


def square_model() -> RenderModel:
    """A 5x5 board: mixed stacks, special cells, two pools, scores and notes."""
    stacks: dict[str, tuple[Piece, ...]] = {
        "a1": (Piece(0, "stone", "2", count=2),),
        "c3": (Piece(0, "stone"), Piece(1, "stone"), Piece(0, "stone", "3")),
        "e5": (Piece(1, "king", "K", shape="square"),),
        "b4": (Piece(1, "stone", face="light", label="L"),),
        "d2": (Piece(0, "stone", face="dark", label="D"),),
        "b2": (Piece(None, "mountain", shape="triangle"),),
        "d4": (Piece(1, "unit", hidden=True),),
        "e1": (Piece(0, "elephant", "E", shape="diamond"),),
    }
    kinds = {"c3": "centre", "a5": "bonus", "e3": "blocked", "a3": "hidden", "c5": "mountain"}
    cells = []
    for row in range(5):
        for column in range(5):
            ident = f"{FILES[column]}{row + 1}"
            cells.append(
                Cell(
                    ident,
                    "square",
                    column + 0.5,
                    4.5 - row,
                    1.0,
                    kind=kinds.get(ident, "home" if row == 0 else "normal"),
                    owner=0 if row == 0 else None,
                    label="7" if ident in ("b5", "c1") else "",
                    stack=stacks.get(ident, ()),
                )
            )
    labels = [Label(FILES[c], c + 0.5, 5.45) for c in range(5)]
    labels += [Label(str(r + 1), -0.45, 4.5 - r) for r in range(5)]
    pools = (
        Pool(
            "reserve-0",
            "Dark reserve",
            0,
            5.4,
            0.0,
            (Piece(0, "stone", count=3, id="r0"), Piece(0, "king", "K", id="k0")),
        ),
        Pool("reserve-1", "Light <reserve> & co", 1, 5.4, 1.6, (Piece(1, "stone", id="r1"),)),
    )
    return RenderModel(
        game="toy-squares",
        players=("Dark", "Light"),
        extent=(-0.8, -0.3, 11.0, 6.1),
        cells=tuple(cells),
        labels=tuple(labels),
        pools=pools,
        to_move=1,
        status="Light to move",
        scores=(3.0, 4.5),
        last_turn=(ClickPath(("a2", "a1")), ClickPath(("r0",))),
        notes=("Stacks are written bottom to top.", "ply 12 <no capture: 3>"),
    )


def hex_model(players: int = 5) -> RenderModel:
    """A hexagon of side 3 (pointy-top), with a piece of each of ``players`` seats."""
    radius = 1 / math.sqrt(3)
    cells = []
    seat = 0
    for r in range(-2, 3):
        for q in range(-2, 3):
            if abs(q + r) > 2:
                continue
            stack: tuple[Piece, ...] = ()
            if (q + 2 * r) % 3 == 0 and seat < players:
                stack = (Piece(seat, "unit", "ABCDE"[seat]),)
                seat += 1
            cells.append(
                Cell(f"{q},{r}", "hex", q + r / 2, r * math.sqrt(3) / 2, radius, stack=stack)
            )
    return RenderModel(
        game="toy-hex",
        players=tuple(f"P{i + 1}" for i in range(players)),
        extent=(-3.0, -2.6, 6.0, 5.2),
        cells=tuple(cells),
        to_move=0,
        last_turn=(ClickPath(("0,0", "1,0")),),
    )


def ring_model() -> RenderModel:
    """Twelve round spots in a ring, with values printed on them and a finished game."""
    cells = []
    for index in range(12):
        angle = 2 * math.pi * index / 12
        stack = (Piece(index % 2, "group", "3"),) if index in (2, 7) else ()
        cells.append(
            Cell(
                str(index + 1),
                "circle",
                2.5 * math.cos(angle),
                2.5 * math.sin(angle),
                0.45,
                kind="bonus" if index == 4 else "normal",
                label=str(index % 6 + 1),
                stack=stack,
            )
        )
    return RenderModel(
        game="toy-ring",
        players=("A", "B"),
        extent=(-3.3, -3.3, 6.6, 6.6),
        cells=tuple(cells),
        to_move=None,
        phase="over",
        status="Game over: A wins 12-9",
        scores=(12.0, 9.0),
    )
