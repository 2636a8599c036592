"""Cyvasse position text (spec §11): writing it and parsing it strictly.

``parse_position(game, text)`` accepts only canonical, consistent texts. With ``view=True`` it
also accepts a hidden-deployment view (North deploying, South's zone written empty) and returns
a view state, as :meth:`CyvasseState.view_state` would.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from boardlab.core.errors import PositionError
from boardlab.games.cyvasse.board import (
    HEX_NAMES,
    INDEX_OF_NAME,
    NUM_HEXES,
    RANK_LEN,
    RANK_START,
    RANKS,
    ZONE_OF,
    ZONES,
)
from boardlab.games.cyvasse.state import SIDE_NAMES, CyvasseState, Jump
from boardlab.games.cyvasse.units import (
    EMPTY,
    IS_CAVALRY,
    ITEM_LETTERS,
    KING,
    MOUNTAIN,
    MOUNTAIN_ITEM,
    SIDE_BASE,
    UNIT_LETTERS,
    cell_kind,
    cell_side,
)

if TYPE_CHECKING:
    from boardlab.games.cyvasse.game import Cyvasse

_TOKEN = re.compile(r"1[01]|[1-9]|[KDEHLSRBCTMkdehlsrbct]")
_COUNTER = re.compile(r"0|[1-9][0-9]*")
_HEX = r"[a-k](?:1[01]|[1-9])"
_STEP = re.compile(rf"({_HEX})([-x])({_HEX})")
_CELL_TEXT: tuple[str, ...] = ("", "M", *UNIT_LETTERS, *UNIT_LETTERS.lower())


def format_board(board: bytearray | bytes) -> str:
    """Field 1: ranks 11..1 joined by ``/``, runs of empty hexes as numbers."""
    rows: list[str] = []
    for rank in range(RANKS, 0, -1):
        start = RANK_START[rank - 1]
        row: list[str] = []
        run = 0
        for h in range(start, start + RANK_LEN[rank - 1]):
            cell = board[h]
            if cell == EMPTY:
                run += 1
                continue
            if run:
                row.append(str(run))
                run = 0
            row.append(_CELL_TEXT[cell])
        if run:
            row.append(str(run))
        rows.append("".join(row))
    return "/".join(rows)


def format_step(state: CyvasseState) -> str:
    """Field 3: ``d``, ``-`` or the first jump of the cavalry turn in progress."""
    if state.deploying:
        return "d"
    if state.jump is None:
        return "-"
    frm, to, captured = state.jump
    return f"{HEX_NAMES[frm]}{'x' if captured else '-'}{HEX_NAMES[to]}"


def format_position(state: CyvasseState) -> str:
    """The six-field position text of a state."""
    return " ".join(
        (
            format_board(state.board),
            "SN"[state.side],
            format_step(state),
            "p" if state.passed else "-",
            str(state.no_capture),
            str(state.ply),
        )
    )


def parse_board(field: str) -> bytearray:
    """Field 1 to a board, checking rank lengths and canonical runs."""
    ranks = field.split("/")
    if len(ranks) != RANKS:
        raise PositionError(f"the board must have {RANKS} ranks separated by '/', not {len(ranks)}")
    board = bytearray(NUM_HEXES)
    for row, text in enumerate(ranks):
        rank = RANKS - row
        tokens = _TOKEN.findall(text)
        if "".join(tokens) != text:
            raise PositionError(
                f"rank {rank} {text!r}: use unit letters {UNIT_LETTERS} (lowercase for North), "
                "M for a Mountain and numbers 1-11 for empty runs"
            )
        cells: list[int] = []
        previous_number = False
        for token in tokens:
            if token.isdigit():
                if previous_number:
                    raise PositionError(f"rank {rank} {text!r}: write each empty run as one number")
                cells.extend([EMPTY] * int(token))
                previous_number = True
            else:
                cells.append(_CELL_TEXT.index(token))
                previous_number = False
        if len(cells) != RANK_LEN[rank - 1]:
            raise PositionError(
                f"rank {rank} {text!r} covers {len(cells)} hexes; it has {RANK_LEN[rank - 1]}"
            )
        start = RANK_START[rank - 1]
        board[start : start + len(cells)] = bytes(cells)
    return board


def _counter(text: str, what: str) -> int:
    if not _COUNTER.fullmatch(text):
        raise PositionError(f"the {what} must be a decimal number without leading zeros: {text!r}")
    return int(text)


def parse_position(game: Cyvasse, text: str, view: bool = False) -> CyvasseState:
    """Parse a position text (raises PositionError naming the problem)."""
    fields = text.split(" ")
    if len(fields) != 6:
        raise PositionError(
            f"a Cyvasse position has 6 fields separated by single spaces, got {len(fields)}: "
            "board, side (S/N), step (d, - or a first jump), last ply (p/-), "
            "no-capture counter, ply counter"
        )
    board_text, side_text, step_text, pass_text, counter_text, ply_text = fields
    board = parse_board(board_text)
    if side_text not in ("S", "N"):
        raise PositionError(f"side to move must be S or N, not {side_text!r}")
    side = "SN".index(side_text)
    if pass_text not in ("p", "-"):
        raise PositionError(f"the last-ply field must be p or -, not {pass_text!r}")
    passed = pass_text == "p"
    no_capture = _counter(counter_text, "no-capture counter")
    ply = _counter(ply_text, "ply counter")
    _check_counts(game, board)
    if step_text == "d":
        return _parse_deployment(game, board, side, passed, no_capture, ply, view)
    jump = _parse_step(board, side, step_text)
    if ply < 2:
        raise PositionError("normal play starts at ply 2, after both deployments")
    kings = [SIDE_BASE[s] + KING in board for s in (0, 1)]
    if not all(kings):
        if kings[side] or not kings[1 - side]:
            raise PositionError(
                "a King may be missing only when the game just ended: the side to move's King, "
                "with the other King on the board"
            )
        if jump is not None:
            raise PositionError("the game is over (a King is missing); the step must be -")
    state = CyvasseState(game, board, side, False, 0, jump, passed, no_capture, ply)
    if jump is not None and not state.legal_actions():
        raise PositionError(f"the cavalry on {HEX_NAMES[jump[1]]} has no second jump to make")
    return state


def _check_counts(game: Cyvasse, board: bytearray) -> None:
    counts = game.counts
    seen = [[0] * len(ITEM_LETTERS) for _ in range(2)]
    mountains = 0
    for cell in board:
        if cell == MOUNTAIN:
            mountains += 1
        elif cell != EMPTY:
            seen[cell_side(cell)][cell_kind(cell)] += 1
    for s in (0, 1):
        for kind, letter in enumerate(UNIT_LETTERS):
            if seen[s][kind] > counts[kind]:
                raise PositionError(
                    f"{SIDE_NAMES[s]} has {seen[s][kind]} {letter}; the army has {counts[kind]}"
                )
    if mountains > 2 * counts[MOUNTAIN_ITEM]:
        raise PositionError(
            f"{mountains} Mountains on the board; the armies have {2 * counts[MOUNTAIN_ITEM]}"
        )


def _parse_step(board: bytearray, side: int, text: str) -> Jump | None:
    if text == "-":
        return None
    match = _STEP.fullmatch(text)
    if not match or match.group(1) not in INDEX_OF_NAME or match.group(3) not in INDEX_OF_NAME:
        raise PositionError(
            f"step must be d, - or a cavalry first jump such as c3-c6 or c3xe6, not {text!r}"
        )
    frm, to = INDEX_OF_NAME[match.group(1)], INDEX_OF_NAME[match.group(3)]
    cell = board[to]
    low = SIDE_BASE[side]
    if not (low <= cell < low + 10 and IS_CAVALRY[cell - low]):
        raise PositionError(
            f"step {text}: {HEX_NAMES[to]} must hold a Light or Heavy Horse of {SIDE_NAMES[side]}"
        )
    if frm == to or board[frm] != EMPTY:
        raise PositionError(f"step {text}: the cavalry left {HEX_NAMES[frm]}, so it is empty")
    return frm, to, match.group(2) == "x"


def _items_in(board: bytearray, side: int, zone_side: int) -> list[int]:
    """Item indices (Mountains as MOUNTAIN_ITEM) of ``side`` in ``zone_side``'s zone."""
    items: list[int] = []
    for h in ZONES[zone_side]:
        cell = board[h]
        if cell == MOUNTAIN and side == zone_side:
            items.append(MOUNTAIN_ITEM)
        elif cell > MOUNTAIN and cell_side(cell) == side:
            items.append(cell_kind(cell))
    return items


