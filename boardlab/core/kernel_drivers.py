"""Compiled drivers over any game's kernel: random playouts, rollouts and perft.

One driver source (:mod:`boardlab.core.kernel_driver_template`) serves every game: for each
kernel module a copy that imports that game's ``legal``, ``apply`` and ``returns`` is written
to the compiled cache's directory (:func:`boardlab.core.jit.compiled_dir`, one per digest of the
compiled sources) and imported from there, so Numba compiles it once per game and caches it on
disk like the kernel itself (Numba cannot cache a function that receives
compiled functions as arguments). Needs NumPy and Numba (the ``fast`` extra).
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import tempfile
from functools import cache
from pathlib import Path
from types import ModuleType

import numpy as np

from boardlab.core.engine import Kernel, KernelArray
from boardlab.core.jit import compiled_dir, python_function

_TEMPLATE = Path(__file__).with_name("kernel_driver_template.py")
_KERNEL_BLOCK = re.compile(r"# -- kernel --\n.*# -- end kernel --\n", re.DOTALL)
_FUNCTIONS = ("legal", "apply", "returns")


def random_playouts(kernel: Kernel, s: KernelArray, n: int, seed: int) -> tuple[int, int]:
    """Play ``n`` uniformly random games from ``s`` (unchanged); returns (games, decisions)."""
    games, decisions = _drivers(kernel).random_playouts(kernel.params, s, n, seed, kernel.max_legal)
    return int(games), int(decisions)


def perft(kernel: Kernel, s: KernelArray, depth: int) -> int:
    """Leaf positions ``depth`` decisions below ``s``, as :func:`boardlab.core.perft.perft`."""
    return int(_drivers(kernel).perft(kernel.params, s, depth, kernel.max_legal))


def rollout(
    kernel: Kernel, s: KernelArray, seed: int, steps: int = -1, moves: KernelArray | None = None
) -> tuple[tuple[float, ...], int]:
    """Play at most ``steps`` random decisions on ``s`` in place (to the end if negative).

    Returns the returns of the position reached (zeros if not over) and the decisions played;
    ``moves`` is optional scratch of length ``max_legal``.
    """
    if moves is None:
        moves = np.empty(kernel.max_legal, dtype=np.int64)
    out = np.zeros(kernel.game.num_players, dtype=np.float64)
    decisions = _drivers(kernel).rollout(kernel.params, s, seed, steps, moves, out)
    return tuple(float(r) for r in out), int(decisions)


def _drivers(kernel: Kernel) -> ModuleType:
    return specialised(_TEMPLATE, {role: getattr(kernel, role) for role in _FUNCTIONS})


def specialised(template: Path, functions: dict[str, object]) -> ModuleType:
    """The copy of ``template`` bound to compiled ``functions`` (role: Numba dispatcher).

    ``template`` holds a block between ``# -- kernel --`` and ``# -- end kernel --`` with a
    placeholder per role; the copy imports each role's function instead. Written (when
    changed) to the compiled cache's directory, one per digest of the compiled sources (which
    cover the template and the functions' modules), and imported from there, once per process.
    """
    sources = tuple(
        (role, python_function(function).__module__, python_function(function).__name__)
        for role, function in functions.items()
    )
    return _specialised(str(template), sources)


@cache
def _specialised(template_path: str, sources: tuple[tuple[str, str, str], ...]) -> ModuleType:
    """Write (when changed) and import ``template_path`` bound to ``sources``: the role,
    module and function name of each compiled function."""
    template = Path(template_path).read_text(encoding="utf-8")
    block = "# -- kernel --\n" + "".join(
        f"from {module} import {name} as {role}\n" for role, module, name in sources
    )
    text = _KERNEL_BLOCK.sub(lambda _: block, template, count=1)
    prefix = "drivers" if template_path == str(_TEMPLATE) else Path(template_path).stem
    # The first role's module names the copy, and its function too where it is not the
    # role's namesake (the batched step binds ``decide`` to one of several bots of a module).
    role, first, name = sources[0]
    stem = prefix + "_" + first.replace(".", "_") + ("" if name == role else "_" + name)
    path = _write_if_changed(stem, text)
    spec = importlib.util.spec_from_file_location(stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[stem] = module
    spec.loader.exec_module(module)
    return module


def _write_if_changed(stem: str, text: str) -> Path:
    """The copy's file in the compiled cache's directory, written unless it holds ``text``."""
    folder = compiled_dir() / "specialised"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stem}.py"
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return path
    # Written aside and renamed: processes starting together never read half a file.
    handle, temporary = tempfile.mkstemp(dir=folder, suffix=".tmp")
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        out.write(text)
    os.replace(temporary, path)
    return path
