"""How the compiled encoders write planes: into a fresh array, or only what changed in a reused one.

An encoder (``kernel_<game>.py`` beside this file) describes an observation in two layers: a
*base* per channel, either a plane of its float table (a template's) or one value filling the
plane (zeros, a count, the ply fraction), then *cells* written over the bases. It sets the
bases (:func:`begin`, :func:`fill`), writes them (:func:`settle`), then writes the cells
(:func:`cell`, :func:`cell_add`) and ends (:func:`finish`).

All of it goes through a *record*, a float64 array (indices and offsets held exactly): the
bases wanted, and with a nonzero log (:func:`new_record`) the bases the array holds and the
cells written over them. Encoding again into the same array with the same record then restores
those cells, rewrites only the planes whose base changed and writes the new cells: in a game's
next position almost every plane is as it was. A record of no log (:func:`scratch_records`)
writes every plane.

An encoder whose cells all lie on planes of zero base may *key* them instead of logging them:
it keeps in the log's space (:func:`key_space`) what it wrote at each place of the board, reads
``rec[VALID]`` before :func:`settle` (whether the array holds what the record says), and
rewrites only the places whose key changed, clearing the old cells to zero (Cyvasse's).

Every function of the records is inlined into the encoder calling it (``inline="always"``): a
call passing arrays costs Numba a reference count on each, both ways. The encoders that write
every plane (no record read) start from a template with :func:`copy_into`.
"""

from __future__ import annotations

import numpy as np

from boardlab.core.engine import KernelArray
from boardlab.core.jit import numba

VALID, CELLS, LIMIT, CHANNELS = range(4)
"""Header slots of a record: whether the array holds what the record says, the entries of the
log, the most cells it logs and the number of channels. Then, per channel, the base held (its
source: an offset into the float table, a plane copied from there, or -1, the plane filled
with its value; and its value), the base wanted (source and value), then the log: per cell
written, its place and what it held before. (The record is indexed directly: slices and views
of it would cost more than the writes they serve.)"""
HEAD = 4


def new_record(channels: int, limit: int) -> KernelArray:
    """A record of ``channels`` channels logging up to ``limit`` (at least one) cells, holding
    nothing yet."""
    return new_records(channels, limit, 1)[0]


def new_records(channels: int, limit: int, n: int) -> KernelArray:
    """``n`` records (rows) as :func:`new_record` makes, one per array they follow."""
    if limit < 1:
        raise ValueError("a record logs at least one cell")
    records = np.zeros((n, HEAD + 4 * channels + 2 * limit), dtype=np.float64)
    records[:, LIMIT], records[:, CHANNELS] = limit, channels
    return records


def scratch_records(channels: int, n: int) -> KernelArray:
    """``n`` records of no log (rows): every encoding through one writes every plane."""
    records = np.zeros((n, HEAD + 4 * channels + 2), dtype=np.float64)  # a log spoilt at once
    records[:, CHANNELS] = channels
    return records


@numba.njit(cache=True)
def copy_into(out: KernelArray, source: KernelArray) -> None:
    """``out[: len(source)] = source`` as a loop, which LLVM vectorises: Numba's slice
    assignment of an array copies element by element, four times slower."""
    for k in range(source.shape[0]):
        out[k] = source[k]


@numba.njit(cache=True, inline="always")
def begin(rec: KernelArray, oi: KernelArray, at: int) -> None:
    """Want the bases of the sparse template listed at ``oi[at]`` (its count, then its
    (channel, plane offset) pairs: :func:`~boardlab.rl.fast.kernel_tables.sparse_templates`);
    every other channel zeros."""
    c = int(rec[CHANNELS])
    want = HEAD + 2 * c
    for k in range(want, want + c):
        rec[k] = -1.0
        rec[k + c] = 0.0
    for k in range(oi[at]):
        rec[want + oi[at + 1 + 2 * k]] = oi[at + 2 + 2 * k]


@numba.njit(cache=True, inline="always")
def fill(rec: KernelArray, channel: int, value: float) -> None:
    """Want ``channel`` filled with ``value``."""
    at = HEAD + 2 * int(rec[CHANNELS]) + channel
    rec[at] = -1.0
    rec[at + int(rec[CHANNELS])] = value


