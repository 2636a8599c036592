"""The compiled kernel and the reference in lock step through the rare positions of random
play: a side whose towers cannot move but can still sacrifice (it plays on: only a side with
no tower move and no sacrifice is stalemated, spec §8).

Uniformly random games reach a sacrifice-only position about once in 600 games, so the ten
random games per option set of ``test_kernel.py`` would let a kernel that calls it a stalemate
through. Instead, every move of random crowded positions (the towers of the side not to move hemmed
in by the mover's stones) is played in both engines and compared, for every option set:
about fifty moves into a sacrifice-only position each, in a fraction of a second.
"""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

pytest.importorskip("numba")

import boardlab
from boardlab.core.engine import Kernel, KernelArray
from boardlab.core.engine_check import compare, option_sets
from boardlab.core.errors import BoardlabError
from boardlab.games.murus_gallicus import kernel as mg

CASES = option_sets("murus-gallicus")
POSITIONS = 15
"""Crowded positions per option set; their moves reach a sacrifice-only position about fifty
times (at least 20 checked), so a kernel wrong there fails on every option set."""


STEPS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
"""The eight directions a tower moves in and sacrifices towards."""


def moves(kernel: Kernel, s: KernelArray) -> list[int]:
    out = np.zeros(kernel.max_legal, dtype=np.int64)
    return [int(a) for a in out[: kernel.legal(kernel.params, s, out)]]


def tower_moves(kernel: Kernel, s: KernelArray) -> int:
    """The tower moves of the side to move (action ids below 8 per cell: spec §6)."""
    cells = int(kernel.params[mg.P_CELLS])
    return sum(action < 8 * cells for action in moves(kernel, s))


def crowded(rng: random.Random, rows: int, columns: int) -> str:
    """A position text where the side not to move has a tower or two, mostly hemmed in by the
    mover's stones, among a third of the other cells taken at random; each side holds 16
    stones at most (a tower two) and none on its goal row (spec §4, §8)."""
    mover, other = rng.sample("RG", 2)
    goal_rows = {"R": 0, "G": rows - 1}
    board: dict[tuple[int, int], str] = {}
    stones = {"R": 0, "G": 0}

    def put(cell: tuple[int, int], piece: str) -> None:
        weight = 2 if piece.isupper() else 1
        inside = 0 <= cell[0] < rows and 0 <= cell[1] < columns
        side = piece.upper()
        allowed = inside and cell not in board and cell[0] != goal_rows[side]
        if allowed and stones[side] + weight <= 16:
            board[cell] = piece
            stones[side] += weight

    # Off the other side's home row, where the mover may not stand: (spec §4).
    rows_free = [row for row in range(rows) if row != goal_rows[mover]]
    towers = [(rng.choice(rows_free), rng.randrange(columns)) for _ in range(rng.choice((1, 2)))]
    for cell in towers:
        put(cell, other)
    for row, column in towers:
        for step_row, step_column in STEPS:
            if rng.random() < 0.95:
                piece = mover if rng.random() < 0.2 else mover.lower()
                put((row + step_row, column + step_column), piece)
    for row in range(rows):
        for column in range(columns):
            if rng.random() < 0.3:
                side = rng.choice((mover, other))
                stacked = side == mover and rng.random() < 0.3
                put((row, column), side if stacked else side.lower())
    lines = []
    for row in range(rows):
        cells = "".join(board.get((row, column), ".") for column in range(columns))
        lines.append(re.sub(r"\.+", lambda run: str(len(run.group())), cells))
    return "/".join(lines) + f" {mover} 4"


def sacrifice_only_after_moves(options: dict[str, object], positions: int, seed: int) -> int:
    """Play every move of ``positions`` crowded positions in both engines, comparing them
    after each; the moves that leave the opponent only sacrifices."""
    game = boardlab.make("murus-gallicus", **options)
    kernel = mg.make_kernel(game)
    rows = game.new_initial_state().position_text().split()[0].split("/")
    rng = random.Random(seed)
    met = 0
    for index in range(positions):
        try:
            state = game.state_from_text(crowded(rng, len(rows), len(rows[0])))
        except BoardlabError:
            continue
        s = kernel.encode(state)
        compare(kernel, state, s, f"{game!r} crowded position {index}")
        for action in [] if state.is_terminal() else sorted(state.legal_actions()):
            after, s_after = state.clone(), s.copy()
            after.apply_action(action)
            kernel.apply(kernel.params, s_after, action)
            compare(kernel, after, s_after, f"{game!r} crowded position {index} action {action}")
            met += not after.is_terminal() and tower_moves(kernel, s_after) == 0
    return met


@pytest.mark.parametrize("options", CASES, ids=[str(c) for c in CASES])
def test_every_move_of_crowded_positions_in_lock_step(options: dict[str, object]) -> None:
    met = sacrifice_only_after_moves(options, POSITIONS, seed=38)
    # With a ply cap of 1 or a draw at a position's first return every move ends the game.
    if options.get("max_plies") != 1 and options.get("repetition_draw") != 1:
        assert met >= 20, met
