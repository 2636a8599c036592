"""Alpha-beta search: compiled when the game's kernel and compiled evaluation are installed.

Iterative deepening on decisions (a compound turn is several plies of the search, the same
player moving again) under a depth, node and time budget, with a transposition table and move
ordering. Values are from the root player's point of view: nodes where the root player is to
move maximise, the others minimise, so compound turns need no special case. With more than two
seats this is the "paranoid" search: every rival is assumed to play against the root player.

Two engines run the same search. The compiled one (:mod:`boardlab.ai.search`) is used when
:func:`~boardlab.ai.search.compiled_search` gives one for the game; the reference one below,
through the protocol alone, otherwise (or with ``compiled=false``). Both add their noise at
the root only: a seeded jitter per root move, drawn anew for each decision, so that a series of
games varies while the search below the root keeps its cutoffs.
"""

from __future__ import annotations

import random
from collections.abc import Hashable

from boardlab.ai.base import Bot, Deadline
from boardlab.core.engine import kernel_for, requested_engine
from boardlab.core.game import Game
from boardlab.core.state import State

WIN = 100.0
"""Value of a won game; a win found sooner scores higher (WIN minus its depth)."""
EXACT, LOWER, UPPER = 0, 1, 2
_CHECK_EVERY = 256
_TABLE_LIMIT = 400_000
_OPEN_DEPTH = 63
"""The depth bound when only a time or node budget is given."""


class _Timeout(Exception):
    """The time or node budget ran out during a search iteration."""


