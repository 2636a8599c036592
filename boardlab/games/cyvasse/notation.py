"""Explanations of well-formed but illegal Cyvasse decisions (spec §6, §10)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from boardlab.games.cyvasse.board import HEX_NAMES, INDEX_OF_NAME, RANK_LEN
from boardlab.games.cyvasse.units import EMPTY, MOUNTAIN, cell_side

if TYPE_CHECKING:
    from boardlab.games.cyvasse.state import CyvasseState

_HEX = re.compile(r"[a-k](?:1[01]|[1-9])")


def hex_problem(name: str) -> str | None:
    """Why a well-formed hex name is not on the board, or None."""
    if name in INDEX_OF_NAME:
        return None
    rank = int(name[1:])
    last = "abcdefghijk"[RANK_LEN[rank - 1] - 1]
    return f"{name} is not a hex: rank {rank} runs from a{rank} to {last}{rank}"


def explain_illegal(state: CyvasseState, text: str) -> str | None:
    """A reason for an illegal decision that is more helpful than the legal-move list."""
    from boardlab.games.cyvasse.state import SIDE_NAMES

    for name in _HEX.findall(text):
        problem = hex_problem(name)
        if problem:
            return problem
    side = SIDE_NAMES[state.side]
    if state.deploying:
        item = state.next_item()
        if "@" not in text:
            return f"{side} is deploying; place the next item with {item}@hex"
        if text[0] != item:
            return f"the next item {side} deploys is {item}, so write {item}@{text[2:]}"
        zone = "1-5" if state.side == 0 else "7-11"
        return f"{text[2:]} is not an empty hex of {side}'s zone (ranks {zone})"
    if "@" in text:
        return "deployment is over; move with from-to, attack with fromxto, shoot with from*to"
    if state.jump is not None:
        at = HEX_NAMES[state.jump[1]]
        if not text.startswith(at):
            return f"the cavalry turn must go on with the unit on {at} (second jump)"
        return None
    if text in ("end", "pass"):
        return None
    frm = INDEX_OF_NAME[_HEX.findall(text)[0]]
    cell = state.board[frm]
    if cell in (EMPTY, MOUNTAIN) or cell_side(cell) != state.side:
        return f"{HEX_NAMES[frm]} holds no {side} unit"
    return None
