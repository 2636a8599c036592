"""The compiled engine's contract: what each game's Numba kernel provides, and which engine runs.

Every game has a readable reference engine (its ``State``) and, when the ``fast`` extra
(``numba``) is installed, a compiled kernel with the same rules, action ids, position texts and
outcomes. A kernel works on plain arrays so that compiled drivers (perft, playouts, search)
can call its functions without Python in the loop:

* ``p``: the *parameters*: a 1-D ``int64`` array fixed by the game and its options (tables,
  option flags, seat count); never written by the kernel functions.
* ``s``: one *state*: a 1-D ``int64`` array of length ``state_size`` holding the whole
  position, including its ply, outcome, incremental Zobrist key and the repetition history
  the draw rules need. ``s.copy()`` (or ``dst[:] = s``) is a complete, independent copy.

Each compiled function below is an ``numba.njit`` dispatcher with exactly this signature:

``legal(p, s, out) -> int``
    Write the legal action ids of ``s`` into ``out[:n]`` (``out`` is an ``int64`` array of
    length ≥ ``max_legal``) and return ``n``; 0 exactly when the game is over. Order is free.
``apply(p, s, action) -> None``
    Play a legal action in place, with everything the reference's ``apply_action`` does
    (turn bookkeeping, the game's own end checks, then repetition, no-progress and ply caps).
``is_over(p, s) -> bool``
    True when the game has ended.
``returns(p, s, out) -> None``
    Write each seat's reward into ``out`` (``float64``, length ``num_players``): what the
    reference's ``State.returns()`` gives (zeros while the game goes on).
``player(p, s) -> int``
    The seat to move (meaningless once over).
``key(p, s) -> int``
    The position's 64-bit Zobrist key, maintained incrementally by ``apply``; equal
    positions (as the repetition rule compares them) have equal keys.
``truncated(p, s) -> bool`` (optional, ``None`` if absent)
    True when the game has ended by its ply cap (what the RL interfaces call a truncation;
    every other end is a termination). The batched RL environments need it.

The Python half converts between engines: ``encode`` builds ``s`` from any reference state
(a Cyvasse state may be a seat's view with the other side hidden) and ``decode`` gives back a
reference state with the same position text, so anything the kernel produces can be shown,
recorded or checked with the reference.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from boardlab.core.errors import BoardlabError

if TYPE_CHECKING:
    from boardlab.core.game import Game
    from boardlab.core.state import State

ENGINE_VARIABLE = "BOARDLAB_ENGINE"
"""Environment variable choosing the engine: ``python``, ``fast`` or unset (automatic)."""

KernelArray = Any
"""A 1-D NumPy array (``int64`` for states and parameters); typed loosely so that the core
needs no NumPy when the compiled engine is absent."""


class EngineError(BoardlabError, RuntimeError):
    """The compiled engine was demanded (``BOARDLAB_ENGINE=fast``) but cannot be used."""


@dataclass(frozen=True)
class Kernel:
    """One game's compiled rules with its options resolved: a ``Game``'s compiled twin."""

    game: Game
    params: KernelArray
    state_size: int
    max_legal: int
    legal: Callable[..., int]
    apply: Callable[..., None]
    is_over: Callable[..., bool]
    returns: Callable[..., None]
    player: Callable[..., int]
    key: Callable[..., int]
    encode: Callable[[State], KernelArray]
    decode: Callable[[KernelArray], State]
    truncated: Callable[..., bool] | None = None


KERNEL_MODULES = {
    "carnyx": "boardlab.games.carnyx.kernel",
    "murus-gallicus": "boardlab.games.murus_gallicus.kernel",
    "colosseum-offcuts": "boardlab.games.colosseum_offcuts.kernel",
    "anacund": "boardlab.games.anacund.kernel",
    "cyvasse": "boardlab.games.cyvasse.kernel",
}
"""Where each game's kernel lives; each module defines ``make_kernel(game) -> Kernel``."""


def requested_engine() -> str:
    """The engine the environment asks for: ``"python"``, ``"fast"`` or ``"auto"``."""
    value = os.environ.get(ENGINE_VARIABLE, "").strip().lower()
    if value in ("", "auto"):
        return "auto"
    if value not in ("python", "fast"):
        raise EngineError(f"{ENGINE_VARIABLE} must be 'python', 'fast' or unset, not {value!r}")
    return value


def kernel_for(game: Game) -> Kernel | None:
    """The compiled kernel of ``game``, or None when the reference engine is to be used.

    With ``BOARDLAB_ENGINE=fast`` a missing ``numba`` or kernel raises :class:`EngineError`
    instead of falling back.
    """
    wanted = requested_engine()
    if wanted == "python":
        return None
    module_name = KERNEL_MODULES.get(game.id)
    try:
        if module_name is None:
            raise ImportError(f"{game.id} has no compiled kernel")
        importlib.import_module("boardlab.core.jit")  # Numba, its cache directory set first
        module = importlib.import_module(module_name)
    except ImportError as error:
        if wanted == "fast":
            raise EngineError(f"the compiled engine cannot run {game.id}: {error}") from error
        return None
    kernel: Kernel = module.make_kernel(game)
    return kernel


def user_cache() -> str:
    """The per-user cache directory: ``$XDG_CACHE_HOME``, else ``~/.cache`` (as Numba's)."""
    return os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")


def engine_name(game: Game) -> str:
    """``"compiled"`` when ``game`` runs on its kernel here, else ``"reference"``."""
    return "reference" if kernel_for(game) is None else "compiled"


def kernel_evaluation(game: Game) -> Callable[..., float] | None:
    """The compiled heuristic of ``game``'s kernel, ``evaluate(p, s, seat) -> float`` (equal to
    the reference ``State.heuristic(seat)`` on a game in progress), found by module name:
    ``boardlab.games.<package>.kernel_eval``; None where the game has none. Needs Numba: ask
    only for a game that :func:`kernel_for` gives a kernel."""
    module_name = KERNEL_MODULES.get(game.id)
    if module_name is None:
        return None
    name = module_name.rsplit(".", 1)[0] + ".kernel_eval"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        return None
    evaluate: Callable[..., float] = module.evaluate
    return evaluate
