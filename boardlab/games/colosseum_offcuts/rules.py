"""Legal decisions of Colosseum Offcuts (spec §4 and §6), computed on the window's indices.

Action ids, with ``C = W * W`` window cells (see :mod:`board`) and cells indexed relative to
the window's anchor:

========================  ==================================================
``cell``                  placement on ``cell`` (kind set by the setup step)
``C + cell``              flip of the lone counter on ``cell``
``2C + 4 * cell + dir``   Attack move from ``cell`` towards ``DIRECTIONS[dir]``
``6C + C * o + d``        Mobile move from ``o`` to ``d``
``6C + C * C``            pass
========================  ==================================================
"""

from __future__ import annotations

from dataclasses import dataclass

from boardlab.games.colosseum_offcuts.board import ATTACK, FORT, Stacks, Window


@dataclass(frozen=True, slots=True)
class MoveRules:
    """The options that change move generation (§12)."""

    lift: bool
    """``connectivity_check=lift``: the rest must stay connected with the mover lifted."""
    lifted: bool
    """``exposed_edges_measured=lifted``: targets are measured with the mover lifted."""
    slide: bool
    """``mobile_move=slide``: start and destination must be exterior cells."""


@dataclass(slots=True)
class Frame:
    """The stacks seen through the window: anchor, occupancy flags and indexed stacks."""

    ax: int
    ay: int
    occupied: bytearray
    cells: list[int]
    stacks: dict[int, tuple[int, ...]]
    width: int
    height: int


def make_frame(stacks: Stacks, window: Window) -> Frame:
    """Index ``stacks`` in the window anchored one cell south-west of their bounding box."""
    size = window.size
    if not stacks:
        return Frame(-1, -1, bytearray(window.cells), [], {}, 3, 3)
    xs = [x for x, _ in stacks]
    ys = [y for _, y in stacks]
    ax, ay = min(xs) - 1, min(ys) - 1
    occupied = bytearray(window.cells)
    indexed: dict[int, tuple[int, ...]] = {}
    for (x, y), stack in stacks.items():
        index = (x - ax) * size + (y - ay)
        occupied[index] = 1
        indexed[index] = stack
    width = max(xs) - ax + 2
    height = max(ys) - ay + 2
    return Frame(ax, ay, occupied, list(indexed), indexed, width, height)


def pass_action(window: Window) -> int:
    """The id of ``pass``."""
    return 6 * window.cells + window.cells * window.cells


def placement_actions(frame: Frame, window: Window, seat: int, step: int) -> list[int]:
    """Placement cells of setup step ``step`` (1-5) for ``seat`` (§4), fallback included."""
    if not frame.cells:
        return [-frame.ax * window.size - frame.ay]  # the cell 0,0 (step S1)
    occupied = frame.occupied
    stacks = frame.stacks
    neighbours = window.neighbours
    candidates = sorted(
        {other for cell in frame.cells for other in neighbours[cell] if not occupied[other]}
    )
    legal = []
    for cell in candidates:
        near = [stacks[other][0] for other in neighbours[cell] if occupied[other]]
        if step == 2:
            ok = len(near) == 1
        elif step in (3, 4):
            own = [c >> 2 == seat for c in near if not c & FORT]
            ok = any(own) and all(own)
        else:
            ok = all(c >> 2 == seat for c in near)
        if ok:
            legal.append(cell)
    if legal:
        return legal
    own_near = [
        cell
        for cell in candidates
        if any(stacks[o][0] >> 2 == seat for o in neighbours[cell] if occupied[o])
    ]
    return own_near or candidates


def play_actions(frame: Frame, window: Window, seat: int, rules: MoveRules) -> list[int]:
    """Every legal action of ``seat`` in normal play (§6), ``[pass]`` when there is none."""
    size = window.cells
    cells = frame.cells
    stacks = frame.stacks
    actions: list[int] = []
    for o in cells:
        stack = stacks[o]
        top = stack[-1]
        alone = len(stack) == 1
        if alone and top >> 2 == seat:
            actions.append(size + o)
        if top >> 2 == seat and top & ATTACK:
            actions.extend(_attack_moves(frame, window, o, alone, rules.lift))
        bottom = stack[0]
        if bottom >> 2 == seat and not bottom & ATTACK:
            base = 6 * size + o * size
            actions.extend(base + d for d in _mobile_destinations(frame, window, o, rules))
    if not actions:
        actions.append(pass_action(window))
    return actions


def _attack_moves(frame: Frame, window: Window, o: int, alone: bool, lift: bool) -> list[int]:
    """Attack-move ids from ``o`` (§6.2)."""
    occupied = frame.occupied
    neighbours = window.neighbours
    base = 2 * window.cells + 4 * o
    labels: list[int] | None = None
    if alone:
        occupied[o] = 0
        rest = [c for c in frame.cells if c != o]
        connected = window.connected(occupied, rest)
        if not connected:
            if lift:
                occupied[o] = 1
                return []
            labels = window.components(occupied, rest)
    moves = []
    for direction, n in enumerate(window.steps[o]):
        if occupied[n]:
            if labels is None:
                moves.append(base + direction)
        elif labels is None:
            if any(occupied[m] for m in neighbours[n]):
                moves.append(base + direction)
        elif len({labels[m] for m in neighbours[n] if occupied[m]}) == max(labels):
            moves.append(base + direction)
    if alone:
        occupied[o] = 1
    return moves


def _mobile_destinations(frame: Frame, window: Window, o: int, rules: MoveRules) -> list[int]:
    """Destination cells of a Mobile move from ``o`` (§6.1)."""
    occupied = frame.occupied
    neighbours = window.neighbours
    rest = [c for c in frame.cells if c != o]
    occupied[o] = 0
    try:
        labels: list[int] | None = None
        if not window.connected(occupied, rest):
            if rules.lift:
                return []
            labels = window.components(occupied, rest)
        if rules.lifted:
            measured = occupied
        else:
            measured = bytearray(occupied)
            measured[o] = 1
        exterior = window.exterior(measured, frame.width, frame.height)
        dests: set[int] = set()
        for t in rest:
            exposed = [u for u in neighbours[t] if not measured[u]]
            if len(exposed) >= 2 and any(exterior[u] for u in exposed):
                dests.update(u for u in neighbours[t] if not occupied[u])
        dests.discard(o)
        if rules.slide:
            lifted_exterior = (
                exterior if rules.lifted else window.exterior(occupied, frame.width, frame.height)
            )
            if not lifted_exterior[o]:
                return []
            dests = {d for d in dests if lifted_exterior[d]}
        if labels is not None:
            parts = max(labels)
            dests = {
                d for d in dests if len({labels[m] for m in neighbours[d] if occupied[m]}) == parts
            }
        return sorted(dests)
    finally:
        occupied[o] = 1
