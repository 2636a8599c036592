"""Heuristic evaluation of Colosseum Offcuts for bots: Fortifications and capture threats."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardlab.games.colosseum_offcuts.board import ATTACK, FORT, Cell, Stacks

if TYPE_CHECKING:
    from boardlab.games.colosseum_offcuts.state import ColosseumState

PENDING = 0.7
"""Share of a capture credited to the side to move when it can make one with its actions left."""


def evaluate(state: ColosseumState, player: int) -> float:
    """A value in [-1, 1] for ``player``: the final result, else material plus threats.

    Material is the player's Fortifications against the rivals' mean (§8: the last seat with
    Fortifications wins); with two seats, against the one rival. Against the strongest rival
    alone, a capture from any other rival would be worth nothing with three or more seats, and
    bots would wait while their rivals capture from each other. A threat is an Attack-mode
    Fortification on top of a stack next to a stack topped by an enemy Fortification that it
    may capture (§6.2: alone in its cell, it may leave only if the rest stays connected): a
    capture available next action.

    The side to move cashes in: when it can capture with the actions left in its turn (a
    threat of its own, or, with both actions left, a lone Mobile Fortification of its own
    beside an enemy one: a flip, then the capture), ``PENDING`` of one capture's material is
    counted as made (against ``player`` if ``player`` is one of its victims). Without this, a
    search that stops at the start of a turn could not tell a Fortification about to be taken
    from one that is safe, nor which side of two facing Fortifications strikes first.
    """
    if state.outcome is not None:
        return state.outcome.rewards()[player]
    forts = state.forts
    if not forts[player]:
        return -1.0
    rivals = [count for seat, count in enumerate(forts) if seat != player]
    material = (forts[player] - sum(rivals) / len(rivals)) / 2
    stacks = state.stacks
    mover = state.side
    actions = 0 if state.setup else 2 if state.first is None else 1
    threats = 0
    pending = 0  # 1: the side to move can capture; 2: and ``player`` is one of its victims
    for (x, y), stack in stacks.items():
        top = stack[-1]
        if not top & FORT:
            continue
        owner = top >> 2
        # A Mobile counter is at ground level, so a Mobile top counter stands alone (§3).
        ready = top & ATTACK or (owner == mover and actions == 2)
        if not ready:
            continue
        free: bool | None = None  # whether it may leave its cell; found when first needed
        for cell in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            other = stacks.get(cell)
            if other and other[-1] & FORT and other[-1] >> 2 != owner:
                if free is None:
                    free = len(stack) > 1 or _connected_without(stacks, (x, y))
                if not free:
                    break
                victim = other[-1] >> 2
                if top & ATTACK:
                    if owner == player:
                        threats += 1
                    elif victim == player:
                        threats -= 1
                if owner == mover and actions:
                    pending = max(pending, 2 if victim == player else 1)
    value = 0.7 * material + 0.1 * threats
    if pending:
        # One Fortification fewer for the victim: -1/2 of material for ``player`` as the
        # victim, +1/2 of a rival's share otherwise (the rivals' mean drops).
        change = -0.5 if pending == 2 else 0.5 / len(rivals)
        value += 0.7 * PENDING * change
    return max(-1.0, min(1.0, value))


def _connected_without(stacks: Stacks, cell: Cell) -> bool:
    """Whether the footprint without ``cell`` is connected (§2)."""
    rest = [other for other in stacks if other != cell]
    if not rest:
        return True
    seen = {rest[0]}
    todo = [rest[0]]
    while todo:
        x, y = todo.pop()
        for near in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if near != cell and near in stacks and near not in seen:
                seen.add(near)
                todo.append(near)
    return len(seen) == len(rest)
