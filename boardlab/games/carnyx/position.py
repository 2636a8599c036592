"""Carnyx position text (spec §11): writing it, and parsing it strictly with its checks."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from boardlab.core.errors import PositionError
from boardlab.games.carnyx.board import (
    COLOURS,
    DARK,
    HOME,
    INDEX,
    LIGHT,
    NAMES,
    SIZE,
    SQUARES,
)

PIECES_EACH: Final = 13
UNPLACED_START: Final = 3
SUPPLY_START: Final = 10
SETUP_PLIES: Final = 2 * UNPLACED_START
MARKERS: Final = ("", "x", "p")
HUNKER_TEXT: Final = ("-", "D", "L", "DL")
"""Field 4 for each hunker bitmask (bit 0 Dark, bit 1 Light)."""

INITIAL_TEXT: Final = "5/5/5/5/5 D 3,10,0/3,10,0 - - - 0"

_NUMBER = r"(?:0|[1-9][0-9]*)"
_POOL = rf"{_NUMBER},{_NUMBER},{_NUMBER}"
_POOLS_RE: Final = re.compile(rf"({_POOL})/({_POOL})")
_TOKEN_RE: Final = re.compile(r"[1-5]|[DL]|\([DL]{2,}\)")
_ENTRY_RE: Final = re.compile(r"([a-e][1-5])-([a-e][1-5])")


@dataclass
class Fields:
    """The parsed fields of a position text, in the state's own representation."""

    board: list[str]
    side: int
    pools: list[int]
    hunker: int
    memory: dict[int, int]
    marker: str
    ply: int


def format_board(board: list[str]) -> str:
    """Field 1: ranks 5..1 joined by ``/``, empty runs as digits, stacks in parentheses."""
    ranks = []
    for rank in range(SIZE - 1, -1, -1):
        out = []
        empty = 0
        for square in range(rank * SIZE, rank * SIZE + SIZE):
            stack = board[square]
            if not stack:
                empty += 1
                continue
            if empty:
                out.append(str(empty))
                empty = 0
            out.append(stack if len(stack) == 1 else f"({stack})")
        if empty:
            out.append(str(empty))
        ranks.append("".join(out))
    return "/".join(ranks)


def format_memory(memory: dict[int, int]) -> str:
    """Field 5: entries ``from-to`` sorted by the *to* square, or ``-``."""
    if not memory:
        return "-"
    return ",".join(f"{NAMES[memory[to]]}-{NAMES[to]}" for to in sorted(memory))


def format_fields(fields: Fields) -> str:
    """The full seven-field position text."""
    p = fields.pools
    return " ".join(
        (
            format_board(fields.board),
            COLOURS[fields.side],
            f"{p[0]},{p[1]},{p[2]}/{p[3]},{p[4]},{p[5]}",
            HUNKER_TEXT[fields.hunker],
            format_memory(fields.memory),
            fields.marker or "-",
            str(fields.ply),
        )
    )


def _bad(what: str) -> PositionError:
    return PositionError(f"bad Carnyx position: {what}")


def _parse_board(text: str) -> list[str]:
    ranks = text.split("/")
    if len(ranks) != SIZE:
        raise _bad(f"the board needs {SIZE} ranks separated by '/', got {len(ranks)}")
    board = [""] * SQUARES
    for row, rank_text in enumerate(ranks):
        rank = SIZE - 1 - row
        tokens = _TOKEN_RE.findall(rank_text)
        if "".join(tokens) != rank_text:
            raise _bad(
                f"rank {rank + 1} {rank_text!r}: use digits 1-5 for empty runs, D or L for a "
                "single piece and (..) around 2 or more letters for a stack"
            )
        file = 0
        previous_digit = False
        for token in tokens:
            if token.isdigit():
                if previous_digit:
                    raise _bad(f"rank {rank + 1} {rank_text!r}: empty runs must be maximal")
                previous_digit = True
                file += int(token)
                continue
            previous_digit = False
            if file < SIZE:
                board[rank * SIZE + file] = token.strip("()")
            file += 1
        if file != SIZE:
            raise _bad(f"rank {rank + 1} {rank_text!r} covers {file} squares instead of {SIZE}")
    return board


def _parse_memory(text: str, board: list[str], immediate: bool) -> dict[int, int]:
    memory: dict[int, int] = {}
    if text == "-":
        return memory
    last_to = -1
    for entry in text.split(","):
        match = _ENTRY_RE.fullmatch(entry)
        if not match:
            raise _bad(f"memory entry {entry!r}: write entries as from-to, e.g. c2-c3")
        origin, to = INDEX[match.group(1)], INDEX[match.group(2)]
        if to <= last_to:
            raise _bad("memory entries must be sorted by their 'to' square, one per square")
        last_to = to
        stack = board[to]
        if not stack:
            raise _bad(f"memory entry {entry}: {NAMES[to]} is empty")
        _check_entry_geometry(entry, origin, to, COLOURS.index(stack[-1]))
        memory[to] = origin
    if immediate:
        for colour in COLOURS:
            if sum(board[to][-1] == colour for to in memory) > 1:
                raise _bad(
                    f"with no_return=immediate at most one memory entry may end on a "
                    f"{colour}-controlled square"
                )
    return memory