def _parse_deployment(
    game: Cyvasse,
    board: bytearray,
    side: int,
    passed: bool,
    no_capture: int,
    ply: int,
    view: bool,
) -> CyvasseState:
    if passed or no_capture:
        raise PositionError("during deployment the last-ply field is - and the counter is 0")
    if ply != side:
        raise PositionError(f"{SIDE_NAMES[side]} deploys at ply {side}, not {ply}")
    order = game.order
    for h in range(NUM_HEXES):
        cell = board[h]
        if cell == EMPTY:
            continue
        zone = ZONE_OF[h]
        owner = zone if cell == MOUNTAIN else cell_side(cell)
        if zone < 0 or zone != owner or owner > side:
            what = HEX_NAMES[h]
            raise PositionError(
                f"during {SIDE_NAMES[side]}'s deployment nothing may stand on {what}: items stand "
                "in their own side's zone, and North deploys after South"
            )
    veiled = -1
    if side == 1:
        south = _items_in(board, 0, 0)
        if view and not south:
            veiled = 0
        elif sorted(south) != list(order):
            raise PositionError("while North deploys, South's whole army must be in its zone")
    mine = sorted(_items_in(board, side, side))
    if len(mine) >= len(order) or mine != list(order[: len(mine)]):
        raise PositionError(
            f"{SIDE_NAMES[side]}'s items must be the first ones of the deployment order "
            f"{''.join(ITEM_LETTERS[i] for i in order)}"
        )
    return CyvasseState(game, board, side, True, len(mine), None, False, 0, ply, veiled)
