"""The compiled Cyvasse evaluation: ``CyvasseState.heuristic`` on a kernel state, for the
compiled searches and the greedy bot (same value: the material balance)."""

from __future__ import annotations

from boardlab.core.jit import njit
from boardlab.games.cyvasse.kernel_rules import MOUNTAIN, S_BOARD, S_DEPLOYING, N
from boardlab.games.cyvasse.units import VALUE


@njit(cache=True)
def evaluate(p, s, seat):  # type: ignore[no-untyped-def]
    """``seat``'s material balance (spec §3 units) in (-1, 1); 0 during deployment."""
    if s[S_DEPLOYING]:
        return 0.0
    south = 0.0
    north = 0.0
    for h in range(N):
        cell = s[S_BOARD + h]
        if cell > MOUNTAIN:
            # A unit's cell is 2 + 10 * side + kind (units.py).
            unit = cell - 2
            if unit < 10:
                south += VALUE[unit]
            else:
                north += VALUE[unit - 10]
    mine, theirs = (south, north) if seat == 0 else (north, south)
    return (mine - theirs) / (mine + theirs + 1.0)