def _check_entry_geometry(entry: str, origin: int, to: int, owner: int) -> None:
    """A remembered step is one or two squares forward, left or right for its owner."""
    dx = to % SIZE - origin % SIZE
    dy = to // SIZE - origin // SIZE
    forward = dy if owner == DARK else -dy
    sideways = dy == 0 and abs(dx) in (1, 2)
    ahead = dx == 0 and forward in (1, 2)
    if not (sideways or ahead):
        raise _bad(
            f"memory entry {entry}: a stack moves one or two squares forward, left or right, "
            f"and {COLOURS[owner]} controls {NAMES[to]}"
        )


def parse_fields(text: str, immediate: bool, token: bool) -> Fields:
    """Parse a position text under the options given; raises PositionError naming the problem."""
    if not isinstance(text, str):
        raise _bad("the position must be a text")
    parts = text.split(" ")
    if len(parts) != 7:
        raise _bad(
            f"expected 7 fields separated by single spaces "
            f"(board side pools hunker memory marker ply), got {len(parts)}"
        )
    board_text, side_text, pools_text, hunker_text, memory_text, marker_text, ply_text = parts
    board = _parse_board(board_text)
    if side_text not in ("D", "L"):
        raise _bad(f"side to move {side_text!r}: write D or L")
    side = COLOURS.index(side_text)
    match = _POOLS_RE.fullmatch(pools_text)
    if not match:
        raise _bad(f"pools {pools_text!r}: write u,s,r/u,s,r (unplaced, supply, reserve)")
    pools = [int(n) for n in f"{match.group(1)},{match.group(2)}".split(",")]
    if hunker_text not in HUNKER_TEXT:
        raise _bad(f"hunker set {hunker_text!r}: write -, D, L or DL")
    hunker = HUNKER_TEXT.index(hunker_text)
    if marker_text not in ("-", "x", "p"):
        raise _bad(f"last-ply marker {marker_text!r}: write -, x or p")
    marker = "" if marker_text == "-" else marker_text
    if not re.fullmatch(_NUMBER, ply_text):
        raise _bad(f"ply counter {ply_text!r}: write a non-negative integer without leading zeros")
    ply = int(ply_text)
    memory = _parse_memory(memory_text, board, immediate)
    fields = Fields(board, side, pools, hunker, memory, marker, ply)
    _check_consistency(fields, token)
    return fields


def _check_consistency(f: Fields, token: bool) -> None:
    pools = f.pools
    counts = [sum(stack.count(c) for stack in f.board) for c in COLOURS]
    for seat in (DARK, LIGHT):
        unplaced, supply, _ = pools[3 * seat : 3 * seat + 3]
        name = COLOURS[seat]
        if unplaced > UNPLACED_START:
            raise _bad(f"{name} has {unplaced} unplaced pieces; at most {UNPLACED_START}")
        if supply > SUPPLY_START:
            raise _bad(f"{name} has supply {supply}; the supply starts at {SUPPLY_START}")
    unplaced_d, unplaced_l = pools[0], pools[3]
    if unplaced_d + unplaced_l:
        _check_setup(f, counts)
    else:
        if f.ply < SETUP_PLIES:
            raise _bad(f"normal play starts at ply {SETUP_PLIES}; ply is {f.ply}")
        if f.ply % 2 != f.side:
            raise _bad(f"Dark moves on even plies and Light on odd ones; ply {f.ply} is wrong")
        if f.marker and f.hunker >> (1 - f.side) & 1:
            raise _bad(
                "the last ply was a capture or a pass, so its player cannot be in the hunker set"
            )
    if token:
        total = sum(counts) + sum(pools)
        if total > 2 * PIECES_EACH:
            raise _bad(f"the position holds {total} pieces in all; at most {2 * PIECES_EACH}")
    else:
        for seat in (DARK, LIGHT):
            total = counts[seat] + sum(pools[3 * seat : 3 * seat + 3])
            if total > PIECES_EACH:
                raise _bad(
                    f"{COLOURS[seat]} has {total} pieces on the board and in its pools; "
                    f"at most {PIECES_EACH}"
                )


def _check_setup(f: Fields, counts: list[int]) -> None:
    unplaced_d, unplaced_l = f.pools[0], f.pools[3]
    # The spec writes this as unplaced_D - unplaced_L, with the sign inverted: after Dark's
    # first placement Dark has 2 unplaced and Light 3, with Light to move.
    if unplaced_l - unplaced_d != f.side:
        raise _bad("during setup Dark and Light place alternately, Dark first")
    if f.ply != SETUP_PLIES - unplaced_d - unplaced_l:
        raise _bad(f"during setup the ply counter equals the pieces placed; ply is {f.ply}")
    for seat in (DARK, LIGHT):
        colour = COLOURS[seat]
        unplaced, supply, reserve = f.pools[3 * seat : 3 * seat + 3]
        if counts[seat] != UNPLACED_START - unplaced:
            raise _bad(f"during setup {colour} has {UNPLACED_START - unplaced} pieces on the board")
        if any(colour in f.board[s] for s in range(SQUARES) if s not in HOME[seat]):
            raise _bad(f"during setup {colour}'s pieces stand on {colour}'s home rank only")
        if supply != SUPPLY_START or reserve:
            raise _bad(f"during setup each supply is {SUPPLY_START} and each reserve 0")
    if f.hunker or f.memory or f.marker:
        raise _bad("during setup the hunker set, memory and marker are all '-'")
