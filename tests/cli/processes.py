"""The real ``boardlab`` command in a subprocess: bounded waits, and no process outlives a test."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

BOARDLAB = str(Path(sys.executable).with_name("boardlab"))
WAIT = 120.0
"""Seconds any wait in these tests may take before the test fails."""


def _interruptible() -> None:
    """In the child before it runs: Ctrl-C back to its default. A suite started as a background
    job (``command &`` in a script) inherits SIGINT ignored, and Python, as every Unix program
    should, then leaves it ignored: the command would not be stoppable the way a user's is."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@contextmanager
def spawned(*argv: str, cwd: Path | None = None) -> Iterator[subprocess.Popen[str]]:
    """``boardlab ARGV`` in its own process group, killed with every child on the way out."""
    process = subprocess.Popen(
        [BOARDLAB, *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        start_new_session=True,
        preexec_fn=_interruptible,  # a test helper: no threads in flight at the fork
    )
    try:
        yield process
    finally:
        kill_group(process.pid)
        process.communicate(timeout=WAIT)


def kill_group(group: int) -> None:
    """SIGKILL every process left in process group ``group``."""
    with suppress(ProcessLookupError):
        os.killpg(group, signal.SIGKILL)


def group_members(group: int) -> list[int]:
    """Live (not zombie) processes of process group ``group``."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            members.append(int(entry.name))
    return members


def wait_for(condition: Callable[[], bool], timeout: float = WAIT) -> None:
    """Poll ``condition`` until it holds; fail the test after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for a condition")
        time.sleep(0.05)


def run(*argv: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``boardlab ARGV`` to the end, with a time bound."""
    return subprocess.run(
        [BOARDLAB, *argv],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=WAIT,
        start_new_session=True,
        check=False,
    )