class AlphaBetaBot(Bot):
    """Iterative-deepening alpha-beta with a transposition table; paranoid beyond two seats.

    ``depth`` bounds the search in decisions, ``nodes`` in nodes visited (reproducible for a
    seed) and ``time`` in seconds; without ``depth`` the depth is open. ``noise`` adds a jitter
    of up to ±noise to each root move's value. ``compiled=False`` forces the reference engine.
    """

    def __init__(
        self,
        seed: int | None = None,
        depth: int | None = 3,
        time: float | None = None,
        noise: float = 0.0,
        spec: str = "alphabeta",
        nodes: int | None = None,
        compiled: bool = True,
    ) -> None:
        super().__init__(seed, spec)
        self._rng = random.Random(seed)
        self._max_depth = depth if depth is not None else _OPEN_DEPTH
        self._time = time
        self._node_cap = nodes
        self._noise = noise
        self._use_compiled = compiled
        self._table: dict[Hashable, tuple[int, float, int, int]] = {}
        self._history: dict[int, int] = {}
        self._root_player = -1
        self._partial = -1
        self._deadline = Deadline(None)
        self._nodes = 0
        self._last: dict[str, float] = {}
        # The compiled search of the game last seen (None: that game has none).
        self._compiled: tuple[Game, object] | None = None

    def _search_stats(self) -> dict[str, float]:
        """Nodes, completed depth, value, seconds and engine (1 compiled) of the last search."""
        return dict(self._last)

    def _choose(self, state: State) -> int:
        """The best action found within the depth, node and time budgets."""
        actions = state.legal_actions()
        if len(actions) == 1:
            self._last = {"nodes": 0.0, "depth": 0.0, "seconds": 0.0}
            return actions[0]
        player = state.current_player
        fresh = player != self._root_player
        self._root_player = player
        self._deadline = Deadline(self._time)
        self._rng.shuffle(actions)
        jitter = [
            self._rng.uniform(-self._noise, self._noise) if self._noise else 0.0 for _ in actions
        ]
        chosen = self._choose_compiled(state, actions, jitter, fresh)
        if chosen is None:
            chosen = self._choose_reference(state, actions, jitter, fresh)
        return chosen

    def _choose_compiled(
        self, state: State, actions: list[int], jitter: list[float], fresh: bool
    ) -> int | None:
        """The compiled search's choice, or None when the game has no compiled search here."""
        if not self._use_compiled or requested_engine() == "python":
            return None
        if self._compiled is None or self._compiled[0] is not state.game:
            search_of_game = None
            if kernel_for(state.game) is not None:
                # Imported only then: NumPy and Numba come with the compiled engine alone.
                from boardlab.ai.search import compiled_search

                search_of_game = compiled_search(state.game)
            self._compiled = (state.game, search_of_game)
            fresh = True
        search = self._compiled[1]
        if search is None:
            return None
        from boardlab.ai.search import CompiledSearch

        assert isinstance(search, CompiledSearch)
        if fresh:
            search.clear()
        deadline = None if self._time is None else self._deadline.start + self._time
        # A kernel error is a bug (every kernel plays every legal game): it is raised, never
        # hidden behind the reference engine's search.
        s = search.kernel.encode(state)
        result = search.run(s, actions, jitter, self._max_depth, deadline, self._node_cap)
        self._last = {
            "nodes": float(result.nodes),
            "depth": float(result.depth),
            "value": result.value,
            "seconds": self._deadline.elapsed(),
            "compiled": 1.0,
        }
        return result.best

    # -- the reference engine ------------------------------------------------------------

    def _choose_reference(
        self, state: State, actions: list[int], jitter: list[float], fresh: bool
    ) -> int:
        """Iterative deepening through the protocol alone."""
        if fresh or len(self._table) > _TABLE_LIMIT:
            self._table.clear()
            self._history.clear()
        self._nodes = 0
        order = list(zip(actions, jitter, strict=True))
        best, value = actions[0], 0.0
        completed = 0
        for depth in range(1, self._max_depth + 1):
            if depth > 1 and self._deadline.passed():
                break
            self._partial = -1
            try:
                best, value = self._root(state, order, depth)
            except _Timeout:
                # A move that beat the previous best on the deeper search is still better.
                if self._partial != -1:
                    best = self._partial
                break
            completed = depth
            # The best move first lets the next iteration cut early.
            index = next(i for i, (action, _) in enumerate(order) if action == best)
            order.insert(0, order.pop(index))
            if abs(value) >= WIN / 2:
                break  # a forced result is known; deeper search cannot change it
        self._last = {
            "nodes": float(self._nodes),
            "depth": float(completed),
            "value": value,
            "seconds": self._deadline.elapsed(),
            "compiled": 0.0,
        }
        return best

    def _root(self, state: State, order: list[tuple[int, float]], depth: int) -> tuple[int, float]:
        """The best root move and its value (without its jitter) at ``depth``."""
        alpha = -2 * WIN
        best, best_value, raw = order[0][0], -2 * WIN, 0.0
        for action, jitter in order:
            # Searching for value + jitter > alpha is searching for value > alpha - jitter.
            value = self._search(state.child(action), depth - 1, alpha - jitter, 2 * WIN, 1)
            if value + jitter > best_value:
                best, best_value, raw = action, value + jitter, value
                self._partial = action
            alpha = max(alpha, value + jitter)
        return best, raw

    def _search(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        self._nodes += 1
        if self._nodes % _CHECK_EVERY == 0 and self._deadline.passed():
            raise _Timeout
        if self._node_cap is not None and self._nodes >= self._node_cap:
            raise _Timeout
        if state.is_terminal():
            reward = state.returns()[self._root_player]
            return reward * (WIN - ply) if reward else 0.0
        if depth <= 0:
            return state.heuristic(self._root_player)
        key = state.search_key()
        entry = self._table.get(key)
        tt_move = -1
        if entry is not None:
            entry_depth, value, flag, tt_move = entry
            if value > WIN / 2:  # stored relative to the node: wins count from the root
                value -= ply
            elif value < -WIN / 2:
                value += ply
            if entry_depth >= depth and (
                flag == EXACT
                or (flag == LOWER and value >= beta)
                or (flag == UPPER and value <= alpha)
            ):
                return value
        maximise = state.current_player == self._root_player
        history = self._history
        actions = sorted(state.legal_actions(), key=lambda a: -history.get(a, 0))
        if tt_move in actions:
            actions.remove(tt_move)
            actions.insert(0, tt_move)
        alpha0, beta0 = alpha, beta
        best_move = actions[0]
        if maximise:
            best = -2 * WIN
            for action in actions:
                value = self._search(state.child(action), depth - 1, alpha, beta, ply + 1)
                if value > best:
                    best, best_move = value, action
                    alpha = max(alpha, value)
                    if alpha >= beta:
                        break
        else:
            best = 2 * WIN
            for action in actions:
                value = self._search(state.child(action), depth - 1, alpha, beta, ply + 1)
                if value < best:
                    best, best_move = value, action
                    beta = min(beta, value)
                    if alpha >= beta:
                        break
        if best <= alpha0:
            flag = UPPER
        elif best >= beta0:
            flag = LOWER
        else:
            flag = EXACT
        if alpha >= beta:
            history[best_move] = history.get(best_move, 0) + depth * depth
        stored = best + ply if best > WIN / 2 else (best - ply if best < -WIN / 2 else best)
        self._table[key] = (depth, stored, flag, best_move)
        return best
