"""The compiled cache: one directory per digest of the compiled sources, Numba through one door."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numba")

import boardlab
from boardlab.ai.search import compiled_search
from boardlab.core import jit, kernel_drivers
from boardlab.core.engine import kernel_for

GAME = "murus-gallicus"
CACHE_SCRIPT = """
import json
import numba  # first, as a user may: the directory must apply all the same
from boardlab.core import jit
from boardlab.core.kernel_random import seeded
seeded(1)
print(json.dumps([numba.config.CACHE_DIR, str(jit.compiled_dir())]))
"""
PLAIN_SCRIPT = """
import json, sys
import boardlab
from boardlab.ai.search import compiled_search
from boardlab.core import kernel_drivers
from boardlab.core.engine import kernel_for
game = boardlab.make(sys.argv[1])
kernel = kernel_for(game)
s = kernel.encode(game.new_initial_state())
playouts = kernel_drivers.random_playouts(kernel, s, 3, 7)
moves = [int(a) for a in game.new_initial_state().legal_actions()]
found = compiled_search(game).run(s, moves, [0.0] * len(moves), 2, None, None)
compiled = hasattr(kernel.legal, "py_func")
print(json.dumps([compiled, playouts, kernel_drivers.perft(kernel, s, 2), found.best, found.nodes]))
"""


def _run(script: str, env: dict[str, str], *args: str) -> Any:
    """What ``script`` prints (JSON), run by a fresh interpreter with ``env``."""
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return json.loads(done.stdout.splitlines()[-1])


def _fresh_env(cache: Path, **extra: str) -> dict[str, str]:
    """This environment with ``cache`` as the user's cache and no Numba cache directory set."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    return {**env, "XDG_CACHE_HOME": str(cache), **extra}


def _package_copy(tmp_path: Path) -> Path:
    """A copy of the package's Python sources."""

    def others(folder: str, names: list[str]) -> list[str]:
        return [n for n in names if not n.endswith(".py") and not (Path(folder) / n).is_dir()]

    return Path(shutil.copytree(jit.PACKAGE, tmp_path / "boardlab", ignore=others))


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def test_a_change_in_any_compiled_source_changes_the_digest(tmp_path: Path) -> None:
    package = _package_copy(tmp_path)
    first = jit.sources_digest(package)
    _append(package / "games" / "carnyx" / "state.py", "# the reference only\n")
    assert jit.sources_digest(package) == first
    _append(package / "rl" / "fast" / "kernel_planes.py", "# a shared helper\n")
    second = jit.sources_digest(package)
    assert second != first
    # Constants that compiled code imports are frozen into it: their module counts too.
    _append(package / "games" / "colosseum_offcuts" / "evaluation.py", "# PENDING's home\n")
    assert jit.sources_digest(package) not in (first, second)


def test_every_module_takes_numba_from_the_door_and_is_in_the_digest() -> None:
    sources = set(jit.compiled_sources())
    for path in sorted(jit.PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {
            alias.name.split(".")[0]
            for n in ast.walk(tree)
            if isinstance(n, ast.Import)
            for alias in n.names
        } | {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        uses_numba = any(name == "numba" or name.startswith("numba.") for name in imported)
        if path.name != "jit.py":
            # Only the door imports Numba: it sets the cache directory before any decoration.
            assert not uses_numba, f"{path} imports numba: take it from boardlab.core.jit"
        if uses_numba or "boardlab.core.jit" in imported:
            assert path in sources, f"{path} compiles but is not in the digest"


def test_numba_caches_in_the_digest_directory_even_when_imported_first(tmp_path: Path) -> None:
    stale = tmp_path / "boardlab" / "compiled" / "0123456789abcdef"
    recent = stale.with_name("fedcba9876543210")
    stale.mkdir(parents=True)
    recent.mkdir()
    two_days_ago = time.time() - 2 * jit.STALE_SECONDS
    os.utime(stale, (two_days_ago, two_days_ago))
    numba_dir, folder = _run(CACHE_SCRIPT, _fresh_env(tmp_path))
    assert numba_dir == folder
    assert Path(folder).parent == stale.parent and len(Path(folder).name) == 16
    assert list(Path(folder).glob("core_*/kernel_random.seeded-*.nbi"))
    # The new digest's directory swept the old one away, not the one in use a moment ago.
    assert not stale.exists() and recent.exists()


def test_a_numba_cache_directory_set_by_the_user_is_kept(tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    env = _fresh_env(tmp_path, NUMBA_CACHE_DIR=str(mine))
    numba_dir, folder = _run(CACHE_SCRIPT, env)
    assert numba_dir == str(mine)
    assert Path(folder).parent == tmp_path / "boardlab" / "compiled"  # the copies' home


def test_an_unwritable_user_cache_falls_back_to_a_temporary_directory(tmp_path: Path) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    env = _fresh_env(blocked, TMPDIR=str(tmp_path))
    numba_dir, folder = _run(CACHE_SCRIPT, env)
    assert numba_dir == folder
    assert Path(folder).parent == tmp_path and Path(folder).name.startswith("boardlab-compiled-")


def test_without_the_jit_kernels_and_drivers_run_as_plain_python(tmp_path: Path) -> None:
    """``NUMBA_DISABLE_JIT=1`` (set before Numba is imported, so in a fresh process): the same
    playouts, perft and search decision as the compiled code, from plain Python functions."""
    env = _fresh_env(tmp_path, NUMBA_DISABLE_JIT="1", BOARDLAB_ENGINE="fast")
    game = boardlab.make(GAME)
    kernel = kernel_for(game)
    assert kernel is not None
    s = kernel.encode(game.new_initial_state())
    moves = [int(a) for a in game.new_initial_state().legal_actions()]
    search = compiled_search(game)
    assert search is not None
    found = search.run(s, moves, [0.0] * len(moves), 2, None, None)
    playouts = list(kernel_drivers.random_playouts(kernel, s, 3, 7))
    compiled = [True, playouts, kernel_drivers.perft(kernel, s, 2), found.best, found.nodes]
    assert _run(PLAIN_SCRIPT, env, GAME) == [False, *compiled[1:]]
