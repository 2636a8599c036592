"""The one door to Numba: every module that compiles imports ``numba`` (or ``njit``) from here.

Numba's disk cache (``cache=True``) keys a compiled function on its own source file only: it
does not see a change in a function or constant imported from another file. So Boardlab keys
its whole compiled cache on one digest of every source that compiled code is made of
(:func:`compiled_sources`), one directory per digest (:func:`compiled_dir`): a change in any of
them compiles everything afresh, and a shared helper can live in one module.

Importing this module points ``NUMBA_CACHE_DIR`` at that directory (unless it is set already: a
directory the user chose, or this one, inherited from the process that started this one), then
has Numba read its configuration again, so it applies even when Numba was imported first: each
compiled function picks its cache directory when it is decorated, after this import.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
import time
from functools import cache
from pathlib import Path
from typing import Any

import numba
import numba.core.config
from numba.cpython.unsafe.numbers import trailing_zeros as _cttz

from boardlab.core.engine import user_cache

__all__ = [
    "compiled_dir",
    "compiled_sources",
    "njit",
    "numba",
    "python_function",
    "sources_digest",
    "trailing_zeros",
]

njit = numba.njit
PACKAGE = Path(__file__).resolve().parent.parent
"""The ``boardlab`` package folder, whose compiled sources make the digest."""
STALE_SECONDS = 24 * 3600
"""Another digest's directory untouched this long belongs to no running install: removed."""

# A module compiles when it takes Numba from here (or imports it directly, which a test
# forbids); by the project's naming, ``kernel*.py`` and ``*_template.py`` are compiled too
# (Colosseum Offcuts' kernel modules compile through a decorator of ``kernel_layout``).
_USES_NUMBA = re.compile(
    r"^[ \t]*(?:import numba\b|from numba\b|from boardlab\.core\.jit import)", re.M
)
# ``from boardlab.x import A, B`` or a parenthesised list: Numba freezes the upper-case
# constants a compiled module imports, so their modules count as compiled sources too.
_IMPORT_FROM = re.compile(r"^[ \t]*from (boardlab(?:\.\w+)+) import (\([^)]*\)|[^\n]*)", re.M)


def compiled_sources(package: Path = PACKAGE) -> list[Path]:
    """The source files of ``package`` (the ``boardlab`` folder) that compiled code is made of:
    every module using Numba, every ``kernel*.py`` and ``*_template.py``, and the modules these
    import upper-case constants from (a game's ``board.py`` tables, evaluation weights)."""
    texts = {path: path.read_text(encoding="utf-8") for path in sorted(package.rglob("*.py"))}
    compiled = {
        path
        for path, text in texts.items()
        if path.name.startswith("kernel")
        or path.name.endswith("_template.py")
        or (("numba" in text or "core.jit" in text) and _USES_NUMBA.search(text))
    }
    constants: set[Path] = set()
    for path in compiled:
        for module, names in _IMPORT_FROM.findall(texts[path]):
            if any(name.isupper() for name in re.findall(r"(\w+)(?: as \w+)?", names)):
                parts = module.split(".")[1:]
                source = package.joinpath(*parts).with_suffix(".py")
                constants.add(
                    source if source in texts else package.joinpath(*parts, "__init__.py")
                )
    return sorted(compiled | (constants & texts.keys()))


def sources_digest(package: Path = PACKAGE) -> str:
    """16 hex digits of SHA-256 over the paths (relative to ``package``) and contents of its
    :func:`compiled_sources`."""
    digest = hashlib.sha256()
    for path in compiled_sources(package):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@cache
def compiled_dir() -> Path:
    """``<user cache>/boardlab/compiled/<digest>``, made if need be (then the other digests'
    directories untouched for a day are removed), else a fresh temporary directory when the
    user's cache is not writable (compiled again by every process then)."""
    root = Path(user_cache()) / "boardlab" / "compiled"
    folder = root / sources_digest()
    try:
        new = not folder.is_dir()
        folder.mkdir(parents=True, exist_ok=True)
        if not os.access(folder, os.W_OK):
            raise PermissionError(folder)
        os.utime(folder)  # in use: kept by the sweep of another install's processes
    except OSError:
        return Path(tempfile.mkdtemp(prefix="boardlab-compiled-"))
    if new:
        _sweep(root, keep=folder)
    return folder


def _sweep(root: Path, keep: Path) -> None:
    """Remove the digest directories under ``root`` but ``keep`` untouched for a day.

    Every process touches its own directory when it starts, so a directory that old serves no
    process started since; one still running longer finds its files gone and compiles again
    (Numba and :func:`boardlab.core.kernel_drivers.specialised` make missing folders)."""
    now = time.time()
    for folder in root.iterdir():
        try:
            if folder != keep and now - folder.stat().st_mtime > STALE_SECONDS:
                shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            continue


def python_function(function: object) -> Any:
    """The Python function behind a Numba dispatcher; ``function`` itself under
    ``NUMBA_DISABLE_JIT=1``, where ``njit`` gives the Python function back."""
    return getattr(function, "py_func", function)


def _point_numba_cache() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):  # Numba reads an empty value as unset too
        return
    os.environ["NUMBA_CACHE_DIR"] = str(compiled_dir())
    # Numba read its environment when imported (here just above, or earlier by the caller).
    reload: Any = numba.core.config.reload_config  # untyped in Numba
    reload()


def _python_trailing_zeros(x: int) -> int:
    """LLVM's count of trailing zeros of a 64-bit integer (a NumPy one too), in Python."""
    word = int(x)
    return (word & -word).bit_length() - 1 if word else 64


_point_numba_cache()
_config: Any = numba.core.config  # untyped in Numba
trailing_zeros: Any = _python_trailing_zeros if _config.DISABLE_JIT else _cttz
"""LLVM's count of trailing zeros of an integer in one instruction, for compiled code; under
``NUMBA_DISABLE_JIT=1`` (where Numba's intrinsic cannot run) its Python equivalent."""
