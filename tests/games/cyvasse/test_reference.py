"""A second, naive move generator written from the spec text alone (§2, §6), compared with the
engine on positions from random games. It backs the perft counts of test_protocol.py."""

from __future__ import annotations

import random

from boardlab.core.registry import make
from boardlab.games.cyvasse import Cyvasse, CyvasseState
from boardlab.games.cyvasse.board import sight_lines
from boardlab.games.cyvasse.presets import random_lineup

LETTERS = "abcdefghijk"
STATS = {  # letter: (movement, strength, defence, range), spec §3 table
    "K": (2, 2, 2, 0), "D": (0, 5, 5, 0), "E": (3, 4, 4, 0), "H": (2, 3, 3, 0),
    "L": (3, 2, 2, 0), "S": (2, 2, 2, 0), "R": (3, 1, 1, 0), "B": (1, 2, 1, 2),
    "C": (2, 3, 1, 3), "T": (0, 1, 1, 3),
}  # fmt: skip
TRUMPS = {("S", "L"), ("B", "E"), ("C", "D"), ("T", "D")}


def axial(name: str) -> tuple[int, int]:
    """Spec §2: r = 6 - rank, q = max(-5, rank - 11) + letter index."""
    rank = int(name[1:])
    return max(-5, rank - 11) + LETTERS.index(name[0]), 6 - rank


def names() -> dict[tuple[int, int], str]:
    out = {}
    for rank in range(1, 12):
        for i in range(11 - abs(rank - 6)):
            name = f"{LETTERS[i]}{rank}"
            out[axial(name)] = name
    return out


HEXES = names()
STEPS = ((1, 0), (-1, 0), (1, -1), (0, -1), (0, 1), (-1, 1))


def cells(text: str) -> dict[str, str]:
    """Hex name -> token of a board field ('' for empty)."""
    out: dict[str, str] = {}
    for row, rank_text in enumerate(text.split()[0].split("/")):
        rank, i, digits = 11 - row, 0, ""
        for ch in rank_text + " ":
            if ch.isdigit():
                digits += ch
                continue
            if digits:
                for _ in range(int(digits)):
                    out[f"{LETTERS[i]}{rank}"] = ""
                    i += 1
                digits = ""
            if ch != " ":
                out[f"{LETTERS[i]}{rank}"] = ch
                i += 1
    return out


def may_attack(a: str, d: str) -> bool:
    """Spec §6.1 in words."""
    if (d, a) in TRUMPS:
        return False
    return (a, d) in TRUMPS or STATS[a][1] >= STATS[d][2]


def _walk(
    board: dict[str, str], start: str, at: str, left: int, melee: bool, suicide: bool, out: set[str]
) -> None:
    """Every path of at most ``left`` more steps through empty hexes; attacks as a last step."""
    unit = board[start]
    theirs = str.islower if unit.isupper() else str.isupper
    q, r = axial(at)
    for dq, dr in STEPS:
        nxt = HEXES.get((q + dq, r + dr))
        if nxt is None or nxt == start:
            continue
        cell = board[nxt]
        if not cell:
            out.add(f"{start}-{nxt}")
            if left > 1:
                _walk(board, start, nxt, left - 1, melee, suicide, out)
        elif (
            cell != "M"
            and theirs(cell)
            and melee
            and (suicide or may_attack(unit.upper(), cell.upper()))
        ):
            out.add(f"{start}x{nxt}")


def reference_moves(text: str, suicide: bool = False) -> list[str]:
    """Every turn-start decision of the side to move, by path enumeration."""
    board = cells(text)
    south = text.split()[1] == "S"
    mine = str.isupper if south else str.islower
    theirs = str.islower if south else str.isupper
    out: set[str] = set()
    for start, token in board.items():
        if not token or token == "M" or not mine(token):
            continue
        unit = token.upper()
        move, _, _, reach = STATS[unit]
        q0, r0 = axial(start)
        if unit == "D":
            for dq, dr in STEPS:
                k = 1
                while (q0 + dq * k, r0 + dr * k) in HEXES:
                    here = HEXES[q0 + dq * k, r0 + dr * k]
                    k += 1
                    cell = board[here]
                    if not cell:
                        out.add(f"{start}-{here}")
                    elif cell != "M" and theirs(cell):
                        if suicide or may_attack("D", cell.upper()):
                            out.add(f"{start}x{here}")
                        if cell.upper() in "BCT":
                            break
            continue

        if move:
            _walk(board, start, start, move, not reach, suicide, out)
        for target, cell in board.items():
            if not reach or not cell or cell == "M" or not theirs(cell):
                continue
            (q1, r1), (q2, r2) = (q0, r0), axial(target)
            if (abs(q1 - q2) + abs(r1 - r2) + abs(q1 + r1 - q2 - r2)) // 2 > reach:
                continue
            if not may_attack(unit, cell.upper()):
                continue
            plus, minus = sight_lines(_index(start), _index(target))
            blocked = any(_cell_at(board, h) == "M" for h in plus) and any(
                _cell_at(board, h) == "M" for h in minus
            )
            if not blocked:
                out.add(f"{start}*{target}")
    return sorted(out) or ["pass"]


ORDER = sorted(HEXES.values(), key=lambda n: (int(n[1:]), n[0]))


def _index(name: str) -> int:
    return ORDER.index(name)


def _cell_at(board: dict[str, str], index: int) -> str:
    return board[ORDER[index]]


def _positions(made: Cyvasse, seed: int, count: int) -> list[CyvasseState]:
    rng = random.Random(seed)
    state = made.new_initial_state()
    for _ in range(2):
        for action in random_lineup(state, rng.randrange(10**6)):
            state.apply_action(action)
    found: list[CyvasseState] = []
    while not state.is_terminal() and len(found) < count:
        if state.turn_start:
            found.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return found


def test_engine_matches_the_naive_reference_in_random_games() -> None:
    made = make("cyvasse", seed=1)
    assert isinstance(made, Cyvasse)
    for seed in range(3):
        for state in _positions(made, seed, 40):
            assert state.legal_moves() == reference_moves(state.position_text())


def test_engine_matches_the_reference_with_suicide() -> None:
    made = make("cyvasse", seed=1, losing_attacks="suicide")
    assert isinstance(made, Cyvasse)
    for state in _positions(made, 11, 40):
        assert state.legal_moves() == reference_moves(state.position_text(), suicide=True)
