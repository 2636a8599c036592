"""Per-game metrics: pure functions of one game's trace, after Ludii's designer metrics.

Notation: a game has decisions ``d = 0 … D-1``; before decision ``d`` seat ``s`` has
evaluation ``e[d][s]`` in [-1, 1] (``State.heuristic``) and ``c[d]`` legal decisions. The
*leader* at ``d`` is the seat with the strictly highest evaluation (none on a tie). Each
function's docstring gives its formula; :mod:`boardlab.analysis.summary` applies them to
traces and aggregates them over many games.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from statistics import fmean, median, pvariance

CAPS = frozenset({"ply_cap", "no_capture"})
"""Terminations by a cap rather than by the rules' own ends (repetition is a rule)."""


def winner(results: Sequence[str]) -> int | None:
    """The one seat that won, or None (a draw, a shared win, or no winner)."""
    winners = [seat for seat, result in enumerate(results) if result == "win"]
    return winners[0] if len(winners) == 1 else None


def completed(termination: str) -> bool:
    """True when the game ended by its rules, not by a ply or no-capture cap."""
    return termination not in CAPS


def leaders(evals: Sequence[Sequence[float]]) -> list[int | None]:
    """``L[d]`` = the seat with the strictly highest ``e[d][s]``, None on a tie for the top."""
    found: list[int | None] = []
    for row in evals:
        best = max(row)
        top = [seat for seat, value in enumerate(row) if value == best]
        found.append(top[0] if len(top) == 1 else None)
    return found


def lead_changes(evals: Sequence[Sequence[float]]) -> int:
    """Lead changes: how often the leader differs from the previous leader (ties skipped)."""
    changes = 0
    previous: int | None = None
    for leader in leaders(evals):
        if leader is None:
            continue
        if previous is not None and leader != previous:
            changes += 1
        previous = leader
    return changes


def lasting_lead_changes(evals: Sequence[Sequence[float]]) -> int:
    """Lead changes that are not undone at once: a change from leader ``a`` to ``b`` does not
    count when the next decision with a leader has ``a`` leading again (a flicker, such as the
    swing within a capture and its recapture). Ties are skipped as in :func:`lead_changes`."""
    found = [leader for leader in leaders(evals) if leader is not None]
    return sum(
        1
        for i in range(1, len(found))
        if found[i] != found[i - 1] and (i + 1 == len(found) or found[i + 1] != found[i - 1])
    )


def comeback(evals: Sequence[Sequence[float]], win: int | None) -> float | None:
    """Comeback: 1 when the eventual winner was strictly last (every other seat evaluated
    higher) at some decision, else 0; None without a single winner or without decisions."""
    if win is None or not evals:
        return None
    return float(any(all(row[win] < v for s, v in enumerate(row) if s != win) for row in evals))


def drama(evals: Sequence[Sequence[float]], win: int | None) -> float | None:
    """Drama: how far behind the eventual winner was, ``max_d (max_s e[d][s] - e[d][w])``.

    0 when the winner was never behind; None without a single winner or without decisions.
    """
    if win is None or not evals:
        return None
    return max(max(row) - row[win] for row in evals)


def decisiveness(evals: Sequence[Sequence[float]], win: int | None) -> float | None:
    """Decisiveness: the share of the game after which the winner leads for good, ``d*/D``.

    ``d*`` is the first decision from which the winner is the leader at every later decision
    (``D`` when the winner does not lead at the last one); None without a single winner or
    without decisions. Low values: the game was decided early.
    """
    if win is None or not evals:
        return None
    found = leaders(evals)
    settled = len(found)
    while settled > 0 and found[settled - 1] == win:
        settled -= 1
    return settled / len(found)


def stability(evals: Sequence[Sequence[float]]) -> float | None:
    """Stability: the mean over seats of the variance of a seat's evaluation over the game.

    ``mean_s var_d(e[d][s])``; low values: evaluations move little. None without decisions.
    """
    if not evals:
        return None
    return fmean(pvariance([row[seat] for row in evals]) for seat in range(len(evals[0])))


def branching(choices: Sequence[int]) -> float | None:
    """Branching factor: the mean number of legal decisions, ``mean_d c[d]``."""
    return fmean(choices) if choices else None


def idle_share(seats: Sequence[int], results: Sequence[str]) -> float | None:
    """How long losing seats sit idle: the mean, over the seats that lost, of the share of the
    game's decisions after their last one (an eliminated seat sits out the rest of the game; a
    seat that lost at the end sits out less than a round). None with two seats, where a loser
    plays to the end, or without decisions or losers."""
    if len(results) < 3 or not seats:
        return None
    last = {seat: d for d, seat in enumerate(seats)}
    losers = [s for s, result in enumerate(results) if result == "loss"]
    if not losers:
        return None
    return fmean((len(seats) - 1 - last.get(s, -1)) / len(seats) for s in losers)


def tree_size(choices: Sequence[int]) -> float | None:
    """Game-tree complexity of one game, as Allis estimates it: ``log10`` of the product of
    its decisions' choice counts, ``sum_d log10 c[d]`` (the number of lines of play this long
    with these widths). The report's mean over games is the usual ``log10(b^d)`` estimate,
    taken game by game."""
    return sum(math.log10(c) for c in choices) if choices else None


def max_branching(choices: Sequence[int]) -> float | None:
    """The most legal decisions at any decision of the game, ``max_d c[d]``."""
    return float(max(choices)) if choices else None


def median_branching(choices: Sequence[int]) -> float | None:
    """The median number of legal decisions over the game's decisions."""
    return float(median(choices)) if choices else None


def forced_share(choices: Sequence[int]) -> float | None:
    """Forced decisions: the share of decisions with exactly one legal choice."""
    return sum(1 for c in choices if c == 1) / len(choices) if choices else None


def turn_choices(choices: Sequence[int], turn_start: Sequence[int]) -> list[float]:
    """Whole-turn branching per turn: the product of ``c[d]`` over the turn's decisions.

    ``turn_start[d]`` is true (nonzero) when decision ``d`` starts a turn.

    The exact number of whole turns when a turn's choices do not depend on each other, and an
    estimate otherwise (enumerating every compound turn would cost far more than the game).
    """
    turns: list[float] = []
    for count, start in zip(choices, turn_start, strict=True):
        if start or not turns:
            turns.append(float(count))
        else:
            turns[-1] *= count
    return turns


def turn_branching(choices: Sequence[int], turn_start: Sequence[int]) -> float | None:
    """Whole-turn branching factor, as a geometric mean: ``exp(mean_t log(product_t))``.

    The geometric mean, because products of compound turns span orders of magnitude.
    """
    turns = turn_choices(choices, turn_start)
    return math.exp(fmean(math.log(t) for t in turns)) if turns else None


def coverage(cells: int, covered: int) -> float | None:
    """Board coverage: the share of cells that held a seat's piece at some point."""
    return covered / cells if cells else None


def covered_cells(snapshots: Sequence[AbstractSet[str]]) -> int:
    """How many distinct cells appear in the occupied-cell sets of a game's positions."""
    return len(set().union(*snapshots)) if snapshots else 0


def margin(scores: Sequence[int] | None) -> int | None:
    """Score margin of a two-seat scored game: the first seat's score minus the second's."""
    if scores is None or len(scores) != 2:
        return None
    return scores[0] - scores[1]
