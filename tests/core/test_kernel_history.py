"""The kernels' repetition histories past a state's own slots (issue 37)."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numba")

import numpy as np

from boardlab.core import kernel_history
from boardlab.core.kernel_history import LostHistory, lay_out, occurrences, record, spill

START, LENGTH, NODE = 3, 0, 1
"""A toy state: the keys in use, the node, one spare slot, then the keys."""


def toy(capacity: int) -> np.ndarray:
    return np.zeros(START + capacity, dtype=np.int64)


@pytest.mark.parametrize("capacity", [1, 2, 3, 8])
def test_record_counts_every_occurrence_and_lays_out_what_encoding_lays_out(
    capacity: int,
) -> None:
    """300 keys drawn from 20, recorded one by one: each count is the key's occurrences so
    far, however many left the state; and at every point :func:`lay_out` of the keys so far
    writes the same state (the same node: the store is named by content)."""
    rng = random.Random(capacity)
    s = toy(capacity)
    seen: list[int] = []
    for _ in range(300):
        key = rng.randrange(-10, 10) * 0x9E3779B97F4A7C15 % (1 << 63)
        assert record(s, START, capacity, LENGTH, NODE, key) == seen.count(key) + 1
        seen.append(key)
        laid = toy(capacity)
        laid[LENGTH], laid[NODE] = lay_out(seen, capacity, laid, START)
        kept = int(laid[LENGTH])
        assert laid[NODE] == s[NODE] and kept == s[LENGTH]
        assert (laid[START : START + kept] == s[START : START + kept]).all()


def test_a_node_is_named_by_its_keys_and_counts_look_in_few_runs() -> None:
    keys = np.arange(64, dtype=np.int64)
    first = spill(0, keys[:8])
    assert spill(0, keys[:8]) == first != spill(0, keys[8:16])
    node = 0
    for block in range(8):
        node = spill(node, keys[8 * block : 8 * block + 8])
    runs = 0
    walk = node
    while walk:
        walk = kernel_history._nodes[walk][0]
        runs += 1
    assert runs == 1  # 8 blocks merge like a binary counter: one run of 64
    assert [occurrences(node, k) for k in (0, 63, 64)] == [1, 1, 0]


def test_a_state_from_another_processs_store_raises_instead_of_miscounting() -> None:
    s = toy(2)
    s[NODE] = 12345  # no node of this process
    s[LENGTH] = 1
    with pytest.raises(LostHistory):
        record(s, START, 2, LENGTH, NODE, 7)
