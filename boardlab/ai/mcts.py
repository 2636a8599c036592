"""Monte Carlo tree search (UCT) for 2 to 5 players, through the protocol alone.

Each node keeps the reward total of the player who moved into it, so the same code serves
two-player and multi-player games and compound turns (a node's player is simply the state's
``current_player``). A simulation descends by UCT, expands one untried decision, plays at most
``rollout`` random decisions and scores the end: ``returns()`` when the game is over, else
``heuristic(p)`` for every seat. The tree is kept between calls and the search resumes from
the node whose position text matches the new position.

With the compiled engine (docs/engine.md) the whole search runs in compiled code instead
(:mod:`boardlab.ai.mcts_compiled`): the same algorithm on a tree of arrays, with the kernel's
random numbers (seeded from the bot's generator) and its order of legal decisions, so a seeded
search is as deterministic as before but does not choose bit for bit the same moves as the
reference. Every kernel plays every legal game, so an error of the kernel is a bug: it is
raised, never handed to the reference engine in silence.

Hidden information: the bot searches from the view it is given. In Cyvasse's deployment the
view lacks the opponent's items; the acting player's own placements do not depend on them, so
the view is the sampled world. Anacund's layout is fixed and visible once the game is made, so
there is nothing to sample.
"""

from __future__ import annotations

import math
import random
from collections import deque
from typing import TYPE_CHECKING

from boardlab.ai.base import Bot, Deadline
from boardlab.core.engine import kernel_for
from boardlab.core.state import State

if TYPE_CHECKING:
    from boardlab.ai.mcts_compiled import CompiledTree

_REUSE_NODES = 3000
"""How many tree nodes at most are examined to find the new position on the next call."""


class _Node:
    """One decision in the tree: statistics for the player who made it."""

    __slots__ = ("action", "children", "mover", "untried", "value", "visits")

    def __init__(self, action: int, mover: int) -> None:
        self.action = action
        self.mover = mover
        self.children: list[_Node] = []
        self.untried: list[int] | None = None
        self.visits = 0
        self.value = 0.0


