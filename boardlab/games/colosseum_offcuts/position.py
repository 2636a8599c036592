"""Position text of Colosseum Offcuts (spec §11): strict parsing with the consistency checks."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from boardlab.core.errors import PositionError
from boardlab.games.colosseum_offcuts import notation
from boardlab.games.colosseum_offcuts.board import ATTACK, COUNTER_LETTERS, FORT, Stacks
from boardlab.games.colosseum_offcuts.state import ColosseumState, setup_slot

if TYPE_CHECKING:
    from boardlab.games.colosseum_offcuts.game import ColosseumOffcuts

_ENTRY = re.compile(rf"({notation.INT}),({notation.INT})=((?:[1-5][bBfF])+)")
_COUNT = re.compile(r"0|[1-9][0-9]*")
_STEP = re.compile(r"s[1-5]")

FORMAT_HELP = (
    "a position text is 7 fields: seats, cells (x,y=stack entries joined by /, or -), side to "
    "move, step (s1-s5, -, or the first action of the turn), no-capture counter, forced-pass "
    "counter, ply counter"
)


def parse_position(game: ColosseumOffcuts, text: str) -> ColosseumState:
    """The state a position text describes, or PositionError naming the problem."""
    fields = text.split(" ")
    if len(fields) != 7:
        raise PositionError(f"expected 7 fields separated by single spaces: {FORMAT_HELP}")
    seats_field, cells_field, side_field, step, *counter_fields = fields
    players = game.players
    if seats_field not in ("2", "3", "4", "5"):
        raise PositionError(f"field 1 (seats) must be 2 to 5, not {seats_field!r}")
    if int(seats_field) != players:
        raise PositionError(
            f"the position has {seats_field} seats but this game has players={players}"
        )
    stacks = _parse_cells(cells_field, players)
    if not (len(side_field) == 1 and "1" <= side_field <= str(players)):
        raise PositionError(f"field 3 (side to move) must be a seat from 1 to {players}")
    side = int(side_field) - 1
    counters = []
    for name, value in zip(("no-capture", "forced-pass", "ply"), counter_fields, strict=True):
        if not _COUNT.fullmatch(value):
            raise PositionError(f"the {name} counter must be a canonical integer >= 0: {value!r}")
        counters.append(int(value))
    no_capture, forced_pass, ply = counters
    _check_connected(stacks)
    if _STEP.fullmatch(step):
        setup = int(step[1])
        _check_setup(stacks, players, setup, side, counters)
        first = None
    elif step == "-" or notation.ACTION.fullmatch(step):
        setup = 0
        first = None if step == "-" else step
        _check_play(stacks, players, side, first, forced_pass)
    else:
        raise PositionError(
            f"field 4 (step) must be s1-s5, - or a Mobile move, Attack move or flip: {step!r}"
        )
    return ColosseumState(game, stacks, side, setup, first, no_capture, forced_pass, ply)


def _parse_cells(field: str, players: int) -> Stacks:
    if field == "-":
        return {}
    stacks: Stacks = {}
    previous: tuple[int, int] | None = None
    for entry in field.split("/"):
        match = _ENTRY.fullmatch(entry)
        if not match:
            raise PositionError(f"bad cell entry {entry!r}: write x,y=stack, e.g. 0,0=1b2F")
        cell = (int(match[1]), int(match[2]))
        if previous is not None and cell <= previous:
            raise PositionError(
                f"cell {match[1]},{match[2]} is out of order or repeated: "
                "entries are sorted by x, then y"
            )
        previous = cell
        body = match[3]
        stack = []
        for index in range(0, len(body), 2):
            seat = int(body[index])
            if seat > players:
                raise PositionError(f"cell {entry!r}: seat {seat} does not exist here")
            letter = COUNTER_LETTERS.index(body[index + 1])
            if index and not letter & ATTACK:
                raise PositionError(
                    f"cell {entry!r}: a counter above ground level must be in Attack mode"
                )
            stack.append((seat - 1) << 2 | letter)
        stacks[cell] = tuple(stack)
    return stacks


def _check_connected(stacks: Stacks) -> None:
    if not stacks:
        return
    start = next(iter(stacks))
    seen = {start}
    todo = [start]
    while todo:
        x, y = todo.pop()
        for cell in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if cell in stacks and cell not in seen:
                seen.add(cell)
                todo.append(cell)
    if len(seen) != len(stacks):
        raise PositionError("the footprint is not connected")


def _kind_counts(stacks: Stacks, players: int) -> list[list[int]]:
    counts = [[0, 0] for _ in range(players)]
    for stack in stacks.values():
        for counter in stack:
            counts[counter >> 2][1 if counter & FORT else 0] += 1
    return counts


def _check_setup(stacks: Stacks, players: int, setup: int, side: int, counters: list[int]) -> None:
    if setup == 1:
        placement = 0
        if side != 0:
            raise PositionError("step s1 is P1's first placement")
    elif setup == 2:
        placement = side
        if side == 0:
            raise PositionError("in step s2 the side to move is P2 to Pn")
    else:
        placement = players * (setup - 2) + side
    if setup_slot(placement, players) != (setup, side):
        raise PositionError(f"step s{setup} does not fit side {side + 1}")
    if counters[0] or counters[1]:
        raise PositionError("during setup the no-capture and forced-pass counters are 0")
    if counters[2] != placement:
        raise PositionError(f"during setup the ply counter is the placements made: {placement}")
    for stack in stacks.values():
        if len(stack) != 1 or stack[0] & ATTACK:
            raise PositionError("during setup every counter is alone in its cell and Mobile")
    if placement and stacks.get((0, 0)) != (0,):
        # §2: the origin is the cell of P1's first Board Piece, and nothing moves during setup.
        raise PositionError("during setup P1's first Board Piece must be on the origin 0,0")
    for seat, (bps, forts) in enumerate(_kind_counts(stacks, players)):
        want_bps = (seat < placement) + (players + seat < placement)
        want_forts = (2 * players + seat < placement) + (3 * players + seat < placement)
        if (bps, forts) != (want_bps, want_forts):
            raise PositionError(
                f"before this placement P{seat + 1} has placed {want_bps} Board Pieces and "
                f"{want_forts} Fortifications, not {bps} and {forts}"
            )


def _check_play(
    stacks: Stacks, players: int, side: int, first: str | None, forced_pass: int
) -> None:
    counts = _kind_counts(stacks, players)
    for seat, (bps, forts) in enumerate(counts):
        if bps > 2 or forts > 2:
            raise PositionError(
                f"P{seat + 1} has {bps} Board Pieces and {forts} Fortifications; "
                "each seat has at most 2 of each"
            )
    if not counts[side][1]:
        raise PositionError(f"the side to move, P{side + 1}, has no Fortification left")
    in_game = sum(1 for _, forts in counts if forts)
    if first is not None and in_game == 1:
        raise PositionError("the game is over, so the step must be -")
    if forced_pass >= in_game:
        raise PositionError(
            f"the forced-pass counter must be below the {in_game} seats still in the game"
        )
