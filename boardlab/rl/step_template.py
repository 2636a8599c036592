"""The source of the compiled one-game step of the PettingZoo environment (see
:mod:`boardlab.rl.compiled`).

Like :mod:`boardlab.rl.vector_template`, this file is copied once per game by
:func:`boardlab.core.kernel_drivers.specialised`, with the block between the ``kernel`` markers
replaced by imports of that game's kernel functions and compiled observation encoder, so that
Numba caches the copy on disk. Read as is, the placeholders only make it importable and
type-checkable.

Each function returns one integer, the *code* of the position reached (the cheapest thing
Numba hands back to Python): while the game goes on, ``count * SEATS + seat`` (the number of
legal ids, listed in ascending order in ``ids[:count]``, and the seat to move); once it is over,
:data:`TERMINATED` or :data:`TRUNCATED` (ended by the ply cap); for an action that is not
legal, :data:`ILLEGAL` (nothing is played).
"""

from __future__ import annotations

import numpy as np

from boardlab.core.engine import KernelArray
from boardlab.core.jit import numba, python_function
from boardlab.rl.fast.kernel_planes import VALID

# -- kernel --


def legal(p: KernelArray, s: KernelArray, out: KernelArray) -> int:
    """Placeholder for the game's ``legal``."""
    raise NotImplementedError


def apply(p: KernelArray, s: KernelArray, action: int) -> None:
    """Placeholder for the game's ``apply``."""
    raise NotImplementedError


def player(p: KernelArray, s: KernelArray) -> int:
    """Placeholder for the game's ``player``."""
    raise NotImplementedError


def truncated(p: KernelArray, s: KernelArray) -> bool:
    """Placeholder for the game's ``truncated``."""
    raise NotImplementedError


def observe(
    p: KernelArray,
    oi: KernelArray,
    of: KernelArray,
    s: KernelArray,
    seat: int,
    out: KernelArray,
    rec: KernelArray,
) -> None:
    """Placeholder for the game's compiled observation encoder (``rec``: its record,
    :mod:`boardlab.rl.fast.kernel_planes`)."""
    raise NotImplementedError


# -- end kernel --

SEATS = 8
"""A code's seat is ``code % SEATS`` (at most five seats), its number of legal ids
``code // SEATS``."""
TERMINATED = -1
TRUNCATED = -2
ILLEGAL = -3

# Every array but the observation's lives in one int64 array, the *work* array (the fewer
# arrays a call passes, the cheaper Numba's dispatch): a header of offsets, then the kernel
# parameters, the encoder's int and float tables (the floats' bits), the kernel state, the legal
# ids of the state, the *spare ids*, those of the position before (what the mask of its
# observation holds, cleared when the environment hands that mask in again), and three encoder
# records (:mod:`boardlab.rl.fast.kernel_planes`): records 0 and 1 for the planes of the on-turn
# observation of the position (the environment's *made* arrays) and of the position before
# (its *spare* arrays, in which the next step writes only what changed), record 2 scratch for
# the observations of the other seats.
PARAMS, INTS, FLOATS, STATE, IDS, SPARE, RECORDS = range(7)
"""Part ``i`` of the work array is ``work[work[2 * i] : work[2 * i + 1]]``."""
FLOAT_COUNT = 14
"""Header slot: how many float32 the float tables hold."""
SPARE_COUNT = 15
"""Header slot: how many spare ids there are."""
MADE = 16
"""Header slot: which record (0 or 1) is the made arrays'; the other is the spare arrays'."""
HEADER = 20


