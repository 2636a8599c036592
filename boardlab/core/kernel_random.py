"""The compiled engine's random numbers: xorshift64* generators held in one ``int64`` each.

The compiled drivers (:mod:`boardlab.core.kernel_driver_template`) and the batched RL step
(:mod:`boardlab.rl.vector_template`) draw from these, so a seed means the same stream in both.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardlab.core.jit import numba

_MIX: Any = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 (the golden ratio)
"""A NumPy int64, so that the generators wrap as int64 in plain Python too
(``NUMBA_DISABLE_JIT=1``), where Python ints would grow."""
_STAR = 2685821657736338717  # the xorshift64* multiplier 0x2545F4914F6CDD1D
_LOW52 = (1 << 52) - 1
_LOW37 = (1 << 37) - 1
_LOW33 = (1 << 33) - 1
_LOW32 = (1 << 32) - 1


@numba.njit(cache=True)
def seeded(seed: int) -> int:
    """A non-zero generator state from any seed."""
    x = (seed + 1) * _MIX
    x ^= (x >> 31) & _LOW33
    return x if x != 0 else 1


@numba.njit(cache=True)
def next_state(x: int) -> int:
    """One xorshift64* step of the generator state (int64 bits, logical shifts)."""
    x ^= (x >> 12) & _LOW52
    x ^= x << 25
    x ^= (x >> 27) & _LOW37
    return x


@numba.njit(cache=True)
def below(x: int, n: int) -> int:
    """A number in ``[0, n)`` from generator state ``x`` (its high 32 bits, scaled)."""
    return (((x * _STAR) >> 32) & _LOW32) * n >> 32