@numba.njit(cache=True, inline="always")
def settle(out: KernelArray, rec: KernelArray, of: KernelArray, area: int) -> int:
    """Write the bases wanted into ``out``: only those that changed, after restoring the cells
    logged, when the record says what ``out`` holds; else every plane. Returns where the log of
    the cells to come starts (the cursor :func:`cell` takes and gives, :func:`finish` ends)."""
    c = int(rec[CHANNELS])
    held, value, want, wanted = HEAD, HEAD + c, HEAD + 2 * c, HEAD + 3 * c
    log = HEAD + 4 * c
    valid = rec[VALID] != 0.0
    if valid:
        # Each cell back to what it held before it was written, the last written first.
        for j in range(log + int(rec[CELLS]) - 2, log - 1, -2):
            out[int(rec[j])] = rec[j + 1]
    # Each plane whose base changed (every plane if the record says nothing of ``out``). In
    # this loop, not a function: a call passing arrays costs Numba two reference counts each.
    for plane in range(c):
        source = rec[want + plane]
        fills = source < 0
        if (
            valid
            and source == rec[held + plane]
            and not (fills and rec[wanted + plane] != rec[value + plane])
        ):
            continue
        at = plane * area
        if fills:
            out[at : at + area] = rec[wanted + plane]
        else:
            # A loop over views from 0, which LLVM vectorises (a slice copy goes element by
            # element, and indices not known to be positive keep their wraparound checks).
            to, start = out[at : at + area], int(source)
            copied = of[start : start + area]
            for k in range(area):
                to[k] = copied[k]
    for k in range(2 * c):
        rec[held + k] = rec[want + k]
    rec[CELLS] = 0.0
    rec[VALID] = 1.0 if rec[LIMIT] != 0.0 else 0.0
    return log


@numba.njit(cache=True, inline="always")
def cell(out: KernelArray, rec: KernelArray, at: int, i: int, value: float) -> int:
    """``out[i] = value`` over the bases, logged at cursor ``at`` (the place and what it held);
    the next cursor. Past the log's end every cell is logged in its last place (and
    :func:`finish` finds the log spoilt). Branch-free on purpose: a branch here keeps Numba
    from inlining the call, which then costs ten times the write. (The cursor is the caller's
    local variable: a count kept in the record would chain each write to the one before.)"""
    j = min(at, rec.shape[0] - 2)
    rec[j] = i
    rec[j + 1] = out[i]
    out[i] = value
    return at + 2


@numba.njit(cache=True, inline="always")
def cell_add(out: KernelArray, rec: KernelArray, at: int, i: int, value: float) -> int:
    """``out[i] += value`` over the bases, logged as :func:`cell`."""
    j = min(at, rec.shape[0] - 2)
    held = out[i]
    rec[j] = i
    rec[j + 1] = held
    out[i] = held + value
    return at + 2


@numba.njit(cache=True, inline="always")
def key_space(rec: KernelArray, n: int) -> int:
    """Where an encoder that keys its cells instead of logging them keeps ``n`` numbers of its
    own in ``rec`` (asked after :func:`settle`): the log's space (it then logs no cell, and
    ends with :func:`finish` at the cursor :func:`settle` gave); or -1 where the log has no
    room for them (a record of no log among others), and the record then no longer says what
    its array holds: every cell is written anew, and the next encoding writes every plane."""
    at = HEAD + 4 * int(rec[CHANNELS])
    if rec[LIMIT] != 0.0 and rec.shape[0] - at >= n:
        return at
    rec[VALID] = 0.0
    return -1


@numba.njit(cache=True, inline="always")
def finish(rec: KernelArray, at: int) -> None:
    """End the log at cursor ``at``; past the log's end the record no longer says what the
    array holds (the next encoding writes every plane)."""
    if at > rec.shape[0]:
        rec[VALID] = 0.0
    else:
        rec[CELLS] = at - HEAD - 4 * int(rec[CHANNELS])  # two entries a cell
