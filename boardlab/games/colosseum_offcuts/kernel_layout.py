"""Array layout of the Colosseum Offcuts kernel: where each field lives in ``p`` and ``s``.

Also the one decorator the kernel's compiled functions use.

The grid is indexed on a *padded* window: a cell ``rx, ry`` of the reference's ``W x W`` action
window (see :mod:`board`) is the padded index ``(rx + 1) * PW + ry + 1``. ``PW = 24`` is
``W + 2`` at five seats and used for every seat count, so a neighbour is always one constant
step away and the padding ring (never occupied) spares every bounds check.

Counters have identities inside the kernel only: counter ``k`` belongs to seat ``k >> 2``,
slots 0-1 are its Board Pieces and 2-3 its Fortifications, so ``k & ~1`` is the reference's
counter code without the mode bit. The position text and the key see codes, never identities.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

from boardlab.core.jit import numba

_F = TypeVar("_F", bound=Callable[..., object])


def compiled(function: _F) -> _F:
    """``numba.njit(cache=True)``, typed for mypy (numba ships no type information)."""
    return cast(_F, numba.njit(cache=True)(function))


PW = 24
"""Padded grid width: the window (W <= 22) plus one never-occupied cell on each side."""
PC = PW * PW
"""Padded grid cells."""
MAX_COUNTERS = 20
"""Four counters for each of at most five seats."""
MAX_CELLS = 22 * 22
"""Window cells at five seats."""

# -- parameters p ---------------------------------------------------------------------------
P_PLAYERS = 0
P_LIFT = 1
"""1 under ``connectivity_check=lift``."""
P_LIFTED = 2
"""1 under ``exposed_edges_measured=lifted``."""
P_SLIDE = 3
"""1 under ``mobile_move=slide``."""
P_ROUNDS = 4
"""``no_capture_rounds`` (0 = off)."""
P_FORT_RANK = 5
"""1 under ``draw_ranking=fortifications``."""
P_REPETITION = 6
"""``repetition_draw`` (0 = off)."""
P_W = 7
"""Window width ``4n + 2``."""
P_HISTORY = 8
"""Capacity of the repetition history in ``s``."""
P_A2P = 16
"""``MAX_CELLS`` entries: window cell index (as in action ids) to padded index."""
P_P2A = P_A2P + MAX_CELLS
"""``PC`` entries: padded index to window cell index, -1 outside the window."""
PARAMS_SIZE = P_P2A + PC

# -- state s --------------------------------------------------------------------------------
S_STATUS = 0
"""0 while the game goes on, 1 once it is over."""
S_SIDE = 1
S_SETUP = 2
"""Setup step 1-5 of the next placement, 0 in normal play."""
S_PLY = 3
S_NO_CAPTURE = 4
S_FORCED_PASS = 5
S_MID = 6
"""1 between the two actions of a turn."""
S_FIRST_CAPTURE = 7
S_FIRST_KIND = 8
"""The first action of the turn: 0 flip, 1 Attack move, 2 Mobile move."""
S_FIRST = 9
"""Four absolute coordinates of that action: origin x, y and destination x, y."""
S_AX = 13
"""Absolute x of window column 0 (one west of the westmost counter); padded column 1."""
S_AY = 14
S_KEY = 15
S_TERMINATION = 16
"""Index into :data:`TERMINATIONS` once over, else -1."""
S_HISTORY_LEN = 17
S_RESULT = 18
"""Five slots: each seat's reward (1, 0, -1) once the game is over."""
S_FORTS = 23
"""Five slots: Fortifications each seat has on the board."""
S_CELL = 28
"""``MAX_COUNTERS`` slots: padded cell of each counter, -1 when it is not on the board."""
S_LEVEL = S_CELL + MAX_COUNTERS
"""Height of each counter in its stack, 0 at ground level."""
S_MODE = S_LEVEL + MAX_COUNTERS
"""1 when the counter is in Attack mode."""
S_NODE = S_MODE + MAX_COUNTERS
"""The history's node in the store of :mod:`boardlab.core.kernel_history` (0: none)."""
S_HISTORY = S_NODE + 1
"""The keys of the turn starts since the last capture, ``p[P_HISTORY]`` slots."""

T_LAST_FORTIFICATIONS = 0
T_FORCED_PASSES = 1
T_REPETITION = 2
T_NO_CAPTURE = 3
TERMINATIONS = ("last_fortifications", "forced_passes", "repetition", "no_capture")
"""Termination values (``Termination(...)``) by their code in ``s[S_TERMINATION]``."""
