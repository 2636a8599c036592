"""Fresh installs as a new user makes them, built once for the tests of a module.

``readme_venv`` runs the install part of README command 1, read from README.md itself, in a
copy of the repository's tracked files (uncommitted changes included); ``bare_venv`` runs a
plain ``pip install .`` in another copy. Each runs with a private, empty HOME and
XDG_CACHE_HOME (so Numba compiles cold, as for a new user); only pip's download cache is
shared with the machine. Nothing outside the session's temporary folder is written, and the
venvs are deleted once their tests are done.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALL_SECONDS = 900.0
"""How long one install may take (pip may have to download)."""
PRIVATE = ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "XDG_CONFIG_HOME")
"""Variables of the developer's session that a new user's shell would not have."""
PRIVATE_PREFIXES = ("BOARDLAB_", "NUMBA_", "PYTEST_", "XDG_DATA_", "XDG_STATE_")


@dataclass(frozen=True)
class ReadmeCommand:
    """README command 1 (``... && .venv/bin/boardlab serve``) split at its last ``&&``."""

    install: str
    serve: list[str]

    @property
    def venv_bin(self) -> str:
        """The folder of the venv the command installs into, relative to the repository."""
        program = self.serve[0]
        if "/" in program:
            return os.path.dirname(program)
        made = re.search(r"-m venv (\S+)", self.install)
        assert made, f"cannot tell which venv {self.install!r} makes"
        return f"{made.group(1)}/bin"


def readme_command(readme: str) -> ReadmeCommand:
    """Command 1 of the Quickstart: in its first ``sh`` block, the line ending in
    ``boardlab serve``."""
    quickstart = readme.partition("\n## Quickstart\n")[2]
    block = re.search(r"^```sh\n(.*?)^```", quickstart, re.DOTALL | re.MULTILINE)
    assert block, "README.md's Quickstart has no sh block"
    lines = [line.strip() for line in block.group(1).splitlines()]
    [command] = [line for line in lines if line.endswith("boardlab serve")]
    *install, serve = (part.strip() for part in command.split("&&"))
    assert install, f"README command 1 installs nothing: {command!r}"
    return ReadmeCommand(" && ".join(install), shlex.split(serve))


@dataclass(frozen=True)
class Install:
    """A fresh venv in a copy of the repository, and the environment of its user."""

    root: Path
    bin: Path
    env: dict[str, str]
    seconds: float
    """How long the install took."""

    @property
    def python(self) -> Path:
        return self.bin / "python"

    def run(
        self, args: Sequence[str | Path], timeout: float = 120.0
    ) -> subprocess.CompletedProcess[str]:
        """Run ``args`` (a program of the venv by its path, e.g.) as the user would, in the
        copy of the repository; the output is captured."""
        return subprocess.run(
            [str(arg) for arg in args],
            cwd=self.root,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )


def copy_repository(target: Path) -> Path:
    """Copy the repository's tracked files as they are in the working tree to ``target``."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file() or source.is_symlink():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name, follow_symlinks=False)
    return target


def user_environment(home: Path) -> dict[str, str]:
    """The environment of a new user whose home is ``home`` (empty, so is its cache): this
    session's, without the development venv and Boardlab's or Numba's settings, with the
    machine's ``python3`` first on PATH and pip's download cache where it was."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in PRIVATE and not key.startswith(PRIVATE_PREFIXES)
    }
    dev_bin = str(Path(sys.prefix) / "bin")
    path = [folder for folder in env.get("PATH", "").split(os.pathsep) if folder != dev_bin]
    env["PATH"] = os.pathsep.join(path)
    # Resolved with the session's HOME (a pyenv shim finds its versions there).
    python3 = subprocess.run(
        ["python3", "-c", "import sys; print(sys.executable)"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    env["PIP_CACHE_DIR"] = os.environ.get("PIP_CACHE_DIR") or str(cache / "pip")
    env["PATH"] = os.pathsep.join([os.path.dirname(python3), *path])
    env["HOME"] = str(home)
    env["XDG_CACHE_HOME"] = str(home / ".cache")
    (home / ".cache").mkdir(parents=True)
    return env


def install(folder: Path, command: str, venv_bin: str) -> Install:
    """Copy the repository into ``folder`` and run ``command`` there with bash, as a new user
    whose home is in ``folder`` too."""
    root = copy_repository(folder / "boardlab")
    env = user_environment(folder / "home")
    started = time.monotonic()
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=INSTALL_SECONDS,
        check=False,
    )
    seconds = time.monotonic() - started
    assert done.returncode == 0, f"{command!r} failed:\n{done.stdout}\n{done.stderr}"
    print(f"\ninstall: {command!r} took {seconds:.1f} s")
    return Install(root, root / venv_bin, env, seconds)


def forget(folder: Path) -> None:
    """Delete ``folder`` (a venv is hundreds of megabytes) while the session goes on: the
    deletion only waits on the disk, and pytest's own clean-up finishes what an early exit
    leaves."""
    threading.Thread(target=shutil.rmtree, args=(folder, True), daemon=True).start()


@pytest.fixture(scope="module")
def readme_venv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Install]:
    """A venv made by the install part of README command 1 (deleted after its tests)."""
    command = readme_command((ROOT / "README.md").read_text(encoding="utf-8"))
    folder = tmp_path_factory.mktemp("readme-install")
    try:
        yield install(folder, command.install, command.venv_bin)
    finally:
        forget(folder)


@pytest.fixture(scope="module")
def bare_venv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Install]:
    """A venv with a bare ``pip install .`` (no extras; deleted after its tests)."""
    folder = tmp_path_factory.mktemp("bare-install")
    try:
        yield install(folder, "python3 -m venv .venv && .venv/bin/pip install -q .", ".venv/bin")
    finally:
        forget(folder)
