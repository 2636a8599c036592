"""Helpers shared by this game's tests."""

from __future__ import annotations

import re

from boardlab.core.registry import make
from boardlab.games.cyvasse import Cyvasse, CyvasseState
from boardlab.games.cyvasse.board import (
    INDEX_OF_NAME,
    NUM_HEXES,
)
from boardlab.games.cyvasse.position import format_board
from boardlab.games.cyvasse.units import UNIT_LETTERS


def game(**options: object) -> Cyvasse:
    """A Cyvasse game, seed 0 unless given."""
    options.setdefault("seed", 0)
    made = make("cyvasse", **options)
    assert isinstance(made, Cyvasse)
    return made


def pos(text: str, **options: object) -> CyvasseState:
    """The state of a position text."""
    return game(**options).state_from_text(text)


def of(state: CyvasseState, hex_name: str) -> list[str]:
    """Sorted legal decisions of the unit on ``hex_name``."""
    return [m for m in state.legal_moves() if re.split(r"[-x*]", m)[0] == hex_name]


def board_text(items: dict[str, str]) -> str:
    """Field 1 of a board with ``items`` (hex name -> token letter) and nothing else."""
    cells = bytearray(NUM_HEXES)
    tokens = "_M" + UNIT_LETTERS + UNIT_LETTERS.lower()
    for name, token in items.items():
        cells[INDEX_OF_NAME[name]] = tokens.index(token)
    return format_board(cells)
