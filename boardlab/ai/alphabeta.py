"""Alpha-beta search, through the protocol alone.

Iterative deepening on decisions (a compound turn is several plies of the search, the same
player moving again), a transposition table keyed by the position text, move ordering (the
table's best move, then history scores), and a time budget checked every few hundred nodes.
Values are from the root player's point of view: nodes where the root player is to move
maximise, the others minimise, so compound turns need no special case. With more than two
seats this is the "paranoid" search: every rival is assumed to play against the root player.
"""

from __future__ import annotations

import random
import zlib

from boardlab.ai.base import Bot, Deadline
from boardlab.core.state import State

WIN = 100.0
"""Value of a won game; a win found sooner scores higher (WIN minus its depth)."""
EXACT, LOWER, UPPER = 0, 1, 2
_CHECK_EVERY = 256
_TABLE_LIMIT = 400_000


class _Timeout(Exception):
    """The time budget ran out during a search iteration."""


class AlphaBetaBot(Bot):
    """Iterative-deepening alpha-beta with a transposition table; paranoid beyond two seats.

    ``depth`` bounds the search in decisions and ``time`` in seconds; with ``time`` alone the
    depth is open. ``noise`` adds a seeded jitter (fixed per position) to leaf evaluations so
    that a series of games varies; the root order is shuffled by the seed as well.
    """

    def __init__(
        self,
        seed: int | None = None,
        depth: int | None = 3,
        time: float | None = None,
        noise: float = 0.0,
        spec: str = "alphabeta",
    ) -> None:
        super().__init__(seed, spec)
        self._rng = random.Random(seed)
        self._salt = self._rng.getrandbits(32)
        self._max_depth = depth if depth is not None else 64
        self._time = time
        self._noise = noise
        self._table: dict[str, tuple[int, float, int, int]] = {}
        self._history: dict[int, int] = {}
        self._root_player = -1
        self._partial = -1
        self._deadline = Deadline(None)
        self._nodes = 0
        self._last: dict[str, float] = {}

    def _search_stats(self) -> dict[str, float]:
        """Nodes, completed depth and seconds of the last search."""
        return dict(self._last)

    def _choose(self, state: State) -> int:
        """The best action found within the depth and time budgets."""
        actions = state.legal_actions()
        if len(actions) == 1:
            self._last = {"nodes": 0.0, "depth": 0.0, "seconds": 0.0}
            return actions[0]
        player = state.current_player
        if player != self._root_player or len(self._table) > _TABLE_LIMIT:
            self._table.clear()
            self._history.clear()
            self._root_player = player
        self._deadline = Deadline(self._time)
        self._nodes = 0
        self._rng.shuffle(actions)
        best = actions[0]
        completed = 0
        for depth in range(1, self._max_depth + 1):
            self._partial = -1
            try:
                best = self._root(state, actions, depth)
            except _Timeout:
                # A move that beat the previous best on the deeper search is still better.
                if self._partial != -1:
                    best = self._partial
                break
            completed = depth
            # The best move first lets the next iteration cut early.
            actions.remove(best)
            actions.insert(0, best)
            entry = self._table.get(state.position_text())
            if entry is not None and abs(entry[1]) >= WIN - self._max_depth:
                break  # a forced result is known; deeper search cannot change it
        self._last = {
            "nodes": float(self._nodes),
            "depth": float(completed),
            "seconds": self._deadline.elapsed(),
        }
        return best

    def _root(self, state: State, actions: list[int], depth: int) -> int:
        alpha, beta = -2 * WIN, 2 * WIN
        best, best_value = actions[0], -2 * WIN
        for action in actions:
            value = self._search(state.child(action), depth - 1, alpha, beta, 1)
            if value > best_value:
                best, best_value = action, value
                self._partial = action
            alpha = max(alpha, value)
        self._table[state.position_text()] = (depth, best_value, EXACT, best)
        return best

    def _search(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        self._nodes += 1
        if self._nodes % _CHECK_EVERY == 0 and self._deadline.passed():
            raise _Timeout
        if state.is_terminal():
            reward = state.returns()[self._root_player]
            return reward * (WIN - ply) if reward else 0.0
        if depth <= 0:
            return self._evaluate(state)
        key = state.position_text()
        entry = self._table.get(key)
        tt_move = -1
        if entry is not None:
            entry_depth, value, flag, tt_move = entry
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
        self._table[key] = (depth, best, flag, best_move)
        return best

    def _evaluate(self, state: State) -> float:
        value = state.heuristic(self._root_player)
        if self._noise:
            # Jitter fixed per position (not per visit) so the table stays consistent.
            text = state.position_text().encode()
            jitter = (zlib.crc32(text, self._salt) & 0xFFFF) / 0xFFFF - 0.5
            value += 2 * self._noise * jitter
        return value
