"""Repetition histories of the kernels, however long: the state's own slots, then a store.

A kernel state keeps the Zobrist keys of the turn starts since the last irreversible decision
(the only positions that can recur) in ``capacity`` slots of its own, and the repetition rule
counts the current key among them (:func:`record`). Where the options bound that stretch (a ply
cap, a no-progress cap), each kernel makes ``capacity`` the bound, at most ``INLINE_LIMIT``,
and this store is never used. Where they do not (every cap off, or a bound above
``INLINE_LIMIT``), a full history moves its older half into the store and keeps one number in
the state, the *node* of the keys moved out so far (0: none); the rule counts in both, so it
stays exact however long the game. No finite history would do: a game may visit new positions
for as long as it likes (a Colosseum footprint drifts forever), and any earlier one may recur.

Nodes are immutable and named by a digest of what they hold (the node before, the keys), so a
copied state shares its node safely, and the states that move out the same keys (the rollouts
of one search from one root) make one node. A node is a run of keys with their counts, after the
runs of the nodes before it; a run absorbs the runs before it that hold no more keys (a binary
counter), so a count looks in O(log n) runs. Counting costs a call into Python at every turn
start past the state's keys (about 3 µs), moving keys out about 20 µs each time. The store
belongs to the process: it keeps every node for the life of the process (about 100 bytes a key
moved out, a few times over as runs merge), and a state whose history reached it is complete
only there (a pickle of it carried to another process raises :class:`LostHistory` at its next
turn start).
"""

from __future__ import annotations

import hashlib

import numpy as np

from boardlab.core.engine import KernelArray
from boardlab.core.jit import numba

INLINE_LIMIT = 1024
"""The most keys a history keeps in the state (8 KB); more move to the store."""

Run = dict[int, int]
"""Keys moved out of states, with how often each was moved."""
_nodes: dict[int, tuple[int, Run, int]] = {}
"""Every node: the node before it (0: none), its run, and the keys in the run (with repeats)."""


class LostHistory(LookupError):
    """A kernel state names a node of another process's store (it was carried here)."""


def spill(older: int, keys: KernelArray) -> int:
    """The node of the keys of node ``older`` (0: none) and then ``keys``."""
    run: Run = {}
    for key in keys.tolist():
        run[key] = run.get(key, 0) + 1
    size = len(keys)
    while older:
        before, previous, held = _node(older)
        if held > size:
            break
        merged = dict(previous)
        for key, count in run.items():
            merged[key] = merged.get(key, 0) + count
        run, size, older = merged, size + held, before
    content = np.array(sorted(run.items()), dtype=np.int64).tobytes()
    salt = 0
    while True:
        digest = hashlib.blake2b(content, digest_size=8, key=f"{older}:{salt}".encode())
        node = int.from_bytes(digest.digest(), "little", signed=True)
        found = _nodes.setdefault(node, (older, run, size)) if node else None
        if found is not None and found[0] == older and found[1] == run:
            return node
        salt += 1  # 0 means no node, and a digest of other keys is taken: both once in 2^64


def occurrences(node: int, key: int) -> int:
    """How often ``key`` occurs in node ``node`` and the nodes before it."""
    count = 0
    while node:
        node, run, _ = _node(node)
        count += run.get(key, 0)
    return count


def _node(node: int) -> tuple[int, Run, int]:
    found = _nodes.get(node)
    if found is None:
        raise LostHistory(
            "a kernel state's repetition history is in another process's store (a state past "
            f"{INLINE_LIMIT} turns without an irreversible decision was carried here)"
        )
    return found


def lay_out(history: list[int], capacity: int, s: KernelArray, start: int) -> tuple[int, int]:
    """Write ``history`` (keys, oldest first) as the kernel leaves it after recording them one
    by one into ``capacity`` slots from ``s[start]``; returns the keys in the slots and the node.
    """
    half = max((capacity + 1) // 2, 1)
    moved = -(-(len(history) - capacity) // half) * half if len(history) > capacity else 0
    node = 0
    for first in range(0, moved, half):
        node = spill(node, np.array(history[first : first + half], dtype=np.int64))
    kept = history[moved:]
    s[start : start + len(kept)] = kept
    return len(kept), node


@numba.njit(cache=True)
def _spilled(older: int, keys: KernelArray) -> int:
    with numba.objmode(node="int64"):
        node = spill(older, keys)
    return node


@numba.njit(cache=True)
def _occurrences(node: int, key: int) -> int:
    with numba.objmode(count="int64"):
        count = occurrences(node, key)
    return count


@numba.njit(cache=True, inline="always")
def record(
    s: KernelArray, start: int, capacity: int, length_at: int, node_at: int, key: int
) -> int:
    """Add ``key`` to the history in ``s[start : start + capacity]`` (``s[length_at]`` keys
    in use, node ``s[node_at]``); returns its occurrences, this one included.

    Inlined (a compiled call passing an array costs Numba a reference count on it, both ways);
    the store's part is a call of its own, made only where the options leave the history
    unbounded (each kernel's capacity is otherwise the bound, never reached full).
    """
    length = s[length_at]
    if length == capacity or s[node_at]:
        return _record_past(s, start, capacity, length_at, node_at, key)
    count = 1
    for i in range(start, start + length):
        if s[i] == key:
            count += 1
    s[start + length] = key
    s[length_at] = length + 1
    return count


@numba.njit(cache=True)
def _record_past(
    s: KernelArray, start: int, capacity: int, length_at: int, node_at: int, key: int
) -> int:
    """:func:`record` of a history that is full or has keys in the store: a full one first
    moves its older half to the store."""
    length = s[length_at]
    if length == capacity:
        half = (capacity + 1) // 2
        s[node_at] = _spilled(s[node_at], s[start : start + half])
        for i in range(half, length):
            s[start + i - half] = s[start + i]
        length -= half
    count = 1 + _occurrences(s[node_at], key)
    for i in range(start, start + length):
        if s[i] == key:
            count += 1
    s[start + length] = key
    s[length_at] = length + 1
    return count