class MctsBot(Bot):
    """UCT with cut-off random rollouts scored by the game's evaluation.

    ``iters`` bounds the simulations per decision (deterministic for a seed), ``time`` bounds
    the seconds; give either or both. ``c`` is the exploration constant, ``rollout`` the
    number of random decisions before the evaluation (0: evaluate the new leaf at once).
    """

    def __init__(
        self,
        seed: int | None = None,
        iters: int | None = 1000,
        time: float | None = None,
        c: float = 1.0,
        rollout: int = 4,
        reuse: bool = True,
        spec: str = "mcts",
    ) -> None:
        super().__init__(seed, spec)
        self._rng = random.Random(seed)
        self._iters = iters
        self._time = time
        self._c = c
        self._rollout = rollout
        self._reuse = reuse
        self._root: _Node | None = None
        self._root_state: State | None = None
        self._last: dict[str, float] = {}
        self._tree: CompiledTree | None = None

    def _search_stats(self) -> dict[str, float]:
        """Simulations, reused visits and seconds of the last search."""
        return dict(self._last)

    def root_children(self) -> list[tuple[int, int, float]]:
        """The last search's root decisions: (action, visits, reward sum of the chooser)."""
        if self._tree is not None and self._last.get("compiled"):
            return self._tree.children()
        if self._root is None:
            return []
        return [(child.action, child.visits, child.value) for child in self._root.children]

    def _choose(self, state: State) -> int:
        """The most visited root decision after the budgeted simulations."""
        deadline = Deadline(self._time)
        limit = self._iters if self._iters is not None else 1 << 62
        tree = self._compiled_tree(state)
        if tree is not None:
            # A kernel error is a bug (every kernel plays every legal game): it is raised,
            # never hidden behind the reference engine's search.
            return self._choose_compiled(tree, state, deadline, limit)
        player = state.current_player
        actions = state.legal_actions()
        winning = _winning_action(state, actions, player)
        if winning is not None or len(actions) == 1:
            return self._forced(actions[0] if winning is None else winning, deadline)
        root = self._reused_root(state) if self._reuse else None
        if root is None:
            root = _Node(-1, -1)
        reused = root.visits
        sims = 0
        while sims < limit and not (sims and deadline.passed()):
            self._simulate(root, state)
            sims += 1
        best = max(root.children, key=lambda n: (n.visits, n.value))
        self._root, self._root_state = root, state.clone()
        self._last = {
            "simulations": float(sims),
            "reused": float(reused),
            "seconds": deadline.elapsed(),
        }
        return best.action

    def _forced(self, action: int, deadline: Deadline) -> int:
        """Play ``action`` without a search (a win at once, or the only decision)."""
        self._root = None
        if self._tree is not None:
            self._tree.root = None
        self._last = {"simulations": 0.0, "reused": 0.0, "seconds": deadline.elapsed()}
        return action

    def _choose_compiled(
        self, tree: CompiledTree, state: State, deadline: Deadline, limit: int
    ) -> int:
        s, actions = tree.prepare(state)
        winning = tree.winning_action(s)
        if winning is not None or len(actions) == 1:
            return self._forced(actions[0] if winning is None else winning, deadline)
        seed = self._rng.getrandbits(62)
        sims, reused = tree.search(s, state, seed, limit, deadline, self._reuse, _REUSE_NODES)
        best = max(tree.children(), key=lambda child: (child[1], child[2]))
        self._last = {
            "simulations": float(sims),
            "reused": float(reused),
            "seconds": deadline.elapsed(),
            "compiled": 1.0,
            "python_evaluations": float(tree.evaluated),
            "nodes": float(tree.size),
        }
        return best[0]

    def _compiled_tree(self, state: State) -> CompiledTree | None:
        """The compiled search for ``state``'s game, when it has a kernel."""
        if self._tree is not None and self._tree.kernel.game is state.game:
            return self._tree
        kernel = kernel_for(state.game)
        if kernel is None:
            return None
        # Imported here: NumPy and Numba come with the compiled engine only.
        from boardlab.ai.mcts_compiled import CompiledTree

        self._tree = CompiledTree(kernel, self._c, self._rollout)
        return self._tree

    def _simulate(self, root: _Node, root_state: State) -> None:
        state = root_state.clone()
        node = root
        path = [root]
        c = self._c
        # Selection: descend while the node is fully expanded.
        while node.untried is not None and not node.untried and node.children:
            log_n = math.log(node.visits)
            best, best_score = node.children[0], -math.inf
            for child in node.children:
                score = child.value / child.visits + c * math.sqrt(log_n / child.visits)
                if score > best_score:
                    best, best_score = child, score
            node = best
            state.apply_action(node.action)
            path.append(node)
        # Expansion: one untried decision.
        if not state.is_terminal():
            if node.untried is None:
                node.untried = state.legal_actions()
                self._rng.shuffle(node.untried)
            action = node.untried.pop()
            child = _Node(action, state.current_player)
            node.children.append(child)
            state.apply_action(action)
            path.append(child)
        rewards = self._playout(state)
        for visited in path:
            visited.visits += 1
            if visited.mover >= 0:
                visited.value += rewards[visited.mover]

    def _playout(self, state: State) -> tuple[float, ...]:
        rng = self._rng
        for _ in range(self._rollout):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            return state.returns()
        return tuple(state.heuristics())

    def _reused_root(self, state: State) -> _Node | None:
        """The old tree's node for ``state``, found breadth-first by position text."""
        if self._root is None or self._root_state is None:
            return None
        target = state.position_text()
        if self._root_state.position_text() == target:
            return self._root
        queue: deque[tuple[_Node, State]] = deque([(self._root, self._root_state)])
        examined = 0
        while queue and examined < _REUSE_NODES:
            node, node_state = queue.popleft()
            for child in node.children:
                examined += 1
                child_state = node_state.child(child.action)
                if child_state.position_text() == target:
                    return child
                if child.children:
                    queue.append((child, child_state))
        return None


def _winning_action(state: State, actions: list[int], player: int) -> int | None:
    """A decision that wins the game at once for ``player``, if any."""
    for action in actions:
        child = state.child(action)
        if child.is_terminal() and child.returns()[player] > 0:
            return action
    return None
