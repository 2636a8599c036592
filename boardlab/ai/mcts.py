"""Monte Carlo tree search (UCT) for 2 to 5 players, through the protocol alone.

Each node keeps the reward total of the player who moved into it, so the same code serves
two-player and multi-player games and compound turns (a node's player is simply the state's
``current_player``). A simulation descends by UCT, expands one untried decision, plays at most
``rollout`` random decisions and scores the end: ``returns()`` when the game is over, else
``heuristic(p)`` for every seat. The tree is kept between calls and the search resumes from
the node whose position text matches the new position.

With the compiled engine (docs/engine.md) the simulations run on the game's kernel: the tree
holds the same action ids, the selection and expansion apply them to a kernel state, and the
rollout's random decisions come from the compiled driver with its own random numbers (seeded
from the bot's generator). A seeded search is then as deterministic as before, and its
statistics are those of the reference, but it does not choose bit for bit the same moves (the
kernel lists legal decisions in another order, and draws its own random numbers). A kernel that
cannot hold a position (``RuntimeError``, e.g. a full repetition history) hands the decision
to the reference engine, which searches it afresh.

Hidden information: the bot searches from the view it is given. In Cyvasse's deployment the
view lacks the opponent's items; the acting player's own placements do not depend on them, so
the view is the sampled world. Anacund's layout is fixed and visible once the game is made, so
there is nothing to sample.
"""

from __future__ import annotations

import math
import random
from collections import deque
from typing import Protocol, Self

from boardlab.ai.base import Bot, Deadline
from boardlab.core.engine import Kernel, KernelArray, kernel_for
from boardlab.core.game import Game
from boardlab.core.state import State

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


class _Position(Protocol):
    """What a simulation needs of a position: a reference State or a _CompiledPosition."""

    @property
    def current_player(self) -> int: ...

    def clone(self) -> Self: ...

    def apply_action(self, action: int) -> None: ...

    def is_terminal(self) -> bool: ...

    def legal_actions(self) -> list[int]: ...


class _CompiledPosition:
    """A kernel state behind the few State methods the search uses."""

    __slots__ = ("kernel", "moves", "s")

    def __init__(self, kernel: Kernel, s: KernelArray, moves: KernelArray) -> None:
        self.kernel = kernel
        self.s = s
        self.moves = moves  # scratch for legal decisions, shared by the clones

    @property
    def current_player(self) -> int:
        return int(self.kernel.player(self.kernel.params, self.s))

    def clone(self) -> Self:
        return type(self)(self.kernel, self.s.copy(), self.moves)

    def apply_action(self, action: int) -> None:
        self.kernel.apply(self.kernel.params, self.s, action)

    def is_terminal(self) -> bool:
        return bool(self.kernel.is_over(self.kernel.params, self.s))

    def legal_actions(self) -> list[int]:
        count = self.kernel.legal(self.kernel.params, self.s, self.moves)
        actions: list[int] = self.moves[:count].tolist()
        return actions


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
        self._kernel: tuple[Game, Kernel | None] | None = None

    def _search_stats(self) -> dict[str, float]:
        """Simulations, reused visits and seconds of the last search."""
        return dict(self._last)

    def _choose(self, state: State) -> int:
        """The most visited root decision after the budgeted simulations."""
        deadline = Deadline(self._time)
        player = state.current_player
        actions = state.legal_actions()
        winning = _winning_action(state, actions, player)
        if winning is not None or len(actions) == 1:
            self._root = None
            self._last = {"simulations": 0.0, "reused": 0.0, "seconds": deadline.elapsed()}
            return actions[0] if winning is None else winning
        root = self._reused_root(state) if self._reuse else None
        if root is None:
            root = _Node(-1, -1)
        reused = root.visits
        sims = 0
        limit = self._iters if self._iters is not None else 1 << 62
        start = self._compiled(state)
        while sims < limit and not (sims and deadline.passed()):
            try:
                self._simulate(root, start)
            except RuntimeError:
                if start is state:
                    raise
                # The kernel cannot hold this game: search again on the reference engine.
                start, root, reused, sims = state, _Node(-1, -1), 0, 0
                continue
            sims += 1
        best = max(root.children, key=lambda n: (n.visits, n.value))
        self._root, self._root_state = root, state.clone()
        self._last = {
            "simulations": float(sims),
            "reused": float(reused),
            "seconds": deadline.elapsed(),
        }
        return best.action

    def _compiled(self, state: State) -> _Position:
        """``state`` on the game's kernel when there is one, else ``state`` itself."""
        if self._kernel is None or self._kernel[0] is not state.game:
            self._kernel = (state.game, kernel_for(state.game))
        kernel = self._kernel[1]
        if kernel is None:
            return state
        try:
            s = kernel.encode(state)
        except RuntimeError:
            return state
        # Imported here: NumPy comes with the compiled engine only.
        import numpy as np

        return _CompiledPosition(kernel, s, np.empty(kernel.max_legal, dtype=np.int64))

    def _simulate(self, root: _Node, root_state: _Position) -> None:
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

    def _playout(self, state: _Position) -> tuple[float, ...]:
        if isinstance(state, _CompiledPosition):
            return self._compiled_playout(state)
        assert isinstance(state, State)
        rng = self._rng
        for _ in range(self._rollout):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            return state.returns()
        return tuple(state.heuristic(p) for p in range(state.game.num_players))

    def _compiled_playout(self, state: _CompiledPosition) -> tuple[float, ...]:
        from boardlab.core import kernel_drivers

        kernel = state.kernel
        seed = self._rng.getrandbits(62)
        rewards, _ = kernel_drivers.rollout(kernel, state.s, seed, self._rollout, state.moves)
        if kernel.is_over(kernel.params, state.s):
            return rewards
        end = kernel.decode(state.s)
        return tuple(end.heuristic(p) for p in range(end.game.num_players))

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
