"""What the deeper metrics need, traced decision by decision when a run asks for it (``--deep``).

At every decision: each legal decision's evaluation one decision ahead (the game's heuristic of
the position it leads to, for the seat to move; a win 2, a loss -2, as the greedy bot scores
them) summed up as four numbers, whether the position (the game's repetition key) and the board
alone (the render model's cells and stacks) were seen before in the game, and the distance the
decision moved a piece. These cost about a greedy bot's thinking and a render model per
decision, many times a random decision, so a run traces them only when asked.

The evaluations are the lab's one-decision look-ahead, the same for every bot. Where the bot
that decides is an MCTS bot, its own search values are kept too (each opened root decision's
mean reward for the seat to move, summed up in the same four numbers): alpha-beta's are not,
since it returns only its best move, and its other root moves have bounds, not values, once
pruned.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Hashable, Sequence
from statistics import fmean, pvariance
from typing import TYPE_CHECKING, Final

from boardlab.ai.greedy import Scorer, compiled_scorer, reference_scores
from boardlab.core.game import Game
from boardlab.core.render_model import RenderModel
from boardlab.core.state import State

if TYPE_CHECKING:
    from boardlab.analysis.trace import GameTrace

EVAL_DIGITS = 4
"""Decimals kept, as the trace keeps its evaluations."""

SUMMARY: Final = 4
"""Numbers kept per decision about its alternatives: variance, narrowness, regret, top gap."""
NARROW = 0.75
"""Ludii's narrowness counts the alternatives at least this far from the mean to the best."""
NO_DISTANCE: Final = -1.0
"""The distance of a decision that does not move a piece from one cell to another."""


def alternatives_summary(scores: Sequence[float], chosen: float) -> list[float]:
    """A decision's alternatives in four numbers: the variance of their evaluations (Ludii's
    clarity, variance), the share of them at least ``NARROW`` of the way from the mean to the
    best (Ludii's clarity, narrowness: few means the good moves stand out), how much worse the
    chosen one is than the best (the chosen move's evaluation difference) and the gap between
    the best two (small: the evaluation can hardly tell the best move). Zeros when forced."""
    if len(scores) < 2:
        return [0.0] * SUMMARY
    best, centre = max(scores), fmean(scores)
    bar = centre + NARROW * (best - centre)
    narrow = sum(1 for s in scores if s >= bar - 1e-12) / len(scores)
    top = sorted(scores, reverse=True)
    return [pvariance(scores), narrow, best - chosen, top[0] - top[1]]


def move_distance(model: RenderModel, targets: Sequence[str]) -> float:
    """How far a decision moves a piece, in cell sizes: the distance between the centres of the
    first and the last board cell it clicks, over the first cell's size; ``NO_DISTANCE`` when
    it clicks fewer than two board cells (a placement from a pool, a button)."""
    cells = {cell.id: cell for cell in model.cells}
    on_board = [cells[t] for t in targets if t in cells]
    if len(on_board) < 2 or on_board[0].size <= 0:
        return NO_DISTANCE
    first, last = on_board[0], on_board[-1]
    return math.hypot(last.x - first.x, last.y - first.y) / first.size


def board_key(model: RenderModel) -> tuple[tuple[str, tuple[Hashable, ...]], ...]:
    """The board alone, as drawn: each occupied cell and its stack (no side to move, pools or
    counters), so that two positions that differ only there compare equal."""
    return tuple(
        (cell.id, tuple((p.owner, p.kind, p.count, p.face) for p in cell.stack))
        for cell in model.cells
        if cell.stack
    )


def state_space(cells: int, contents: int) -> float:
    """Ludii's state-space upper bound, from what a game showed: ``cells * log10(contents + 1)``,
    every cell empty or holding any of the ``contents`` (distinct stacks) seen, independently
    (an upper bound for those contents; contents never seen, the side to move, pools and
    counters are not counted)."""
    return cells * math.log10(contents + 1)


class DeepTrace:
    """The deeper columns of one game, filled by :meth:`decision` before each decision."""

    def __init__(self, game: Game) -> None:
        self._scorer: Scorer = compiled_scorer(game) or reference_scores
        self.alternatives: array[float] = array("d")
        self.repeats: array[int] = array("B")
        self.board_repeats: array[int] = array("B")
        self.distance: array[float] = array("d")
        self.searched: array[float] = array("d")
        self.searched_at: array[int] = array("I")
        self._positions: set[Hashable] = set()
        self._boards: set[Hashable] = set()
        self._contents: set[Hashable] = set()
        self._cells = 0
        self._drawn = True

    def decision(self, state: State, action: int) -> None:
        """Trace the decision ``action`` about to be played in ``state``."""
        actions = state.legal_actions()
        scores = self._scorer(state, actions, state.current_player) if len(actions) > 1 else []
        chosen = scores[actions.index(action)] if scores else 0.0
        self.alternatives.extend(alternatives_summary(scores, chosen))
        key = state._repetition_key()
        self.repeats.append(key in self._positions)
        self._positions.add(key)
        model = self._model(state)
        if model is None:
            return
        board = board_key(model)
        self.board_repeats.append(board in self._boards)
        self._boards.add(board)
        self._contents.update(stack for _, stack in board)
        self._cells = max(self._cells, len(model.cells))
        self.distance.append(move_distance(model, state.click_path(action).targets))

    def search(
        self, decision: int, children: Sequence[tuple[int, int, float]], action: int
    ) -> None:
        """Keep an MCTS bot's own view of decision ``decision``: ``children`` are its root's
        opened decisions as (action, visits, reward sum of the seat to move), ``action`` the one
        it played; nothing when fewer than two were visited (a forced or winning move)."""
        means = {a: value / visits for a, visits, value in children if visits > 0}
        if len(means) < 2 or action not in means:
            return
        self.searched_at.append(decision)
        self.searched.extend(alternatives_summary(list(means.values()), means[action]))

    def _model(self, state: State) -> RenderModel | None:
        """The state's render model, None for a game without one (asked once)."""
        if not self._drawn:
            return None
        try:
            return state.render_model()
        except NotImplementedError:
            self._drawn = False
            return None

    def fill(self, trace: GameTrace) -> None:
        """Put the columns, rounded as the trace keeps its evaluations, into ``trace``."""
        trace.alternatives = array("d", (round(v, EVAL_DIGITS) + 0.0 for v in self.alternatives))
        trace.repeats, trace.board_repeats = self.repeats, self.board_repeats
        trace.distance = array("d", (round(v, EVAL_DIGITS) for v in self.distance))
        trace.searched = array("d", (round(v, EVAL_DIGITS) + 0.0 for v in self.searched))
        trace.searched_at = self.searched_at
        cells, contents = self._cells, len(self._contents)
        trace.state_space = round(state_space(cells, contents), EVAL_DIGITS) if cells else None
