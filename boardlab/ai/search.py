"""Alpha-beta at compiled speed: iterative deepening over a game's kernel and compiled evaluation.

:func:`compiled_search` gives a :class:`CompiledSearch` for a game whose kernel is in use
(docs/engine.md) and which has a compiled evaluation (``boardlab.games.<game>.kernel_eval``
with ``evaluate(p, s, seat)``, equal to ``State.heuristic``); otherwise None, and the bot
searches with the reference engine. Each iteration is one call of the compiled search
(:mod:`boardlab.ai.search_template`, specialised per game), which reads the clock itself every
thousand nodes; this module keeps the transposition table, killers and history between calls
and orders the root moves (the last iteration's best first). Needs NumPy and Numba.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from boardlab.ai import search_template
from boardlab.core.engine import Kernel, KernelArray, kernel_evaluation, kernel_for
from boardlab.core.game import Game
from boardlab.core.kernel_drivers import specialised

_TEMPLATE = Path(search_template.__file__)
_ROLES = ("legal", "apply", "returns", "player", "key", "is_over")
MAX_DEPTH = search_template.MAX_PLY - 1
"""The deepest iteration the compiled search runs (its stack has ``MAX_PLY`` rows)."""
WIN = search_template.WIN
TABLE_BITS = 18
"""The transposition table holds 2^18 entries (8 MB)."""


@dataclass
class SearchResult:
    """What one decision's search found."""

    best: int
    value: float  # of the last finished iteration, from the root player's view, without noise
    depth: int  # the last finished iteration (0 if none finished)
    nodes: int
    nodes_by_depth: list[int] = field(default_factory=list)  # nodes of each finished iteration


def compiled_search(game: Game, table_bits: int = TABLE_BITS) -> CompiledSearch | None:
    """A compiled search of ``game``, or None when its kernel or evaluation is missing."""
    kernel = kernel_for(game)
    if kernel is None:
        return None
    evaluate = kernel_evaluation(game)
    if evaluate is None:
        return None
    return CompiledSearch(kernel, evaluate, table_bits)


class CompiledSearch:
    """Iterative-deepening alpha-beta on one game's kernel, with its tables kept between calls.

    The table's values are from one root player's view: :meth:`clear` it when the searching
    player changes.
    """

    def __init__(self, kernel: Kernel, evaluate: Callable[..., float], table_bits: int) -> None:
        self.kernel = kernel
        functions: dict[str, object] = {role: getattr(kernel, role) for role in _ROLES}
        functions["evaluate"] = evaluate
        self.evaluate = evaluate
        self._search = specialised(_TEMPLATE, functions).search
        size = 1 << table_bits
        self._tt_key = np.zeros(size, dtype=np.int64)
        self._tt_move = np.zeros(size, dtype=np.int64)
        # Zeros (empty) come from the system lazily: a bot that never searches costs nothing.
        self._tt_info = np.zeros(size, dtype=np.int64)
        self._tt_value = np.zeros(size, dtype=np.float64)
        self._killers = np.full((search_template.MAX_PLY + 1, 2), -1, dtype=np.int64)
        self._history = np.zeros(kernel.game.num_actions, dtype=np.int64)
        self._out = np.zeros(3, dtype=np.float64)

    def clear(self) -> None:
        """Forget the table, killers and history."""
        self._tt_info[:] = 0
        self._killers[:] = -1
        self._history[:] = 0

    def iterate(
        self,
        s: KernelArray,
        depth: int,
        order: npt.NDArray[np.int64],
        noise: npt.NDArray[np.float64],
        deadline: float,
        limit: int,
        pvs: bool,
    ) -> bool:
        """One iteration of ``depth`` decisions over the root moves ``order`` (``noise`` added to
        their values), with the tables as they are, until ``deadline`` (if positive) or
        ``limit`` nodes (if positive); whether it finished. Its best move (-1: none finished),
        value and node count are then in ``_out``."""
        kernel = self.kernel
        return bool(
            self._search(
                kernel.params,
                s,
                depth,
                order,
                noise,
                deadline,
                limit,
                pvs,
                kernel.max_legal,
                kernel.game.num_players,
                self._tt_key,
                self._tt_move,
                self._tt_info,
                self._tt_value,
                self._killers,
                self._history,
                self._out,
            )
        )

    def run(
        self,
        s: KernelArray,
        moves: Sequence[int],
        jitter: Sequence[float],
        max_depth: int,
        deadline: float | None,
        node_cap: int | None,
        pvs: bool = True,
    ) -> SearchResult:
        """Search ``s`` (not over) over its legal ``moves``, tried first in this order.

        ``jitter[i]`` is added to the value of ``moves[i]`` at the root. Stops after
        ``max_depth`` iterations, at ``deadline`` (a ``time.perf_counter()`` value) or after
        ``node_cap`` nodes, whichever comes first; an unfinished iteration still counts a
        root move that beat the previous best.
        """
        order = np.array(moves, dtype=np.int64)
        noise = np.array(jitter, dtype=np.float64)
        self._history >>= 1  # older decisions' cutoffs count for less
        result = SearchResult(int(order[0]), 0.0, 0, 0)
        for depth in range(1, min(max_depth, MAX_DEPTH) + 1):
            if depth > 1 and deadline is not None and time.perf_counter() >= deadline:
                break
            limit = 0
            if node_cap is not None:
                limit = node_cap - result.nodes
                if limit <= 0:
                    break
            finished = self.iterate(s, depth, order, noise, deadline or 0.0, limit, pvs)
            best, value, nodes = int(self._out[0]), float(self._out[1]), int(self._out[2])
            result.nodes += nodes
            if not finished:
                if best >= 0:  # the previous best, or a move that beat it at this depth
                    result.best = best
                break
            result.best, result.value, result.depth = best, value, depth
            result.nodes_by_depth.append(nodes)
            # The best move first lets the next iteration cut early.
            first = int(np.flatnonzero(order == best)[0])
            order[[0, first]] = order[[first, 0]]
            noise[[0, first]] = noise[[first, 0]]
            if abs(value) > WIN / 2:
                break  # a forced result is known; deeper search cannot change it
        return result
