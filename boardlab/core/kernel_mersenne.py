"""CPython's ``random`` in compiled code: the Mersenne Twister as ``random.Random`` runs it.

A generator ``mt`` is an ``int64`` array of 625: the 624 words and the index of the next one,
as ``random.Random.getstate()`` gives them, so a compiled caller draws exactly what the
reference's ``random`` draws (the random bots' games, Anacund's seeded layouts).
"""

from __future__ import annotations

from boardlab.core.engine import KernelArray
from boardlab.core.jit import numba

N = 624
"""Words of a generator (its array holds one more: the index of the next word)."""
_M = 397
_MATRIX_A = 0x9908B0DF
_UPPER = 0x80000000
_LOWER = 0x7FFFFFFF
_WORD = 0xFFFFFFFF


@numba.njit(cache=True)
def _twist(mt: KernelArray) -> None:
    """Regenerate the 624 words (CPython's ``genrand_uint32`` refill)."""
    for kk in range(N):
        y = (mt[kk] & _UPPER) | (mt[(kk + 1) % N] & _LOWER)
        mt[kk] = mt[(kk + _M) % N] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
    mt[N] = 0


@numba.njit(cache=True)
def seed(mt: KernelArray, value: int) -> None:
    """``random.Random(value)``'s state for ``0 <= value < 2**32`` (CPython's
    ``init_by_array`` with the one-word key ``[value]``)."""
    mt[0] = 19650218
    for i in range(1, N):
        mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & _WORD
    i = 1
    for _ in range(N):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + value) & _WORD
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    for _ in range(N - 1):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & _WORD
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    mt[0] = _UPPER
    mt[N] = N


@numba.njit(cache=True)
def uint32(mt: KernelArray) -> int:
    """The next 32-bit output of the generator ``mt`` (``genrand_uint32``)."""
    if mt[N] >= N:
        _twist(mt)
    y = mt[mt[N]]
    mt[N] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return int(y & _WORD)


@numba.njit(cache=True)
def below(mt: KernelArray, n: int) -> int:
    """``random.Random._randbelow(n)``: ``getrandbits(n.bit_length())`` until below ``n``."""
    k = 0
    while n >> k:
        k += 1
    r = uint32(mt) >> (32 - k)
    while r >= n:
        r = uint32(mt) >> (32 - k)
    return r


@numba.njit(cache=True)
def random(mt: KernelArray) -> float:
    """``random.Random.random()``: 53 bits from two words."""
    a = uint32(mt) >> 5
    b = uint32(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)
