"""The source of the greedy bot's compiled scoring of one decision's children, for any game.

As with :mod:`boardlab.core.kernel_driver_template` (which says why: Numba cannot cache a
function handed compiled functions), :func:`boardlab.core.kernel_drivers.specialised` writes a
copy per game with the block between the ``kernel`` markers replaced by imports of that game's
kernel functions and compiled evaluation. Read as is, the placeholders only make the source
importable and type-checkable.
"""

from __future__ import annotations

from boardlab.core.engine import KernelArray
from boardlab.core.jit import numba

# -- kernel --


def apply(p: KernelArray, s: KernelArray, action: int) -> None:
    """Placeholder for the game's ``apply``."""
    raise NotImplementedError


def is_over(p: KernelArray, s: KernelArray) -> bool:
    """Placeholder for the game's ``is_over``."""
    raise NotImplementedError


def returns(p: KernelArray, s: KernelArray, out: KernelArray) -> None:
    """Placeholder for the game's ``returns``."""
    raise NotImplementedError


def evaluate(p: KernelArray, s: KernelArray, seat: int) -> float:
    """Placeholder for the game's ``kernel_eval.evaluate``."""
    raise NotImplementedError


# -- end kernel --


@numba.njit(cache=True)
def child_scores(
    p: KernelArray,
    s: KernelArray,
    actions: KernelArray,
    seat: int,
    rewards: KernelArray,
    out: KernelArray,
) -> None:
    """Write into ``out[i]`` the value for ``seat`` of ``s`` after ``actions[i]``: twice the
    reward once the game is over (beyond any heuristic value), else the heuristic.

    ``rewards`` is scratch of one slot per seat; ``s`` is left unchanged.
    """
    child = s.copy()
    for i in range(actions.size):
        child[:] = s
        apply(p, child, actions[i])
        if is_over(p, child):
            returns(p, child, rewards)
            out[i] = 2.0 * rewards[seat]
        else:
            out[i] = evaluate(p, child, seat)
