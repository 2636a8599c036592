"""How the batched step's threads wait between steps: passively, unless the user chose.

Numba runs the batched step's parallel loop on its threading layer, here OpenMP (GNU
``libgomp``). Left as OpenMP sets it, a thread that finishes its share of a step spins for a
while before it sleeps, so that the next step finds it awake. On a machine of one's own that is
the fastest; on a shared machine (a cluster node, a laptop running a browser, two jobs on two
cores) the spinning thread takes the core the main thread needs to start the next step, and
throughput collapses: Murus Gallicus at batch 1024 ran 108,000 steps a wall second spinning and
564,000 waiting passively, batch 64 4,000 against 454,000 (the 2-core development machine at a
load average of 10, 29 Nov 2026; docs/rl.md, Speed). So before Numba loads its threading layer,
:func:`start_threads` sets ``OMP_WAIT_POLICY=PASSIVE`` for it (OpenMP reads its settings when
it loads), then takes it out of the environment again so that child processes do not inherit
it. A user who sets ``OMP_WAIT_POLICY``, ``GOMP_SPINCOUNT`` or ``NUMBA_THREADING_LAYER``
keeps their choice. A process that ran another Numba parallel loop before importing
:mod:`boardlab.rl.vector` has its layer loaded already, with the settings it had then.
"""

from __future__ import annotations

import os
from typing import Any

from boardlab.core import jit

numba: Any = jit.numba  # its threading functions are not in its declared exports

USER_SETTINGS = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "NUMBA_THREADING_LAYER")
"""Settings that, when set, mean the user chose how the threads wait: they are left alone."""


def start_threads() -> None:
    """Load Numba's threading layer, OpenMP's threads waiting passively unless the user chose."""
    if any(os.environ.get(name) for name in USER_SETTINGS):
        numba.get_num_threads()  # loads the layer with the user's settings
        return
    os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    try:
        numba.get_num_threads()
    finally:
        del os.environ["OMP_WAIT_POLICY"]


def most_threads() -> int:
    """The most threads a parallel step may use (``NUMBA_NUM_THREADS``)."""
    return int(numba.config.NUMBA_NUM_THREADS)


def described() -> str:
    """The threading in use, in one line (after :func:`start_threads` and a parallel step)."""
    try:
        layer = str(numba.threading_layer())
    except ValueError:  # no parallel loop has run yet
        layer = "not loaded yet"
    chosen = [f"{name}={os.environ[name]}" for name in USER_SETTINGS if os.environ.get(name)]
    waits = ", ".join(chosen) or "OMP_WAIT_POLICY=PASSIVE (Boardlab's default)"
    threads = numba.get_num_threads()
    return f"Numba {numba.__version__}, threading layer {layer}, {threads} threads, {waits}"
