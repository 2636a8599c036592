"""Perft: count the leaf positions of the decision tree, to check and time move generation.

Each atomic decision is one ply of depth (rules README §2), so in games with compound turns a
perft may stop in the middle of a turn. A finished game has no moves, so its count at any
depth above 0 is 0.
"""

from __future__ import annotations

from boardlab.core.engine import kernel_for
from boardlab.core.state import State


def perft(state: State, depth: int) -> int:
    """Number of leaf positions ``depth`` decisions below ``state`` (``state`` is not changed)."""
    if depth <= 0:
        return 1
    actions = state.legal_actions()
    if depth == 1:
        # Bulk counting: the leaves below are exactly the legal decisions.
        return len(actions)
    total = 0
    for action in actions:
        child = state.clone()
        child.apply_action(action)
        total += perft(child, depth - 1)
    return total


def leaf_count(state: State, depth: int) -> int:
    """:func:`perft` on the engine in use: the game's compiled kernel when it has one."""
    kernel = kernel_for(state.game)
    if kernel is None:
        return perft(state, depth)
    # Imported here: the drivers need NumPy, which the core does not depend on.
    from boardlab.core import kernel_drivers

    return kernel_drivers.perft(kernel, kernel.encode(state), depth)


def divide(state: State, depth: int) -> list[tuple[str, int]]:
    """Perft split by first decision: ``(notation, leaves)`` pairs sorted by notation.

    ``depth`` counts the first decision, so it must be at least 1. Counted on the engine in
    use, like :func:`leaf_count`.
    """
    if depth < 1:
        raise ValueError("divide needs a depth of at least 1")
    counts = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        counts.append((state.action_to_str(action), leaf_count(child, depth - 1)))
    return sorted(counts)