def pack(
    params: KernelArray,
    ints: KernelArray,
    floats: KernelArray,
    state_size: int,
    max_legal: int,
    record: KernelArray,
) -> KernelArray:
    """A new work array holding these parameters and tables, three copies of the empty
    ``record`` (the state and ids zeros)."""
    bits = np.zeros(-(-floats.shape[0] // 2) * 2, dtype=np.float32)
    bits[: floats.shape[0]] = floats
    sizes = (
        params.shape[0],
        ints.shape[0],
        bits.shape[0] // 2,
        state_size,
        max_legal,
        max_legal,
        3 * record.shape[0],
    )
    work = np.zeros(HEADER + sum(sizes), dtype=np.int64)
    start = HEADER
    for part, size in enumerate(sizes):
        work[2 * part], work[2 * part + 1] = start, start + size
        start += size
    work[FLOAT_COUNT] = floats.shape[0]
    view = python_function(part_of)
    view(work, PARAMS)[:] = params
    view(work, INTS)[:] = ints
    view(work, FLOATS)[:] = bits.view(np.int64)
    view(work, RECORDS)[:] = np.concatenate([record] * 3).view(np.int64)
    return work


@numba.njit(cache=True)
def part_of(work: KernelArray, part: int) -> KernelArray:
    """A view of part ``part`` of ``work`` (from Python: ``python_function(part_of)``)."""
    return work[work[2 * part] : work[2 * part + 1]]


@numba.njit(cache=True)
def _floats(work: KernelArray) -> KernelArray:
    return part_of(work, FLOATS).view(np.float32)[: work[FLOAT_COUNT]]


@numba.njit(cache=True)
def _position(p: KernelArray, s: KernelArray, ids: KernelArray) -> int:
    """The code of ``s``, its legal ids written into ``ids`` in ascending order (the order of
    the mask, and of the environment's ``legal_actions``, whatever the kernel's own)."""
    n = legal(p, s, ids)
    if n == 0:  # exactly when the game is over
        return TRUNCATED if truncated(p, s) else TERMINATED
    _sort(ids, n)
    return n * SEATS + player(p, s)


@numba.njit(cache=True)
def _sort(ids: KernelArray, n: int) -> None:
    """Sort ``ids[:n]`` in place. The kernels list ids nearly in order (a few descents), where
    an insertion sort takes a few nanoseconds an id and Numba's quicksort some 250 ns more a
    call; past ``8 n`` moves the quicksort finishes (no quadratic worst case)."""
    moves = 0
    for i in range(1, n):
        x = ids[i]
        j = i - 1
        while j >= 0 and ids[j] > x:
            ids[j + 1] = ids[j]
            j -= 1
        ids[j + 1] = x
        moves += i - 1 - j
        if moves > 8 * n:
            ids[:n].sort()
            return


@numba.njit(cache=True)
def position(work: KernelArray) -> int:
    """The code of the work array's state (its legal ids listed)."""
    return _position(part_of(work, PARAMS), part_of(work, STATE), part_of(work, IDS))


@numba.njit(cache=True)
def _record(work: KernelArray, which: int) -> KernelArray:
    """Record ``which`` (0 to 2; float64, held in the work array as bits)."""
    records = part_of(work, RECORDS).view(np.float64)
    size = records.shape[0] // 3
    return records[which * size : (which + 1) * size]


@numba.njit(cache=True)
def advance(
    work: KernelArray,
    count: int,
    action: int,
    planes: KernelArray,
    mask: KernelArray,
    recycled: bool,
) -> int:
    """Play ``action`` if it is among the ``count`` legal ids and return the code of the
    position reached. Unless ``mask`` is empty, the planes of the seat then to move are written
    into ``planes`` and its legal ids set in ``mask`` as well, while the game goes on: the next
    observation, made in the same call. ``planes`` and ``mask`` are new (``mask`` zeros), or
    with ``recycled`` the arrays of the on-turn observation of the position before this one
    (the spare arrays: the planes are rewritten where they changed, the spare ids cleared in
    the mask). Once the game goes on, the spare arrays' record is the made arrays'."""
    p, s, ids = part_of(work, PARAMS), part_of(work, STATE), part_of(work, IDS)
    k = np.searchsorted(ids[:count], action)
    if k == count or ids[k] != action:
        return ILLEGAL
    spare = part_of(work, SPARE)
    if recycled:
        for j in range(work[SPARE_COUNT]):
            mask[spare[j]] = 0
    spare[:count] = ids[:count]
    work[SPARE_COUNT] = count
    apply(p, s, action)
    code = _position(p, s, ids)
    if code >= 0:
        made = 1 - work[MADE]  # the spare arrays' record becomes the made arrays'
        work[MADE] = made
        rec = _record(work, made)
        if not recycled:
            rec[VALID] = 0  # new arrays (or none): the record says nothing of them
        if mask.shape[0]:
            observe(p, part_of(work, INTS), _floats(work), s, code % SEATS, planes.reshape(-1), rec)
            for j in range(code // SEATS):
                mask[ids[j]] = 1
    return code


@numba.njit(cache=True)
def observe_into(
    work: KernelArray, seat: int, planes: KernelArray, mask: KernelArray, count: int
) -> None:
    """``seat``'s planes of the state into ``planes`` (new); the first ``count`` legal ids set
    in ``mask`` (zeros). With ids (the seat on turn), these are the made arrays from now on."""
    p, s, ids = part_of(work, PARAMS), part_of(work, STATE), part_of(work, IDS)
    rec = _record(work, work[MADE] if count else 2)
    rec[VALID] = 0
    observe(p, part_of(work, INTS), _floats(work), s, seat, planes.reshape(-1), rec)
    for j in range(count):
        mask[ids[j]] = 1
