"""Per-game metrics of a deep trace (:mod:`boardlab.analysis.deep_trace`): how clear the
decisions were, how far from the best the bots played, repetition, and how far pieces move.

``a[4d + k]`` is the summary of decision ``d``'s alternatives (``k`` = 0 variance, 1
narrowness, 2 the chosen one's shortfall from the best, 3 the gap between the best two);
forced decisions (``c[d] = 1``) are left out of every mean. The ``search_*`` functions read the
same summaries made from an MCTS bot's own root values instead. Each function gives None for a
trace without the column (not deep, or no MCTS bot) or without a decision it counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import fmean

UNCERTAIN = 0.05
"""A decision is uncertain when its best two alternatives are evaluated less than this apart
(a fortieth of the evaluation's range, -1 to 1)."""


def _column(alternatives: Sequence[float], choices: Sequence[int], k: int) -> list[float]:
    """Column ``k`` of the alternatives' summaries, over the decisions that were not forced."""
    if not alternatives:
        return []
    return [alternatives[4 * d + k] for d, c in enumerate(choices) if c > 1]


def clarity_variance(alternatives: Sequence[float], choices: Sequence[int]) -> float | None:
    """Ludii's clarity (variance): the mean variance of a decision's alternatives' evaluations."""
    found = _column(alternatives, choices, 0)
    return fmean(found) if found else None


def narrowness(alternatives: Sequence[float], choices: Sequence[int]) -> float | None:
    """Ludii's clarity (narrowness): the mean share of a decision's alternatives at least three
    quarters of the way from their mean to the best (low: a few good moves stand out)."""
    found = _column(alternatives, choices, 1)
    return fmean(found) if found else None


def chosen_shortfall(alternatives: Sequence[float], choices: Sequence[int]) -> float | None:
    """The evaluation difference of the chosen move: the mean of (best alternative's
    evaluation - the chosen one's), 0 when the bots always play the best one decision ahead."""
    found = _column(alternatives, choices, 2)
    return fmean(found) if found else None


def uncertainty(alternatives: Sequence[float], choices: Sequence[int]) -> float | None:
    """The share of decisions whose best two alternatives are less than ``UNCERTAIN`` apart:
    where the evaluation can hardly tell the best move."""
    found = _column(alternatives, choices, 3)
    return sum(1 for gap in found if gap < UNCERTAIN) / len(found) if found else None


def repetition(seen: Sequence[int]) -> float | None:
    """The share of a game's decisions taken in a position (or board) seen before in it."""
    return sum(seen) / len(seen) if seen else None


def mean_distance(distance: Sequence[float]) -> float | None:
    """The mean distance a decision moves a piece, in cell sizes, over the decisions that move
    one from a cell to another (placements and buttons have none, stored as -1)."""
    found = [d for d in distance if d >= 0]
    return fmean(found) if found else None


def search_clarity(searched: Sequence[float]) -> float | None:
    """Clarity (variance) from an MCTS bot's own root values: the mean variance of the mean
    rewards of the decisions its search opened (``searched``: four numbers per decision that
    had a search, as :func:`deep_trace.alternatives_summary` gives them)."""
    found = searched[0::4]
    return fmean(found) if found else None


def search_shortfall(searched: Sequence[float]) -> float | None:
    """How far below the best mean reward of its opened decisions the MCTS bot's choice (the
    most visited one) was, on average: 0 when the most visited is always the best valued."""
    found = searched[2::4]
    return fmean(found) if found else None


def search_uncertainty(searched: Sequence[float]) -> float | None:
    """The share of an MCTS bot's searched decisions whose two best mean rewards are less than
    ``UNCERTAIN`` apart."""
    found = searched[3::4]
    return sum(1 for gap in found if gap < UNCERTAIN) / len(found) if found else None
