"""Heuristic evaluation of Colosseum Offcuts for bots: Fortifications and capture threats."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardlab.games.colosseum_offcuts.board import ATTACK, FORT

if TYPE_CHECKING:
    from boardlab.games.colosseum_offcuts.state import ColosseumState

_ATTACKING_FORT = FORT | ATTACK


def evaluate(state: ColosseumState, player: int) -> float:
    """A value in [-1, 1] for ``player``: the final result, else material plus threats.

    Material is the player's Fortifications against the rivals' mean (§8: the last seat with
    Fortifications wins); with two seats, against the one rival. Against the strongest rival
    alone, a capture from any other rival would be worth nothing with three or more seats, and
    bots would wait while their rivals capture from each other. A threat is an Attack-mode
    Fortification on top of a stack next to a stack topped by an enemy Fortification: a
    capture available next action (§6.2).
    """
    if state.outcome is not None:
        return state.outcome.rewards()[player]
    forts = state.forts
    if not forts[player]:
        return -1.0
    rivals = [count for seat, count in enumerate(forts) if seat != player]
    material = (forts[player] - sum(rivals) / len(rivals)) / 2
    stacks = state.stacks
    threats = 0
    for (x, y), stack in stacks.items():
        top = stack[-1]
        if top & _ATTACKING_FORT != _ATTACKING_FORT:
            continue
        owner = top >> 2
        for cell in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            other = stacks.get(cell)
            if other and other[-1] & FORT and other[-1] >> 2 != owner:
                victim = other[-1] >> 2
                if owner == player:
                    threats += 1
                elif victim == player:
                    threats -= 1
    value = 0.7 * material + 0.1 * threats
    return max(-1.0, min(1.0, value))
