"""The 91-hex Cyvasse board (spec §2): hex names, axial coordinates and precomputed tables.

Hexes are numbered 0..90 rank by rank from South's edge: rank 1 ``a1``..``f1`` is 0..5, rank 2
is 6..12, and so on up to rank 11 ``a11``..``f11`` (85..90). Geometry is computed once, here,
in axial coordinates; the rules only index the tables.
"""

from __future__ import annotations

RANKS = 11
MIDDLE_RANK = 6
NUM_HEXES = 91
RANK_LEN: tuple[int, ...] = tuple(11 - abs(k - MIDDLE_RANK) for k in range(1, RANKS + 1))
RANK_START: tuple[int, ...] = tuple(sum(RANK_LEN[:i]) for i in range(RANKS))
LETTERS = "abcdefghijk"

# Six directions (dq, dr): east, north-east, north-west, west, south-west, south-east.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def _coords() -> tuple[tuple[int, int, int], ...]:
    """(rank, q, r) of every hex index."""
    out: list[tuple[int, int, int]] = []
    for rank in range(1, RANKS + 1):
        for li in range(RANK_LEN[rank - 1]):
            out.append((rank, max(-5, rank - 11) + li, MIDDLE_RANK - rank))
    return tuple(out)


_COORDS = _coords()
RANK_OF: tuple[int, ...] = tuple(rank for rank, _, _ in _COORDS)
AXIAL: tuple[tuple[int, int], ...] = tuple((q, r) for _, q, r in _COORDS)
INDEX_OF_AXIAL: dict[tuple[int, int], int] = {qr: i for i, qr in enumerate(AXIAL)}
HEX_NAMES: tuple[str, ...] = tuple(
    f"{LETTERS[i - RANK_START[RANK_OF[i] - 1]]}{RANK_OF[i]}" for i in range(NUM_HEXES)
)
INDEX_OF_NAME: dict[str, int] = {name: i for i, name in enumerate(HEX_NAMES)}

SOUTH_ZONE: tuple[int, ...] = tuple(i for i in range(NUM_HEXES) if RANK_OF[i] < MIDDLE_RANK)
NORTH_ZONE: tuple[int, ...] = tuple(i for i in range(NUM_HEXES) if RANK_OF[i] > MIDDLE_RANK)
ZONES: tuple[tuple[int, ...], tuple[int, ...]] = (SOUTH_ZONE, NORTH_ZONE)
ZONE_OF: tuple[int, ...] = tuple(
    0 if RANK_OF[i] < MIDDLE_RANK else 1 if RANK_OF[i] > MIDDLE_RANK else -1
    for i in range(NUM_HEXES)
)


def distance(a: int, b: int) -> int:
    """Hex distance between two hex indices (spec §2)."""
    (q1, r1), (q2, r2) = AXIAL[a], AXIAL[b]
    dq, dr = q1 - q2, r1 - r2
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def reflect(h: int) -> int:
    """The point reflection of a hex through the centre f6: (q, r) -> (-q, -r)."""
    q, r = AXIAL[h]
    return INDEX_OF_AXIAL[(-q, -r)]


def _rays() -> tuple[tuple[tuple[int, ...], ...], ...]:
    rays: list[tuple[tuple[int, ...], ...]] = []
    for q, r in AXIAL:
        per_hex: list[tuple[int, ...]] = []
        for dq, dr in DIRECTIONS:
            ray: list[int] = []
            step = 1
            while (q + dq * step, r + dr * step) in INDEX_OF_AXIAL:
                ray.append(INDEX_OF_AXIAL[(q + dq * step, r + dr * step)])
                step += 1
            per_hex.append(tuple(ray))
        rays.append(tuple(per_hex))
    return tuple(rays)


RAYS = _rays()
"""RAYS[h][d]: the hexes along direction d from h, nearest first, to the board's edge."""
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(ray[0] for ray in per_hex if ray) for per_hex in RAYS
)

_EPSILON = (1e-6, 2e-6, -3e-6)


def _cube_round(q: float, r: float, s: float) -> tuple[int, int]:
    """Standard cube rounding: round each, then fix the one with the largest error."""
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return rq, rr


def sight_lines(a: int, b: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(line+, line-) of spec §6.4: the hexes strictly between a and b, nudged by +/-epsilon."""
    (q1, r1), (q2, r2) = AXIAL[a], AXIAL[b]
    s1, s2 = -q1 - r1, -q2 - r2
    n = distance(a, b)
    lines: list[tuple[int, ...]] = []
    for sign in (1, -1):
        hexes: list[int] = []
        for i in range(1, n):
            t = i / n
            hq, hr = _cube_round(
                q1 + (q2 - q1) * t + sign * _EPSILON[0],
                r1 + (r2 - r1) * t + sign * _EPSILON[1],
                s1 + (s2 - s1) * t + sign * _EPSILON[2],
            )
            h = INDEX_OF_AXIAL[(hq, hr)]
            if h not in (a, b) and h not in hexes:
                hexes.append(h)
        lines.append(tuple(hexes))
    return lines[0], lines[1]


MAX_RANGE = 3


def _targets() -> tuple[tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...], ...]:
    table = []
    for a in range(NUM_HEXES):
        row = []
        for b in range(NUM_HEXES):
            d = distance(a, b)
            if 1 <= d <= MAX_RANGE:
                plus, minus = sight_lines(a, b)
                row.append((b, d, plus, minus))
        row.sort(key=lambda entry: entry[1])
        table.append(tuple(row))
    return tuple(table)


RANGE_TARGETS = _targets()
"""RANGE_TARGETS[h]: (target, distance, line+, line-) for every hex 1..3 away, nearest first."""


def hex_name(h: int) -> str:
    """The name of a hex index, e.g. ``f6``."""
    return HEX_NAMES[h]
