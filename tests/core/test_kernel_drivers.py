"""The compiled drivers: cut-off rollouts, and one compiled copy per game cached on disk."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")

import boardlab
from boardlab.core import kernel_drivers
from boardlab.games.murus_gallicus.kernel import S_PLY, make_kernel

SCRIPT = """
import boardlab
from boardlab.core import kernel_drivers
from boardlab.games.murus_gallicus.kernel import make_kernel
kernel = make_kernel(boardlab.make("murus-gallicus"))
count = kernel_drivers.perft(kernel, kernel.encode(kernel.game.new_initial_state()), 3)
driver = kernel_drivers._drivers(kernel).perft
print(count, sum(driver.stats.cache_hits.values()), driver.py_func.__code__.co_filename)
"""


def test_rollouts_stop_after_the_steps_asked_or_at_the_end() -> None:
    kernel = make_kernel(boardlab.make("murus-gallicus"))
    s = kernel.encode(kernel.game.new_initial_state())
    rewards, played = kernel_drivers.rollout(kernel, s, seed=4, steps=3)
    assert (rewards, played, s[S_PLY]) == ((0.0, 0.0), 3, 3)
    rewards, played = kernel_drivers.rollout(kernel, s, seed=4)
    assert kernel.is_over(kernel.params, s) and s[S_PLY] == 3 + played
    assert rewards == kernel.decode(s).returns()


def test_drivers_are_compiled_once_and_loaded_from_the_user_cache(tmp_path: Path) -> None:
    """A fresh cache compiles the game's drivers; the next process loads them from disk.

    The kernels stay in this process's Numba cache (``NUMBA_CACHE_DIR``, inherited, so they
    load); the drivers' copy goes to the digest directory under the fresh user cache."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    runs = [
        subprocess.run(
            [sys.executable, "-c", SCRIPT],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        ).stdout.split()
        for _ in range(2)
    ]
    source = Path(runs[0][2])  # <user cache>/boardlab/compiled/<digest>/specialised/...
    assert source.name == "drivers_boardlab_games_murus_gallicus_kernel.py"
    assert source.parent.name == "specialised"
    assert source.parents[2] == tmp_path / "boardlab" / "compiled"
    assert runs[0] == ["6960", "0", str(source)]
    assert runs[1] == ["6960", "1", str(source)]
