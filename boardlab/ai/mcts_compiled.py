"""UCT with the tree in compiled code: :class:`CompiledTree`, what :class:`MctsBot` searches with
when the game has a compiled kernel (docs/bots.md, "Compiled MCTS").

The simulations run in :mod:`boardlab.ai.mcts_template`, specialised per game. A rollout cut
short is scored by the game's compiled evaluation (``boardlab.games.<pkg>.kernel_eval``) when
it has one; otherwise the search pauses, the leaf is decoded and scored by the reference
``heuristic`` here, and the search resumes. Needs NumPy and Numba (the ``fast`` extra).
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import numpy as np

from boardlab.ai.base import Deadline
from boardlab.ai.mcts_template import (
    ACTION,
    CHILD,
    COLUMNS,
    DEPTH,
    DONE,
    EVALUATE,
    FINISHED,
    META,
    MOVER,
    RANDOM,
    SIBLING,
    SIZE,
    STORED,
    VISITS,
    no_evaluation,
)
from boardlab.core.engine import Kernel, KernelArray, kernel_evaluation
from boardlab.core.kernel_drivers import specialised
from boardlab.core.kernel_random import seeded
from boardlab.core.state import State

_TEMPLATE = Path(__file__).with_name("mcts_template.py")
_FIRST_ROWS = 1 << 12
"""Nodes of a new tree (stored actions: 8 times as many); the pools double when full."""
MAX_ROWS = 1 << 20
"""Nodes at most (28 + 8 * seats bytes each; each simulation opens one), and 8 times as many
stored actions (4 bytes each): beyond, the tree stops growing and the search goes on in it."""
_PATH = 1024
"""Longest path from the root: a deeper node is scored as a leaf."""
_BATCH_SECONDS = 0.01
"""Aim of one compiled batch under a time budget: the clock is read between batches."""


def drivers(kernel: Kernel) -> ModuleType:
    """The compiled search specialised for ``kernel``'s game."""
    roles = ("legal", "apply", "is_over", "returns", "player", "key")
    functions = {role: getattr(kernel, role) for role in roles}
    functions["evaluate"] = kernel_evaluation(kernel.game) or no_evaluation
    return specialised(_TEMPLATE, functions)


