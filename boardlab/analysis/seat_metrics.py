"""Metrics of who ends how: the decisiveness threshold and, at 3-5 seats, kingmaking and
elimination; pure functions of a game's trace columns (see :mod:`metrics` for the notation).
Outcome uniformity, a figure of many games, is :func:`stats.bootstrap_uniformity` of
:data:`UTILITY`.
"""

from __future__ import annotations

from collections.abc import Sequence

from boardlab.analysis.metrics import leaders, winner

UTILITY = {"win": 1.0, "draw": 0.0, "loss": -1.0}
"""A seat's result as a number, as Ludii's outcome uniformity counts it: uniformity is
``1 - mean_s var_g u[g][s]`` over games ``g``, 0 when every seat wins or loses half its games,
1 when every game ends alike for each seat (always drawn, or one seat always wins)."""


def decisiveness_threshold(
    evals: Sequence[Sequence[float]], results: Sequence[str]
) -> float | None:
    """Ludii's decisiveness threshold: the highest evaluation that a seat which did not win
    reached in the game (a lead up to this could still be lost). None without a single winner
    or without decisions."""
    win = winner(results)
    if win is None or not evals:
        return None
    return max(value for row in evals for s, value in enumerate(row) if s != win)


def kingmade(
    seats: Sequence[int], evals: Sequence[Sequence[float]], results: Sequence[str]
) -> float | None:
    """Kingmaking at 3-5 seats: 1 when the decision that put the eventual winner in the lead for
    good (after it the winner leads at every later decision) was played by a seat that lost and
    was then strictly last in evaluation, a seat out of the running deciding who wins; else 0
    (also when the winner led from the first decision, or did not lead at the last one). None
    with two seats, without a single winner, or without decisions."""
    win = winner(results)
    if len(results) < 3 or win is None or not evals:
        return None
    found = leaders(evals)
    settled = len(found)
    while settled > 0 and found[settled - 1] == win:
        settled -= 1
    if settled in (0, len(found)):
        return 0.0
    maker = seats[settled - 1]
    row = evals[settled - 1]
    last = all(row[maker] < value for s, value in enumerate(row) if s != maker)
    return float(results[maker] == "loss" and last)


def eliminated(
    seats: Sequence[int], turn_start: Sequence[int], results: Sequence[str]
) -> float | None:
    """Seats knocked out before the end, at 3-5 seats: the losing seats that started none of the
    game's last ``K`` turns (``K`` seats), where every seat still in play has a turn. None with
    two seats or without decisions."""
    if len(results) < 3 or not seats:
        return None
    starters = [seat for seat, start in zip(seats, turn_start, strict=True) if start]
    final = set(starters[-len(results) :])
    return float(sum(1 for s, r in enumerate(results) if r == "loss" and s not in final))
