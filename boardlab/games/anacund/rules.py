"""Anacund rules on a plain square array: legal placements, capture resolution and scoring.

A position's squares are a ``bytearray`` of 36 codes (see ``FREE`` … ``BLOCKED``). Seats are
0 (A, Dark) and 1 (B, Light). These functions are the hot path of playouts and search, so they
work on flat data and precomputed tables only.
"""

from __future__ import annotations

from boardlab.games.anacund.board import SQUARES, Layout
from boardlab.games.anacund.notation import encode

FREE = 0
PIECE = (1, 2)
"""Code of a square occupied by a piece of seat 0 / seat 1."""
BLOCKED = (3, 4)
"""Code of a blocked square whose captured piece lies beside it in seat 0's / seat 1's colour."""
SQUARE_CHARS = ".abAB"


def legal_actions(squares: bytearray, layout: Layout, groups: tuple[int, ...]) -> list[int]:
    """Every legal placement for a player with these group sizes (spec §6)."""
    actions: list[int] = []
    by_value = layout.by_value
    for size in set(groups):
        if size == 0:
            continue
        base = encode(size, 0)
        targets = [base + i for i in by_value[size] if squares[i] == FREE]
        if not targets:
            # §6.3 fallback: no free square of this value, so any free square will do.
            targets = [base + i for i in range(SQUARES) if squares[i] == FREE]
        actions += targets
    return actions


def place(
    squares: bytearray, index: int, seat: int, nxt: tuple[int, ...], prv: tuple[int, ...]
) -> list[int]:
    """Put ``seat``'s piece on free square ``index`` and resolve captures (spec §7).

    Returns the indices captured: the opponent runs flanked by the attack, or else the
    player's own run if it is now landlocked. ``nxt``/``prv`` are the neighbour tables
    (-1 past the ends of an open track).
    """
    mine = PIECE[seat]
    theirs = PIECE[1 - seat]
    squares[index] = mine
    captured: list[int] = []
    for step in (nxt, prv):
        j = step[index]
        if j < 0 or squares[j] != theirs:
            continue
        run = []
        while j >= 0 and squares[j] == theirs:
            run.append(j)
            j = step[j]
        # j != index: a run that wraps back to the new piece has one flanking square, not two.
        if j >= 0 and j != index and squares[j] == mine:
            captured.extend(run)
    if captured:
        # Both sides are captured together; the placed piece is the conqueror (§7.2).
        code = BLOCKED[seat]
        for j in captured:
            squares[j] = code
        return captured
    return _self_landlock(squares, index, seat, nxt, prv)


def _self_landlock(
    squares: bytearray, index: int, seat: int, nxt: tuple[int, ...], prv: tuple[int, ...]
) -> list[int]:
    """Capture the placing player's run through ``index`` if opponents flank it (§7.3)."""
    mine = PIECE[seat]
    theirs = PIECE[1 - seat]
    run = [index]
    ends = []
    for step in (nxt, prv):
        j = step[index]
        while j >= 0 and j != index and squares[j] == mine:
            run.append(j)
            j = step[j]
        if j < 0 or j == index or squares[j] != theirs:
            return []
        ends.append(j)
    if ends[0] == ends[1]:
        return []
    code = BLOCKED[1 - seat]
    for j in run:
        squares[j] = code
    return run


def piece_counts(squares: bytearray) -> tuple[int, int]:
    """Pieces of each colour on the track or beside it (1 point each, spec §8)."""
    a = squares.count(PIECE[0]) + squares.count(BLOCKED[0])
    b = squares.count(PIECE[1]) + squares.count(BLOCKED[1])
    return a, b


def bonus_owner(squares: bytearray, bonus: int) -> int | None:
    """Seat whose colour is on or beside the bonus square (1-based), None while it is free."""
    code = squares[bonus - 1]
    if code == FREE:
        return None
    return 0 if code in (PIECE[0], BLOCKED[0]) else 1


def scores(squares: bytearray, bonus: int, bonus_points: int) -> tuple[int, int]:
    """Each seat's score now: its pieces plus ``bonus_points`` for the bonus square (§8)."""
    a, b = piece_counts(squares)
    owner = bonus_owner(squares, bonus)
    if owner == 0:
        a += bonus_points
    elif owner == 1:
        b += bonus_points
    return a, b