class CompiledTree:
    """One game's search tree in arrays, kept between decisions for reuse."""

    def __init__(self, kernel: Kernel, c: float, rollout: int) -> None:
        self.kernel = kernel
        self.code = drivers(kernel)
        self.c = c
        self.rollout = max(rollout, 0)  # none when negative, as on the reference
        seats = kernel.game.num_players
        rows = min(_FIRST_ROWS, MAX_ROWS)
        self.nodes = np.empty((rows, COLUMNS), dtype=np.int32)
        self.values = np.empty((rows, seats), dtype=np.float64)
        self.untried = np.empty(8 * rows, dtype=np.int32)
        self.meta = np.zeros(META, dtype=np.int64)
        self.path = np.empty(_PATH, dtype=np.int64)
        self.moves = np.empty(kernel.max_legal, dtype=np.int64)
        self.rewards = np.zeros(seats, dtype=np.float64)
        self.root: KernelArray | None = None
        self.work: KernelArray | None = None
        self.evaluated = 0  # leaves scored from Python in the last search

    def prepare(self, state: State) -> tuple[KernelArray, list[int]]:
        """``state`` on the kernel, and its legal actions."""
        s = self.kernel.encode(state)
        count = self.kernel.legal(self.kernel.params, s, self.moves)
        actions: list[int] = self.moves[:count].tolist()
        return s, actions

    def winning_action(self, s: KernelArray) -> int | None:
        """An action that wins at once for the seat to move in ``s``, if any."""
        action = int(
            self.code.winning_action(self.kernel.params, s, s.copy(), self.moves, self.rewards)
        )
        return None if action < 0 else action

    def search(
        self,
        s: KernelArray,
        state: State,
        seed: int,
        limit: int,
        deadline: Deadline,
        reuse: bool,
        reuse_nodes: int,
    ) -> tuple[int, int]:
        """Simulate from ``s`` (the kernel twin of ``state``) until ``limit`` simulations or the
        deadline (at least one); returns (simulations, visits reused from the last tree)."""
        if not (reuse and self._reroot(s, state, reuse_nodes)):
            self._reset()
        self.root = s
        self.work = s.copy()
        reused = int(self.nodes[0, VISITS])
        self.meta[RANDOM] = seeded(seed)
        self.evaluated = 0
        sims, batch = 0, 16
        p, code = self.kernel.params, self.code
        while sims < limit and not (sims and deadline.passed()):
            wanted = min(batch, limit - sims)
            started = deadline.elapsed()
            status = code.search(
                p, s, self.nodes, self.values, self.untried, self.meta, self.path, self.work,
                self.moves, self.rewards, wanted, self.c, self.rollout, self._growing,
            )  # fmt: skip
            done = int(self.meta[DONE])
            sims += done
            if status == EVALUATE:
                self._score_leaf()
                sims += 1
            elif status != FINISHED:
                self._grow()
            if done == wanted and deadline.elapsed() > started:
                rate = done / (deadline.elapsed() - started)
                batch = max(1, min(1 << 16, int(rate * _BATCH_SECONDS)))
        return sims, reused

    @property
    def size(self) -> int:
        """Nodes in the tree."""
        return int(self.meta[SIZE])

    def children(self) -> list[tuple[int, int, float]]:
        """The root's opened children in the order they were opened: (action, visits, reward
        sum of the seat that chose it)."""
        found = []
        row = int(self.nodes[0, CHILD])
        while row >= 0:
            found.append((int(self.nodes[row, ACTION]), int(self.nodes[row, VISITS]), row))
            row = int(self.nodes[row, SIBLING])
        return [
            (action, visits, float(self.values[row, self.nodes[row, MOVER]]))
            for action, visits, row in reversed(found)
        ]

    def _reset(self) -> None:
        self.nodes[0] = (-1, -1, 0, -1, -1, -1, 0)
        self.values[0] = 0.0
        self.meta[SIZE] = 1
        self.meta[STORED] = 0

    def _score_leaf(self) -> None:
        """Score the paused leaf with the reference heuristic and back it up."""
        end = self.kernel.decode(self.work)
        self.rewards[:] = end.heuristics()
        self.code.backup(self.nodes, self.values, self.path, int(self.meta[DEPTH]), self.rewards)
        self.evaluated += 1

    @property
    def _growing(self) -> bool:
        """False once a pool at its largest is full: the tree is then searched as it is."""
        nodes_full = self.meta[SIZE] >= self.nodes.shape[0] == MAX_ROWS
        untried_full = self.meta[STORED] + self.moves.shape[0] > self.untried.shape[0]
        return not (nodes_full or (untried_full and self.untried.shape[0] == 8 * MAX_ROWS))

    def _grow(self) -> None:
        """Double the pool that may lack room (``search`` said FULL)."""
        if self.meta[SIZE] >= self.nodes.shape[0]:
            rows = min(MAX_ROWS, 2 * self.nodes.shape[0])
            self.nodes = np.resize(self.nodes, (rows, COLUMNS))
            self.values = np.resize(self.values, (rows, self.values.shape[1]))
        if self.meta[STORED] + self.moves.shape[0] > self.untried.shape[0]:
            self.untried = np.resize(self.untried, min(8 * MAX_ROWS, 2 * self.untried.shape[0]))

    def _reroot(self, s: KernelArray, state: State, limit: int) -> bool:
        """Make the old tree's node for ``s`` the root; False when it is not found."""
        old, p = self.root, self.kernel.params
        if old is None or self.meta[SIZE] == 0:
            return False
        if old.shape == s.shape and self.kernel.key(p, old) == self.kernel.key(p, s):
            row, found = 0, old
        else:
            found = np.empty_like(s)
            row = int(self.code.find(p, old, self.nodes, s, limit, found))
            if row < 0:
                return False
        # Keys can collide: the position texts decide, as on the reference engine.
        if self.kernel.decode(found).position_text() != state.position_text():
            return False
        if row:
            pools = (
                np.empty_like(self.nodes),
                np.empty_like(self.values),
                np.empty_like(self.untried),
            )
            self.code.compact(self.nodes, self.values, self.untried, row, *pools, self.meta)
            self.nodes, self.values, self.untried = pools
        return True
