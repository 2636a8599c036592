"""A second, naive implementation of §6 (sets of absolute cells) checked against the engine.

The engine generates moves on window indices with cached flood fills; this reference reads the
spec literally on Python sets. Both must give the same sorted legal list at every position of
seeded random games, for each player count and every option that changes move generation.
"""

from __future__ import annotations

import random

import pytest

from boardlab.core.registry import make
from boardlab.games.colosseum_offcuts import ColosseumState

Cell = tuple[int, int]


def _neighbours(cell: Cell) -> list[Cell]:
    x, y = cell
    return [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]


def _connected(cells: set[Cell]) -> bool:
    if not cells:
        return True
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        for other in _neighbours(todo.pop()):
            if other in cells and other not in seen:
                seen.add(other)
                todo.append(other)
    return len(seen) == len(cells)


def _exterior(cells: set[Cell]) -> set[Cell]:
    """Exterior cells of ``cells`` inside their bounding box grown by one (§2)."""
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    box = {(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)}
    found = {(x, y) for x, y in box if x in (x0, x1) or y in (y0, y1)}
    todo = list(found)
    while todo:
        for other in _neighbours(todo.pop()):
            if other in box and other not in cells and other not in found:
                found.add(other)
                todo.append(other)
    return found


def _is_exterior(cell: Cell, exterior: set[Cell], cells: set[Cell]) -> bool:
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    outside = not (min(xs) <= cell[0] <= max(xs) and min(ys) <= cell[1] <= max(ys))
    return outside or cell in exterior


def _text(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def reference_moves(state: ColosseumState) -> list[str]:
    """The legal actions of §6 in normal play, read literally from the spec."""
    options = state.game.options
    lift = options["connectivity_check"] == "lift"
    lifted = options["exposed_edges_measured"] == "lifted"
    slide = options["mobile_move"] == "slide"
    seat = state.side
    stacks = state.stacks
    footprint = set(stacks)
    moves: set[str] = set()
    for o, stack in stacks.items():
        top, bottom = stack[-1], stack[0]
        if len(stack) == 1 and top >> 2 == seat:
            moves.add(f"f{_text(o)}")
        if top >> 2 == seat and top & 1:
            alone = len(stack) == 1
            rest = footprint - {o} if alone else footprint
            if not (lift and alone and not _connected(rest)):
                for n in _neighbours(o):
                    if n not in footprint:
                        if _connected(rest | {n}):
                            moves.add(f"a{_text(o)}:{_text(n)}")
                    elif lift or _connected(rest):
                        under = stacks[n][-1]
                        capture = top & 2 and under & 2 and under >> 2 != seat
                        moves.add(f"a{_text(o)}:{_text(n)}{'x' if capture else ''}")
        if bottom >> 2 == seat and not bottom & 1:
            rest = footprint - {o}
            if lift and not _connected(rest):
                continue
            measured = rest if lifted else footprint
            exterior = _exterior(measured)
            rest_exterior = _exterior(rest) if rest else set()
            for t in rest:
                exposed = [u for u in _neighbours(t) if u not in measured]
                if len(exposed) < 2 or not any(
                    _is_exterior(u, exterior, measured) for u in exposed
                ):
                    continue
                for d in _neighbours(t):
                    if d in rest or d == o:
                        continue
                    if slide and not (
                        _is_exterior(o, rest_exterior, rest)
                        and _is_exterior(d, rest_exterior, rest)
                    ):
                        continue
                    if not lift and not _connected(rest | {d}):
                        continue
                    moves.add(f"m{_text(o)}:{_text(d)}")
    return sorted(moves) or ["pass"]


CASES = [
    (2, {}),
    (3, {}),
    (4, {}),
    (5, {}),
    (3, {"connectivity_check": "final"}),
    (3, {"exposed_edges_measured": "before"}),
    (3, {"mobile_move": "slide"}),
    (4, {"connectivity_check": "final", "mobile_move": "slide"}),
]


@pytest.mark.parametrize(("players", "options"), CASES)
def test_engine_matches_reference_in_random_games(players: int, options: dict[str, str]) -> None:
    """§6.1-6.4 under each option: engine and reference agree on 300 decisions of play."""
    game = make("colosseum-offcuts", players=players, **options)
    rng = random.Random(players * 31 + len(options))
    state = game.new_initial_state()
    checked = 0
    while checked < 300:
        if state.is_terminal():
            state = game.new_initial_state()
        assert isinstance(state, ColosseumState)
        if not state.setup:
            assert state.legal_moves() == reference_moves(state), state.position_text()
            checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
